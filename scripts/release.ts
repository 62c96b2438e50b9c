/**
 * Cuts a release, or checks that a tag may be published.
 *
 *   npm run release -- <version> [--dry-run]
 *     Runs the whole test matrix (`npm run test:all`: every real-n8n suite on both n8n lines and
 *     in queue mode, about an hour on 2 cores) and stops if it fails. Then sets package.json's and package-lock.json's version, moves CHANGELOG.md's "Unreleased"
 *     section under `## [<version>] - <date (UTC)>` with a new empty "Unreleased" above it, renames
 *     the packed tarball in README.md's install commands, then commits those files and tags
 *     `v<version>`. Refuses a dirty working tree, a version that
 *     is not semver or not above the current one, an existing tag and an empty "Unreleased".
 *     --dry-run prints the same plan and changes nothing.
 *
 *   npx tsx scripts/release.ts --verify-tag <tag>
 *     What the publish workflow runs first: the tag must be `v` + package.json's version and
 *     CHANGELOG.md must have that version's section.
 *
 * Works on the repository in the current directory (npm runs scripts from the package root).
 */
import { execFileSync, execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import semver from 'semver';

const UNRELEASED = '## [Unreleased]';
const CHANGED_FILES = ['package.json', 'package-lock.json', 'CHANGELOG.md', 'README.md'];
/** Run before anything changes; the release script's own tests replace it with a stand-in. */
const MATRIX = process.env.DIALER_RELEASE_MATRIX ?? 'npm run test:all';

class ReleaseError extends Error {}

interface Changelog {
	/** Everything up to and including the "Unreleased" heading line. */
	head: string;
	/** The "Unreleased" section's body (up to the next version heading). */
	unreleased: string;
	/** The version sections and anything after them. */
	rest: string;
}

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8' }).trimEnd();
}

function readManifest(root: string): { name: string; version: string } {
	return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		name: string;
		version: string;
	};
}

function currentVersion(root: string): string {
	return readManifest(root).version;
}

/** The file `npm pack` writes for a version. */
function tarballName(root: string, version: string): string {
	return `${readManifest(root).name}-${version}.tgz`;
}

function readChangelog(root: string): string {
	return readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
}

function splitChangelog(text: string): Changelog {
	const start = text.indexOf(`${UNRELEASED}\n`);
	if (start < 0) throw new ReleaseError(`CHANGELOG.md has no "${UNRELEASED}" heading`);
	const bodyStart = start + UNRELEASED.length + 1;
	const next = text.indexOf('\n## ', bodyStart - 1);
	const bodyEnd = next < 0 ? text.length : next + 1;
	return {
		head: text.slice(0, bodyStart),
		unreleased: text.slice(bodyStart, bodyEnd).trim(),
		rest: text.slice(bodyEnd),
	};
}

/** An entry is any line that is not blank and not a "### Added"-style group heading. */
function hasEntries(section: string): boolean {
	return section.split('\n').some((line) => line.trim() !== '' && !line.startsWith('### '));
}

function versionHeading(text: string, version: string): string | undefined {
	return text.split('\n').find((line) => line.startsWith(`## [${version}]`));
}

/** The YYYY-MM-DD of today in UTC: the same date wherever the release is cut. */
function today(): string {
	return new Date().toISOString().slice(0, 10);
}

interface Plan {
	version: string;
	tag: string;
	heading: string;
	changelog: string;
	entries: string;
	readme: string;
	tarballs: { from: string; to: string };
}

