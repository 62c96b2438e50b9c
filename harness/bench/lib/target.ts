/**
 * One n8n to measure: started fresh with the packed package (harness/n8n), or a queue-mode
 * installation (harness/queue-mode), with the credentials both sides need, and helpers to time
 * runs with the memory and CPU of n8n's process group.
 */
import type { Credential, N8nApi } from '../../n8n/api';
import { simulatorCredential } from '../../n8n/dialer';
import { startN8n } from '../../n8n/instance';
import { startQueueMode } from '../../queue-mode/stack';
import type { DialerSimulator } from '../../simulator/types';
import { startWebhookFront } from './front';
import { cpuTimes, groupMemory, resetPeaks } from './procfs';
import type { Json, RunWorkflow } from './workflows';

export interface Target {
	/** The process group whose CPU and memory are measured: n8n, in queue mode the first webhook processor. */
	n8n: { pid: number };
	/** Every n8n process of the deployment: the one n8n, or main, webhook processors and workers. */
	processes: Array<{ pid: number }>;
	/** Each address serving production webhooks: every one must serve a workflow once activated. */
	webhookServers: string[];
	api: N8nApi;
	/** The Dialer nodes' credential, with the webhook secret set. */
	dialer: Credential;
	/** Header Auth with the API token, for HTTP Request. */
	apiToken: Credential;
	/** Header Auth with the webhook secret, for n8n's Webhook node. */
	webhookSecret: Credential;
	stop(): Promise<void>;
}

