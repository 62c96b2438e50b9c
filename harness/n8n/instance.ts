/**
 * Starts an isolated n8n on 127.0.0.1 with this package installed the way users get it
 * (`npm pack` → `npm install` in `.n8n/nodes`), provisions an owner and an API key, and stops
 * every process it started by process group, also when the caller crashes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	existsSync,
	openSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { request } from 'undici';

import { N8nApi } from './api';
import { cleanNpmEnv, ensureRuntime, isAlive, run, type N8nRuntime } from './runtime';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 120000;
const STOP_GRACE_MS = 10000;

export interface StartN8nOptions {
	/** n8n version (one of runtime.ts's N8N_VERSIONS); default DIALER_N8N_VERSION or the newest. */
	version?: string;
	/**
	 * What the instance is for, in its names: user folder `/tmp/n8n-dialer-<purpose>-*`, owner
	 * `<purpose>-owner@example.com`. Default `e2e`.
	 */
	purpose?: string;
	/** Extra environment for n8n, e.g. GENERIC_TIMEZONE, N8N_LOG_LEVEL, EXECUTIONS_DATA_SAVE_ON_SUCCESS. */
	env?: Record<string, string>;
	/** Run `npm run build` before packing; otherwise dist/ must already exist. */
	build?: boolean;
	/** Keep the user folder (database, log) after stop(), for debugging. */
	keepUserFolder?: boolean;
}

export interface N8nInstance {
	baseUrl: string;
	n8nVersion: string;
	pid: number;
	userFolder: string;
	logFile: string;
	ownerEmail: string;
	ownerPassword: string;
	api: N8nApi;
	/** Milliseconds per start-up phase, for reports. */
	timings: Record<string, number>;
	/** Stops n8n and its task runner; removes the user folder unless kept (here or at start). */
	stop(options?: { keepUserFolder?: boolean }): Promise<void>;
	/**
	 * Stops n8n and starts it again on the same folder, port and settings (`pid` changes).
	 * `graceMs`: how long the stop waits for n8n to exit before killing it (as `docker stop -t`).
	 */
	restart(options?: { graceMs?: number }): Promise<void>;
}

/** What a pid file records, so a later run can reap an instance whose runner died. */
interface PidRecord {
	pid: number;
	ownerPid: number;
	userFolder: string;
	keepUserFolder: boolean;
	n8nBin: string;
}

function log(message: string): void {
	process.stderr.write(`[n8n-instance] ${message}\n`);
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, HOST, () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/** True while any process of the group still exists. */
function groupAlive(pgid: number): boolean {
	return isAlive(-pgid);
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
	}
}

/** SIGTERM the group, SIGKILL what is left after the grace period, wait until it is gone. */
export async function stopGroup(pgid: number, graceMs = STOP_GRACE_MS): Promise<void> {
	killGroup(pgid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
	if (!groupAlive(pgid)) return;
	log(`process group ${pgid} still alive after ${graceMs} ms: SIGKILL`);
	killGroup(pgid, 'SIGKILL');
	while (groupAlive(pgid)) await new Promise((r) => setTimeout(r, 50));
}

function pidDir(rt: N8nRuntime): string {
	return path.join(rt.cacheDir, 'instances');
}

/** Guards against PID reuse: only a process running our n8n binary is ours to kill. */
function runsN8n(pid: number, n8nBin: string): boolean {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(n8nBin);
	} catch {
		return false;
	}
}

/** Stops instances left by runs that died without cleaning up (their runner PID is gone). */
export async function reapLeftovers(rt: N8nRuntime): Promise<void> {
	const dir = pidDir(rt);
	if (!existsSync(dir)) return;
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
		const recordFile = path.join(dir, file);
		const record = JSON.parse(
			await readFile(recordFile, 'utf8').catch(() => '{}'),
		) as Partial<PidRecord>;
		if (!record.pid || (record.ownerPid && isAlive(record.ownerPid))) continue;
		if (runsN8n(record.pid, record.n8nBin ?? '')) {
			log(`reaping leftover n8n ${record.pid} of dead run ${record.ownerPid}`);
			await stopGroup(record.pid);
		}
		if (record.userFolder && !record.keepUserFolder)
			await rm(record.userFolder, { recursive: true, force: true });
		await rm(recordFile, { force: true });
	}
}