function plan(root: string, requested: string): Plan {
	const version = semver.valid(requested);
	if (!version || version !== requested)
		throw new ReleaseError(
			`"${requested}" is not a semantic version: give MAJOR.MINOR.PATCH, e.g. 0.2.0`,
		);
	const current = currentVersion(root);
	if (!semver.gt(version, current))
		throw new ReleaseError(`${version} is not above the current version ${current}`);
	const tag = `v${version}`;
	if (git(root, 'tag', '--list', tag) !== '') throw new ReleaseError(`tag ${tag} already exists`);
	const dirty = git(root, 'status', '--porcelain');
	if (dirty !== '')
		throw new ReleaseError(
			`the working tree has uncommitted changes; commit them first:\n${dirty}`,
		);
	const changelog = splitChangelog(readChangelog(root));
	if (!hasEntries(changelog.unreleased))
		throw new ReleaseError(
			`CHANGELOG.md's "Unreleased" section is empty: describe what ${version} changes first`,
		);
	const heading = `## [${version}] - ${today()}`;
	const tarballs = { from: tarballName(root, current), to: tarballName(root, version) };
	return {
		version,
		tag,
		heading,
		entries: changelog.unreleased,
		changelog: `${changelog.head}\n${heading}\n\n${changelog.unreleased}\n\n${changelog.rest}`,
		readme: readFileSync(path.join(root, 'README.md'), 'utf8').replaceAll(
			tarballs.from,
			tarballs.to,
		),
		tarballs,
	};
}

function release(root: string, requested: string, dryRun: boolean): void {
	const { version, tag, heading, entries, changelog, readme, tarballs } = plan(root, requested);
	const prefix = dryRun ? '[dry run] would ' : '';
	console.log(`${prefix}run the whole test matrix first (${MATRIX})`);
	console.log(
		`${prefix}set the version ${currentVersion(root)} -> ${version} (package.json, package-lock.json)`,
	);
	console.log(`${prefix}move CHANGELOG.md's "Unreleased" entries under "${heading}":`);
	console.log(entries.replace(/^(?=.)/gm, '    '));
	console.log(`${prefix}rename ${tarballs.from} to ${tarballs.to} in README.md`);
	console.log(`${prefix}commit ${CHANGED_FILES.join(', ')} as "Release ${version}"`);
	console.log(`${prefix}tag ${tag}`);
	if (dryRun) {
		console.log('[dry run] nothing changed');
		return;
	}
	try {
		execSync(MATRIX, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
	} catch {
		throw new ReleaseError(`the whole test matrix failed (${MATRIX}); nothing changed`);
	}
	// npm keeps both files in its own layout; no install, no lifecycle scripts, no git.
	execFileSync('npm', ['version', version, '--no-git-tag-version', '--ignore-scripts'], {
		cwd: root,
		stdio: 'ignore',
	});
	writeFileSync(path.join(root, 'CHANGELOG.md'), changelog);
	writeFileSync(path.join(root, 'README.md'), readme);
	git(root, 'commit', '--quiet', '-m', `Release ${version}`, '--', ...CHANGED_FILES);
	git(root, 'tag', '--annotate', tag, '-m', `${tag}\n\n${entries}`);
	console.log(
		`Released ${version}. Push the commit and the tag to publish it from CI: git push origin HEAD ${tag}`,
	);
}

function verifyTag(root: string, tag: string): void {
	const version = currentVersion(root);
	if (tag !== `v${version}`)
		throw new ReleaseError(
			`tag "${tag}" does not match package.json's version ${version} (expected v${version})`,
		);
	const heading = versionHeading(readChangelog(root), version);
	if (!heading) throw new ReleaseError(`CHANGELOG.md has no "## [${version}]" section`);
	console.log(`${tag} matches package.json ${version} and CHANGELOG.md's "${heading}"`);
}

function main(args: string[]): void {
	const root = process.cwd();
	if (args[0] === '--verify-tag' && args.length === 2) return verifyTag(root, args[1]);
	const dryRun = args.includes('--dry-run');
	const positional = args.filter((arg) => arg !== '--dry-run');
	if (positional.length !== 1 || positional[0].startsWith('-'))
		throw new ReleaseError(
			'usage: npm run release -- <version> [--dry-run]  |  tsx scripts/release.ts --verify-tag <tag>',
		);
	release(root, positional[0], dryRun);
}

try {
	main(process.argv.slice(2));
} catch (error) {
	if (!(error instanceof ReleaseError)) throw error;
	console.error(`release: ${error.message}`);
	process.exitCode = 1;
}
