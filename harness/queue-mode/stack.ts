/**
 * n8n in queue mode on 127.0.0.1, as n8n documents it for scaling: Redis for the job queue,
 * PostgreSQL as the shared database, one main (editor, API; production webhooks disabled),
 * webhook processors (`n8n webhook`, serve /webhook/…) and workers (`n8n worker`), each with
 * its own user folder holding this package installed the way users install it. Every process
 * is stopped by process group in `stop()`, and by the exit hooks if the caller dies first.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { N8nApi } from '../n8n/api';
import {
	freePort,
	installPackage,
	n8nEnv,
	newOwner,
	packProject,
	phaseTimer,
	provisionOwner,
	reapLeftovers,
	spawnN8n,
	waitForReady,
	type N8nProcess,
} from '../n8n/instance';
import { ensureRuntime, type N8nRuntime } from '../n8n/runtime';
import { ensureDebianPackages } from '../services/debian';
import { startPostgres, type PostgresServer } from '../services/postgres';
import { ensurePostgresBinaries } from '../services/postgresBinaries';
import { REDIS_PACKAGE, startRedis, type RedisOptions, type RedisServer } from '../services/redis';

const HOST = '127.0.0.1';

export interface QueueModeOptions {
	/** Workers started with the stack (more with `startWorker`). Default 2. */
	workers?: number;
	/** Webhook processors (`n8n webhook`). Default 1. */
	webhookProcessors?: number;
	/**
	 * Where the dialer posts: a load balancer in front of the processors, needed with more than
	 * one. Default: the one processor's own address.
	 */
	webhookUrl?: string;
	/** Jobs one worker runs at once (`n8n worker --concurrency`). Default n8n's 10. */
	concurrency?: number;
	/** Extra environment for every n8n process, e.g. QUEUE_WORKER_LOCK_DURATION. */
	env?: Record<string, string>;
	/** Run `npm run build` before packing; otherwise dist/ must exist. */
	build?: boolean;
	/** Keep folders (logs, data) after stop(), for debugging. */
	keep?: boolean;
	/** Redis persistence (harness/services/redis.ts); default none. */
	redisPersistence?: RedisOptions['persistence'];
}

export interface QueueProcess {
	/** `main`, `webhook`, `worker-1`, … */
	name: string;
	/** Where it answers /healthz (a worker: its health server). */
	baseUrl: string;
	process: N8nProcess;
}

export interface QueueModeStack {
	n8nVersion: string;
	main: QueueProcess;
	/** The first webhook processor. */
	webhook: QueueProcess;
	webhooks: QueueProcess[];
	workers: QueueProcess[];
	redis: RedisServer;
	postgres: PostgresServer;
	/** Owner client of the main; its webhook workflows post to the webhook processor. */
	api: N8nApi;
	ownerEmail: string;
	ownerPassword: string;
	/** Milliseconds per start-up phase, for reports. */
	timings: Record<string, number>;
	/** Starts one more worker and waits until it takes jobs. */
	startWorker(): Promise<QueueProcess>;
	/**
	 * Starts a process that died again, with its folder, port and settings, as a supervisor
	 * (systemd, Kubernetes) would; stops what is left of it first.
	 */
	respawn(name: string): Promise<QueueProcess>;
	/** Stops every n8n process, then Redis and PostgreSQL; removes folders unless kept. */
	stop(): Promise<void>;
}

/** The settings every process of one installation shares. */
function queueEnv(
	redis: RedisServer,
	postgres: PostgresServer,
	webhookUrl: string,
): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		// The editor shows production URLs on the webhook processor.
		WEBHOOK_URL: `${webhookUrl}/`,
		// n8n 3 always does this; 2.x warns unless it is set: manual runs go to workers too.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