/** Set by scripts/test-real-n8n.ts: the tarball it packed once for every n8n of the run. */
export const PACKED_TARBALL_ENV = 'DIALER_PACKED_TARBALL';

/**
 * `npm pack` the project: exactly the files a user downloads from the registry. Within a test run
 * that packed it already, that tarball: n8n instances started at once then never pack dist/
 * while a test rebuilds it.
 */
export async function packProject(destination: string, build: boolean): Promise<string> {
	const packed = process.env[PACKED_TARBALL_ENV];
	if (packed) return packed;
	if (build) await run('npm', ['run', 'build'], { cwd: PROJECT_ROOT });
	if (!existsSync(path.join(PROJECT_ROOT, 'dist'))) {
		throw new Error('dist/ is missing: run `npm run build` first (or pass build: true)');
	}
	const out = await run('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: PROJECT_ROOT,
	});
	const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
	return path.join(destination, filename);
}

/** What n8n's community-node installer does, minus the registry download (cached metadata is enough: no runtime deps). */
export async function installPackage(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	await mkdir(nodesDir, { recursive: true });
	await writeFile(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, '\t'),
	);
	await run(
		'npm',
		[
			'install',
			'--omit=dev',
			'--omit=peer',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--prefer-offline',
			tarball,
		],
		{ cwd: nodesDir, env: cleanNpmEnv() },
	);
}

/** The instance owner's login; the password is random per instance. */
export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export function newOwner(purpose: string): Owner {
	const name = `${purpose[0].toUpperCase()}${purpose.slice(1)}`;
	return {
		email: `${purpose}-owner@example.com`,
		// n8n asks for 8+ characters with a digit and an upper-case letter.
		password: `${name}-${randomBytes(12).toString('hex')}-Pw1`,
		firstName: name,
		lastName: 'Owner',
	};
}

/** Where n8n 1.x needs its owner set up through the editor (see runtime.ts's N8N_VERSIONS). */
export async function provisionOwner(
	rt: N8nRuntime,
	baseUrl: string,
	owner: Owner,
	webhookBaseUrl?: string,
): Promise<N8nApi> {
	if (!rt.spec.ownerFromEnv) await N8nApi.setUpOwner(baseUrl, owner);
	return N8nApi.connect({
		baseUrl,
		webhookBaseUrl,
		email: owner.email,
		password: owner.password,
		workflowApi: rt.spec.workflowApi,
	});
}

export function n8nEnv(
	rt: N8nRuntime,
	config: {
		userFolder: string;
		port: number;
		brokerPort: number;
		owner: Owner;
	},
	extra: Record<string, string>,
): NodeJS.ProcessEnv {
	const { owner } = config;
	return {
		// Only what n8n needs from the outside: no inherited N8N_* or DB_* settings leak in.
		PATH: `${path.dirname(rt.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		HOME: process.env.HOME,
		// n8n writes temporary files (e.g. n8nDataTableUploads) under TMPDIR: keep them in the folder.
		TMPDIR: path.join(config.userFolder, 'tmp'),
		N8N_USER_FOLDER: config.userFolder,
		N8N_LISTEN_ADDRESS: HOST,
		N8N_HOST: HOST,
		N8N_PORT: String(config.port),
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://${HOST}:${config.port}/`,
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: HOST,
		N8N_RUNNERS_BROKER_PORT: String(config.brokerPort),
		N8N_ENCRYPTION_KEY: 'n8n-nodes-dialer-e2e-encryption-key',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		...(rt.spec.disabledModules ? { N8N_DISABLED_MODULES: rt.spec.disabledModules } : {}),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		...(rt.spec.ownerFromEnv
			? {
					N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
					N8N_INSTANCE_OWNER_EMAIL: owner.email,
					N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
					N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
					N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(owner.password, 10),
				}
			: {}),
		N8N_LOG_OUTPUT: 'console',
		...extra,
	};
}

/**
 * Polls `{baseUrl}/healthz/readiness` (main, webhook processor, or a worker's health server),
 * then each of `more` paths until it answers 200.
 */
