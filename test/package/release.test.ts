/**
 * `npm run release` and the publish workflow's tag check, run on a copy of the package's
 * release files in a temporary git repository (never on this checkout).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const RELEASE = path.join(ROOT, 'scripts', 'release.ts');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CURRENT = (
	JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const [major, minor] = CURRENT.split('.').map(Number);
const NEXT = `${major}.${minor + 1}.0`;
const TODAY = new Date().toISOString().slice(0, 10);

/** Written by the stand-in for the whole test matrix. */
const MATRIX_MARK = path.join(tmpdir(), `dialer-release-matrix-${process.pid}.txt`);
const GIT_ENV = {
	...process.env,
	GIT_CONFIG_GLOBAL: '/dev/null',
	GIT_CONFIG_NOSYSTEM: '1',
	GIT_AUTHOR_NAME: 'Release Test',
	GIT_AUTHOR_EMAIL: 'release-test@example.com',
	GIT_COMMITTER_NAME: 'Release Test',
	GIT_COMMITTER_EMAIL: 'release-test@example.com',
	// A stand-in for the whole test matrix that records what the tree held when it ran.
	DIALER_RELEASE_MATRIX: `git status --porcelain > ${MATRIX_MARK}`,
};

const changelog = (unreleased: string) => `# Changelog

Intro text.

## [Unreleased]
${unreleased}
## [${CURRENT}]

### Added

- The first release.
`;
const readme = (version: string) =>
	`# Install\n\n    npm pack\n    cp n8n-nodes-dialer-${version}.tgz ~/.n8n/nodes/\n    npm install ./n8n-nodes-dialer-${version}.tgz\n`;
const UNRELEASED_ENTRIES = `
### Fixed

- A fix users notice.
`;

let repo: string;