export async function startQueueMode(options: QueueModeOptions = {}): Promise<QueueModeStack> {
	const timings: Record<string, number> = {};
	const time = phaseTimer(timings);
	const keep = options.keep ?? false;

	await time('packages', async () => {
		await ensureDebianPackages([REDIS_PACKAGE]);
		await ensurePostgresBinaries();
	});
	const rt: N8nRuntime = await time('runtime', () => ensureRuntime());
	await reapLeftovers(rt);

	let mainFolder: string | undefined;
	const n8nStops: Array<() => Promise<void>> = [];
	const serviceStops: Array<() => Promise<void>> = [];
	const stopAll = async () => {
		// n8n first, so Redis and PostgreSQL see their clients leave before they stop.
		for (const stops of [n8nStops, serviceStops]) {
			await Promise.allSettled(stops.splice(0).map((stop) => stop()));
		}
	};

	try {
		const [redis, postgres] = await time('services', () =>
			Promise.all([
				startRedis({ keep, persistence: options.redisPersistence }),
				startPostgres({ keep }),
			]),
		);
		serviceStops.push(redis.stop, postgres.stop);

		// Installed into the main's folder the way users install it, then copied into every other
		// process's own folder (like separate hosts or containers).
		mainFolder = await mkdtemp(path.join(os.tmpdir(), 'n8n-dialer-queue-main-'));
		const nodesOf = (userFolder: string) => path.join(userFolder, '.n8n', 'nodes');
		const packageFrom = mainFolder;
		await time('installPackage', async () =>
			installPackage(packageFrom, await packProject(packageFrom, options.build ?? false)),
		);

		const owner = newOwner('queue');
		const webhookPort = await freePort();
		const processors = options.webhookProcessors ?? 1;
		if (processors > 1 && !options.webhookUrl)
			throw new Error(`${processors} webhook processors need a webhookUrl in front of them`);
		const webhookUrl = options.webhookUrl ?? `http://${HOST}:${webhookPort}`;
		const shared = { ...queueEnv(redis, postgres, webhookUrl), ...options.env };

		const launched = new Map<string, () => Promise<QueueProcess>>();
		const launch = async (
			name: string,
			command: 'start' | 'webhook' | 'worker',
			extra: Record<string, string>,
			at: { port?: number; userFolder?: string } = {},
		): Promise<QueueProcess> => {
			// Its own folder, removed when it stops (by stop() or the exit hooks).
			let userFolder = at.userFolder;
			if (!userFolder) {
				userFolder = await mkdtemp(path.join(os.tmpdir(), `n8n-dialer-queue-${name}-`));
				await cp(nodesOf(packageFrom), nodesOf(userFolder), { recursive: true });
			}
			const ownPort = at.port ?? (await freePort());
			const again = { port: ownPort, userFolder };
			launched.set(name, () => launch(name, command, extra, again));
			const env = n8nEnv(
				rt,
				{ userFolder, port: ownPort, brokerPort: await freePort(), owner },
				{ ...shared, ...extra },
			);
			const args = command === 'worker' ? [`--concurrency=${options.concurrency ?? 10}`] : [];
			const baseUrl = `http://${HOST}:${extra.QUEUE_HEALTH_CHECK_PORT ?? ownPort}`;
			const started = await spawnN8n(rt, { command, args, userFolder, env, keepUserFolder: keep });
			n8nStops.push(() => started.stop());
			await waitForReady(baseUrl, started.child, started.logFile);
			return { name, baseUrl, process: started };
		};
		let workerCount = 0;
		const startWorker = async () =>
			launch(`worker-${++workerCount}`, 'worker', {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(await freePort()),
				N8N_WORKER_SERVER_ADDRESS: HOST,
			});

		// The main runs the database migrations: the others start once it is up.
		const main = await time('main', () =>
			launch(
				'main',
				'start',
				{ N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
				{ userFolder: packageFrom },
			),
		);
		const [webhooks, workers] = await time('webhookAndWorkers', () =>
			Promise.all([
				Promise.all(
					Array.from({ length: processors }, (_, index) =>
						index === 0
							? launch('webhook', 'webhook', {}, { port: webhookPort })
							: launch(`webhook-${index + 1}`, 'webhook', {}),
					),
				),
				Promise.all(Array.from({ length: options.workers ?? 2 }, () => startWorker())),
			]),
		);
		const [webhook] = webhooks;
		const api = await provisionOwner(rt, main.baseUrl, owner, webhookUrl);
		return {
			n8nVersion: rt.n8nVersion,
			main,
			webhook,
			webhooks,
			workers,
			redis,
			postgres,
			api,
			ownerEmail: owner.email,
			ownerPassword: owner.password,
			timings,
			startWorker: async () => {
				const worker = await startWorker();
				workers.push(worker);
				return worker;
			},
			respawn: async (name) => {
				const dead = [main, ...webhooks, ...workers].find((p) => p.name === name);
				const again = launched.get(name);
				if (!dead || !again) throw new Error(`no n8n process named ${name}`);
				await dead.process.stop({ keepUserFolder: true });
				// The same object, so every reference to it sees the new process.
				return Object.assign(dead, await again());
			},
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		// Until the main started, nothing else removes its folder.
		if (mainFolder && !keep) await rm(mainFolder, { recursive: true, force: true });
		throw error;
	}
}