export async function waitForReady(
	baseUrl: string,
	child: ChildProcess,
	logFile: string,
	more: string[] = [],
): Promise<void> {
	const deadline = Date.now() + READY_TIMEOUT_MS;
	const paths = ['/healthz/readiness', ...more];
	while (Date.now() < deadline && paths.length > 0) {
		if (child.exitCode !== null || child.signalCode !== null) {
			const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
			throw new Error(
				`n8n exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail}`,
			);
		}
		try {
			const res = await request(`${baseUrl}${paths[0]}`);
			await res.body.dump();
			if (res.statusCode === 200) {
				paths.shift();
				continue;
			}
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	if (paths.length === 0) return;
	throw new Error(`n8n was not ready within ${READY_TIMEOUT_MS} ms; see ${logFile}`);
}

interface RunningEntry {
	/** The record that lets a later run reap the group; absent for groups a caller tracks itself. */
	pidFile?: string;
	/** Removed when the group is stopped, unless kept. */
	userFolder: string;
	keep: boolean;
}

// Instances of this process, stopped on exit or signal even if the caller forgets.
const running = new Map<number, RunningEntry>();
let hooksInstalled = false;

/** Stops the group and removes its pid file and (unless kept) its user folder. */
async function shutdown(pgid: number, keep?: boolean, graceMs = STOP_GRACE_MS): Promise<void> {
	const entry = running.get(pgid);
	await stopGroup(pgid, graceMs);
	running.delete(pgid);
	if (!entry) return;
	if (entry.pidFile) await rm(entry.pidFile, { force: true });
	if (!(keep ?? entry.keep)) await rm(entry.userFolder, { recursive: true, force: true });
}

/**
 * Stops `pgid` with the others when this process exits or gets SIGINT/SIGTERM, and removes
 * `userFolder` then unless kept. For other long-running processes (databases, queues) started
 * beside n8n; `stopTracked` stops one earlier.
 */
export function trackGroup(pgid: number, entry: { userFolder: string; keep: boolean }): void {
	installExitHooks();
	running.set(pgid, entry);
}

/** Stops a group registered by `trackGroup` or `spawnN8n` and removes its folder unless kept. */
export function stopTracked(pgid: number, keep?: boolean): Promise<void> {
	return shutdown(pgid, keep);
}

/** Stops every group this process started or tracks (the signal hooks' work, for callers that handle the signal themselves). */
export async function stopAllTracked(graceMs = STOP_GRACE_MS): Promise<void> {
	await Promise.allSettled([...running.keys()].map((pid) => shutdown(pid, undefined, graceMs)));
}

function installExitHooks(): void {
	if (hooksInstalled) return;
	hooksInstalled = true;
	// 'exit' allows only synchronous work: kill hard and clean up.
	process.on('exit', () => {
		for (const [pid, entry] of running) {
			killGroup(pid, 'SIGKILL');
			if (entry.pidFile) rmSync(entry.pidFile, { force: true });
			if (!entry.keep) rmSync(entry.userFolder, { recursive: true, force: true });
		}
	});
	// A process killed by a signal emits no 'exit': clean up, then die of the same signal.
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			void stopAllTracked(3000).then(() => process.kill(process.pid, signal));
		});
	}
}

export interface N8nProcess {
	/** The process group: n8n and the task runner it starts. */
	pid: number;
	child: ChildProcess & { pid: number };
	logFile: string;
	/** Stops the group; removes the user folder unless kept (here or at spawn). */
	stop(options?: { keepUserFolder?: boolean }): Promise<void>;
}

/**
 * Spawns one n8n process (`n8n start`, `worker`, `webhook`, …) in its own process group with
 * stdout and stderr in `<userFolder>/n8n.log`, recorded so that this process's exit hooks and a
 * later run's `reapLeftovers` stop it. `env` is complete (see `n8nEnv`); `<userFolder>/tmp` is made.
 */