export function log(message: string): void {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/**
 * Waits (at most 3 minutes) until no n8n process uses more than a tenth of a core over a second:
 * one still working off a burst (executions answered after the dialer gave up, a worker's queued
 * jobs) shares the cores.
 */
export async function untilIdle(targets: Target[]): Promise<void> {
	const pids = targets.flatMap((target) => target.processes.map((process) => process.pid));
	const busy = () => pids.map((pid) => cpuTimes(pid).groupMs);
	const deadline = Date.now() + 180_000;
	for (let before = busy(); Date.now() < deadline;) {
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const now = busy();
		if (now.every((ms, index) => ms - before[index] < 100)) return;
		before = now;
	}
	log('n8n still busy after 3 minutes, measuring anyway');
}

/** The credentials both sides need: the Dialer one, and Header Auth with the token and with the secret. */
async function benchCredentials(api: N8nApi, sim: DialerSimulator, secret: string) {
	const dialer = await api.createCredential(
		'dialerApi',
		'Dialer bench',
		simulatorCredential(sim, secret),
	);
	const apiToken = await api.createCredential('httpHeaderAuth', 'Dialer token', {
		name: 'Authorization',
		value: sim.token,
	});
	const webhookSecret = await api.createCredential('httpHeaderAuth', 'Webhook secret', {
		name: 'X-Webhook-Secret',
		value: secret,
	});
	return { dialer, apiToken, webhookSecret };
}

const BENCH_ENV = { N8N_LOG_LEVEL: 'warn' };

export async function startTarget(
	sim: DialerSimulator,
	secret: string,
	env: Record<string, string> = {},
): Promise<Target> {
	const n8n = await startN8n({ purpose: 'bench', env: { ...BENCH_ENV, ...env } });
	try {
		const { api } = n8n;
		const credentials = await benchCredentials(api, sim, secret);
		log(`n8n ${n8n.pid} ready in ${((n8n.timings.ready ?? 0) / 1000).toFixed(1)} s`);
		return {
			n8n,
			processes: [n8n],
			webhookServers: [n8n.baseUrl],
			api,
			...credentials,
			stop: () => n8n.stop(),
		};
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}

/**
 * n8n in queue mode (PostgreSQL, Redis, main, `webhookProcessors` webhook processors, two
 * workers); with more than one processor the dialer posts to a round-robin front (./front).
 */
export async function startQueueTarget(
	sim: DialerSimulator,
	secret: string,
	webhookProcessors: number,
	env: Record<string, string> = {},
): Promise<Target> {
	const front = webhookProcessors > 1 ? await startWebhookFront() : undefined;
	const stack = await startQueueMode({
		webhookProcessors,
		webhookUrl: front?.url,
		env: { ...BENCH_ENV, ...env },
	}).catch(async (error: unknown) => {
		await front?.close();
		throw error;
	});
	const stop = async () => {
		// Both processors should have worked about as hard: the front's round robin, seen from n8n.
		const busy = stack.webhooks.map((p) =>
			(cpuTimes(p.process.pid).mainThreadMs / 1000).toFixed(1),
		);
		log(`webhook processors' main threads busy: ${busy.join(' s, ')} s`);
		await front?.close();
		await stack.stop();
	};
	try {
		const webhookServers = stack.webhooks.map((processor) => processor.baseUrl);
		front?.route(webhookServers);
		const credentials = await benchCredentials(stack.api, sim, secret);
		log(
			`queue mode with ${webhookProcessors} webhook processor(s) ready: ${JSON.stringify(stack.timings)}`,
		);
		return {
			n8n: stack.webhook.process,
			processes: [stack.main, ...stack.webhooks, ...stack.workers].map((p) => p.process),
			webhookServers,
			api: stack.api,
			...credentials,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Starts `count` targets, runs `work` with them, and stops every n8n whatever happens. */
export async function withTargets<T>(
	sim: DialerSimulator,
	secret: string,
	count: number,
	work: (targets: Target[]) => Promise<T>,
): Promise<T> {
	const targets: Target[] = [];
	try {
		for (let index = 0; index < count; index++) targets.push(await startTarget(sim, secret));
		return await work(targets);
	} finally {
		await Promise.all(targets.map((target) => target.stop()));
	}
}

/** Starts a target, runs `work`, and stops n8n whatever happens. */
export async function withTarget<T>(
	sim: DialerSimulator,
	secret: string,
	work: (target: Target) => Promise<T>,
	env: Record<string, string> = {},
): Promise<T> {
	const target = await startTarget(sim, secret, env);
	try {
		return await work(target);
	} finally {
		await target.stop();
	}
}

export interface RunSample {
	ms: number;
	/**
	 * Peak RSS of n8n's processes during the run, above their RSS before the first (warm-up)
	 * run. Not above the RSS just before each run: V8 keeps the heap the warm-up grew, so later
	 * runs would look almost free.
	 */
	addedPeakMb: number;
	/** Peak RSS of n8n's processes during the run. */
	peakMb: number;
	/** CPU of n8n's main thread during the run. */
	mainThreadMs: number;
	/** CPU of every thread of n8n's processes during the run (V8's helper threads included). */
	groupCpuMs: number;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** RSS of n8n's processes now, once activity has settled. */
export async function idleRssMb(target: Target): Promise<number> {
	await settle();
	return groupMemory(target.n8n.pid).rssMb;
}

/**
 * `warmup` unrecorded runs, then `runs` timed ones; every answer must be 200. Memory is
 * counted above `baselineMb` (default: the RSS before the first run).
 */
export async function timeRuns(
	target: Target,
	workflow: RunWorkflow,
	items: Json[],
	runs: number,
	options: { warmup?: number; baselineMb?: number } = {},
): Promise<RunSample[]> {
	const pgid = target.n8n.pid;
	const warmup = options.warmup ?? 1;
	const samples: RunSample[] = [];
	const before = options.baselineMb ?? (await idleRssMb(target));
	for (let run = 0; run < warmup + runs; run++) {
		await settle();
		resetPeaks(pgid);
		const cpuBefore = cpuTimes(pgid);
		const answer = await workflow.post(items);
		if (answer.status !== 200)
			throw new Error(
				`run answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`,
			);
		const memory = groupMemory(pgid);
		const cpuAfter = cpuTimes(pgid);
		if (run >= warmup)
			samples.push({
				ms: answer.ms,
				addedPeakMb: memory.peakMb - before,
				peakMb: memory.peakMb,
				mainThreadMs: cpuAfter.mainThreadMs - cpuBefore.mainThreadMs,
				groupCpuMs: cpuAfter.groupMs - cpuBefore.groupMs,
			});
	}
	return samples;
}