function run(command: string, args: string[], env: Record<string, string> = {}) {
	const result = spawnSync(command, args, {
		cwd: repo,
		env: { ...GIT_ENV, ...env },
		encoding: 'utf8',
	});
	return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
const release = (...args: string[]) => run(TSX, [RELEASE, ...args]);
const git = (...args: string[]) => run('git', args).stdout.trim();
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');
const versionIn = (file: string) => (JSON.parse(read(file)) as { version: string }).version;

/** A repository holding this package's package.json and lock file, and the given CHANGELOG. */
function createRepo(unreleased = UNRELEASED_ENTRIES): void {
	repo = mkdtempSync(path.join(tmpdir(), 'dialer-release-'));
	for (const file of ['package.json', 'package-lock.json', '.npmrc'])
		copyFileSync(path.join(ROOT, file), path.join(repo, file));
	writeFileSync(path.join(repo, 'CHANGELOG.md'), changelog(unreleased));
	writeFileSync(path.join(repo, 'README.md'), readme(CURRENT));
	git('init', '--quiet', '--initial-branch=main');
	git('add', '.');
	git('commit', '--quiet', '-m', 'Initial');
}

/** Everything a release could change: files, commits, tags, the index. */
function snapshot() {
	return {
		files: ['package.json', 'package-lock.json', 'CHANGELOG.md', 'README.md'].map(read),
		head: git('rev-parse', 'HEAD'),
		tags: git('tag', '--list'),
		status: git('status', '--porcelain'),
	};
}

afterEach(() => {
	rmSync(repo, { recursive: true, force: true });
	rmSync(MATRIX_MARK, { force: true });
});

describe('npm run release -- <version>', () => {
	it('--dry-run prints the plan and changes nothing', () => {
		createRepo();
		const before = snapshot();
		const result = release(NEXT, '--dry-run');
		expect(result.stderr).toBe('');
		expect(result.status).toBe(0);
		expect(result.stdout).toBe(
			[
				`[dry run] would run the whole test matrix first (${GIT_ENV.DIALER_RELEASE_MATRIX})`,
				`[dry run] would set the version ${CURRENT} -> ${NEXT} (package.json, package-lock.json)`,
				`[dry run] would move CHANGELOG.md's "Unreleased" entries under "## [${NEXT}] - ${TODAY}":`,
				'    ### Fixed',
				'',
				'    - A fix users notice.',
				`[dry run] would rename n8n-nodes-dialer-${CURRENT}.tgz to n8n-nodes-dialer-${NEXT}.tgz in README.md`,
				`[dry run] would commit package.json, package-lock.json, CHANGELOG.md, README.md as "Release ${NEXT}"`,
				`[dry run] would tag v${NEXT}`,
				'[dry run] nothing changed',
				'',
			].join('\n'),
		);
		expect(snapshot()).toEqual(before);
	});

	it('runs the whole test matrix first, and stops without a change when it fails', () => {
		createRepo();
		const before = snapshot();
		const failed = run(TSX, [RELEASE, NEXT], { DIALER_RELEASE_MATRIX: 'exit 3' });
		expect(failed.status).toBe(1);
		expect(failed.stderr).toContain('the whole test matrix failed (exit 3); nothing changed');
		expect(snapshot()).toEqual(before);
	});

	it('sets the version, moves the Unreleased entries under it, renames the tarball in the README, commits and tags', () => {
		createRepo();
		const result = release(NEXT);
		expect(result.status).toBe(0);
		// The matrix ran on the tree as committed, before the release changed it.
		expect(readFileSync(MATRIX_MARK, 'utf8')).toBe('');
		expect(result.stdout).toContain(`Released ${NEXT}.`);
		expect(versionIn('package.json')).toBe(NEXT);
		expect(versionIn('package-lock.json')).toBe(NEXT);
		expect(
			(JSON.parse(read('package-lock.json')) as { packages: Record<string, { version: string }> })
				.packages[''].version,
		).toBe(NEXT);
		// A new empty Unreleased section, then the entries under the version and today's date.
		expect(read('CHANGELOG.md')).toBe(
			changelog(`\n## [${NEXT}] - ${TODAY}\n${UNRELEASED_ENTRIES}`),
		);
		expect(git('status', '--porcelain')).toBe('');
		expect(git('log', '-1', '--format=%s')).toBe(`Release ${NEXT}`);
		expect(git('diff', '--name-only', 'HEAD~1', 'HEAD').split('\n').sort()).toEqual([
			'CHANGELOG.md',
			'README.md',
			'package-lock.json',
			'package.json',
		]);
		expect(read('README.md')).toBe(readme(NEXT));
		expect(git('rev-parse', `v${NEXT}^{commit}`)).toBe(git('rev-parse', 'HEAD'));
		// The new version then passes the publish workflow's check.
		expect(release('--verify-tag', `v${NEXT}`).status).toBe(0);
	});

	it.each([
		['a version that is not semver', '1.2', /"1.2" is not a semantic version/],
		['a version with a v prefix', `v${NEXT}`, /is not a semantic version/],
		['the current version', CURRENT, new RegExp(`is not above the current version ${CURRENT}`)],
		['a lower version', '0.0.1', new RegExp(`0.0.1 is not above the current version ${CURRENT}`)],
	])('refuses %s', (_case, version, message) => {
		createRepo();
		const before = snapshot();
		const result = release(version);
		expect(result.status).toBe(1);
		expect(result.stderr).toMatch(message);
		expect(snapshot()).toEqual(before);
	});

	it('refuses a working tree with uncommitted changes', () => {
		createRepo();
		writeFileSync(path.join(repo, 'notes.txt'), 'work in progress');
		const result = release(NEXT);
		expect(result.status).toBe(1);
		expect(result.stderr).toMatch(/uncommitted changes[^]*notes\.txt/);
		expect(versionIn('package.json')).toBe(CURRENT);
	});

	it('refuses an Unreleased section without entries', () => {
		createRepo('\n### Added\n\n');
		const before = snapshot();
		const result = release(NEXT, '--dry-run');
		expect(result.status).toBe(1);
		expect(result.stderr).toMatch(/"Unreleased" section is empty/);
		expect(snapshot()).toEqual(before);
	});

	it('after a release, refuses the next one until Unreleased has entries again', () => {
		createRepo();
		expect(release(NEXT).status).toBe(0);
		const next = `${major}.${minor + 1}.1`;
		expect(release(next).stderr).toMatch(/"Unreleased" section is empty/);
	});
});

describe('release.ts --verify-tag (the publish workflow)', () => {
	it("accepts this checkout's own version: CHANGELOG.md has its section", () => {
		const result = spawnSync(TSX, [RELEASE, '--verify-tag', `v${CURRENT}`], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		expect(result.stderr).toBe('');
		expect(result.stdout).toMatch(new RegExp(`^v${CURRENT} matches package.json ${CURRENT}`));
		expect(result.status).toBe(0);
	});

	it("refuses a tag that is not package.json's version", () => {
		createRepo();
		const result = release('--verify-tag', `v${NEXT}`);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain(
			`tag "v${NEXT}" does not match package.json's version ${CURRENT} (expected v${CURRENT})`,
		);
	});

	it('refuses a branch name (the workflow run by hand on a branch)', () => {
		createRepo();
		expect(release('--verify-tag', 'main').stderr).toContain('tag "main" does not match');
	});

	it('refuses a version without a CHANGELOG section', () => {
		createRepo();
		writeFileSync(
			path.join(repo, 'CHANGELOG.md'),
			changelog(UNRELEASED_ENTRIES).replace(`## [${CURRENT}]`, '## [0.0.0]'),
		);
		const result = release('--verify-tag', `v${CURRENT}`);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain(`CHANGELOG.md has no "## [${CURRENT}]" section`);
	});
});