export async function spawnN8n(
	rt: N8nRuntime,
	options: {
		command: string;
		args?: string[];
		userFolder: string;
		env: NodeJS.ProcessEnv;
		keepUserFolder?: boolean;
	},
): Promise<N8nProcess> {
	const { userFolder } = options;
	await mkdir(path.join(userFolder, 'tmp'), { recursive: true });
	const logFile = path.join(userFolder, 'n8n.log');
	const logFd = openSync(logFile, 'a');
	// detached: n8n and its task runner get their own process group, so one kill reaches both.
	const child = spawn(rt.nodeBin, [rt.n8nBin, options.command, ...(options.args ?? [])], {
		cwd: userFolder,
		env: options.env,
		detached: true,
		stdio: ['ignore', logFd, logFd],
	});
	closeSync(logFd);
	const pgid = child.pid;
	if (!pgid) throw new Error(`n8n ${options.command} did not start`);
	child.unref();

	const keep = options.keepUserFolder ?? false;
	const record: PidRecord = {
		pid: pgid,
		ownerPid: process.pid,
		userFolder,
		keepUserFolder: keep,
		n8nBin: rt.n8nBin,
	};
	await mkdir(pidDir(rt), { recursive: true });
	const pidFile = path.join(pidDir(rt), `${pgid}.json`);
	writeFileSync(pidFile, JSON.stringify(record));
	writeFileSync(path.join(userFolder, 'n8n.pid'), String(pgid));
	installExitHooks();
	running.set(pgid, { pidFile, userFolder, keep });
	return {
		pid: pgid,
		child: child as ChildProcess & { pid: number },
		logFile,
		stop: (stopOptions = {}) => shutdown(pgid, stopOptions.keepUserFolder),
	};
}

/** Runs `work`, recording its milliseconds in `timings[phase]` (start-up reports). */
export function phaseTimer(timings: Record<string, number>) {
	return async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
		const started = Date.now();
		try {
			return await work();
		} finally {
			timings[phase] = Date.now() - started;
		}
	};
}

export async function startN8n(options: StartN8nOptions = {}): Promise<N8nInstance> {
	const timings: Record<string, number> = {};
	const time = phaseTimer(timings);

	const rt = await time('runtime', () => ensureRuntime({ version: options.version }));
	await reapLeftovers(rt);

	const purpose = options.purpose ?? 'e2e';
	const userFolder = await mkdtemp(path.join(os.tmpdir(), `n8n-dialer-${purpose}-`));
	let pgid: number | undefined;
	try {
		const tarball = await time('pack', () => packProject(userFolder, options.build ?? false));
		await time('installPackage', () => installPackage(userFolder, tarball));

		const [port, brokerPort] = [await freePort(), await freePort()];
		const owner = newOwner(purpose);
		const env = n8nEnv(rt, { userFolder, port, brokerPort, owner }, options.env ?? {});
		const baseUrl = `http://${HOST}:${port}`;

		const startedAt = Date.now();
		const { child, logFile } = await spawnN8n(rt, {
			command: 'start',
			userFolder,
			env,
			keepUserFolder: options.keepUserFolder,
		});
		pgid = child.pid;
		log(`n8n pid ${pgid} (n8n ${rt.n8nVersion}) on ${baseUrl}, user folder ${userFolder}`);

		// /healthz/readiness answers before the migrations of a fresh 1.x database end; the
		// editor's settings answer only after them.
		await waitForReady(baseUrl, child, logFile, ['/rest/settings']);
		timings.ready = Date.now() - startedAt;
		const api = await time('provision', () => provisionOwner(rt, baseUrl, owner));

		const instance: N8nInstance = {
			baseUrl,
			n8nVersion: rt.n8nVersion,
			pid: pgid,
			userFolder,
			logFile,
			ownerEmail: owner.email,
			ownerPassword: owner.password,
			api,
			timings,
			stop: (stopOptions = {}) => shutdown(instance.pid, stopOptions.keepUserFolder),
			async restart(restartOptions = {}) {
				await shutdown(instance.pid, true, restartOptions.graceMs);
				const again = await spawnN8n(rt, {
					command: 'start',
					userFolder,
					env,
					keepUserFolder: options.keepUserFolder,
				});
				instance.pid = again.pid;
				await waitForReady(baseUrl, again.child, logFile, ['/rest/settings']);
			},
		};
		return instance;
	} catch (error) {
		if (pgid) await shutdown(pgid);
		if (!options.keepUserFolder) await rm(userFolder, { recursive: true, force: true });
		throw error;
	}
}
