/**
 * One fault of the infrastructure around n8n in queue mode, during a shift of agent events from
 * the dialer simulator (5 a second for 40 s into the Dialer Trigger → Team → Get Many workflow),
 * 10 s into the shift:
 *   redis     Redis stopped, 10 s down, started again
 *   postgres  PostgreSQL the same, while a Dialer Report Trigger polls every 3 s a report that
 *             answers in 1.5 s (stopped while one of its reads is under way), fichas arriving
 *   worker    a worker SIGKILLed while executions are under way (the dialer API answers in 2 s)
 *   webhook   the webhook processor the dialer posts to SIGKILLed
 * A supervisor starts again every n8n process that dies (as systemd or Kubernetes would). With
 * --recommended the run uses the deployment docs/reliability.md recommends for that fault;
 * --durable-poll-cursors switches on n8n's opt-in below (measured: it doubles rows, see there).
 * Prints what the dialer saw, what ran (lost, never ran, doubles) and the recovery time as JSON.
 *
 *   npx tsx harness/queue-mode/faults.ts --fault redis [--recommended] [--durable-poll-cursors]
 *     [--skip-build]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

import { startWebhookFront, type WebhookFront } from '../bench/lib/front';
import { startSimulator } from '../simulator';
import { simulatorCredential, sleep } from '../n8n/dialer';
import { createAgentEventFlow } from './burst';
import { liveAlertWatch, reportTriggerWatch } from './faultWatches';
import {
	sendShift,
	settledExecutions,
	shiftEvents,
	shiftOutcome,
	supervise,
	type ShiftDelivery,
} from './shift';
import { startQueueMode, type QueueModeOptions, type QueueModeStack } from './stack';

const FAULTS = ['redis', 'postgres', 'worker', 'webhook'] as const;
type Fault = (typeof FAULTS)[number];
const PER_SECOND = 5;
const EVENTS = 200;
const FAULT_AFTER_MS = 10_000;
const DOWN_MS = 10_000;

/** n8n's stalled-job detection made faster (its defaults: 60 s lock, 30 s check). */
export const FAST_STALL_DETECTION = {
	QUEUE_WORKER_LOCK_DURATION: '15000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

/**
 * n8n exits after 10 s without Redis by default; the deliveries held during the outage need more
 * than 2 database connections once it is back.
 */
export const REDIS_RECOMMENDED = {
	QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD: '60000',
	DB_POSTGRESDB_POOL_SIZE: '10',
};

/**
 * n8n 2.41's opt-in that stores a poll's state in the same transaction as its execution (it needs
 * the durable scheduler and the workflow publication service).
 */
export const DURABLE_POLL_CURSORS = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

/** The deployment each fault runs on: n8n's defaults, or what docs/reliability.md recommends. */
function deployment(fault: Fault, recommended: boolean): QueueModeOptions {
	if (!recommended) return { redisPersistence: 'snapshot' };
	switch (fault) {
		case 'redis':
			// A queue kept on disk survives a crash of Redis too.
			return { redisPersistence: 'aof', env: REDIS_RECOMMENDED };
		case 'worker':
			return { redisPersistence: 'snapshot', env: FAST_STALL_DETECTION };
		case 'webhook':
			// Behind a balancer that sends a refused delivery to the other processor.
			return { redisPersistence: 'snapshot', webhookProcessors: 2 };
		case 'postgres':
			return {
				redisPersistence: 'snapshot',
				env: { DB_POSTGRESDB_POOL_SIZE: '10' },
			};
	}
}

/** Injects the fault at once; resolves when it is over (a service back, a process killed). */
async function injectFault(fault: Fault, stack: QueueModeStack): Promise<Record<string, number>> {
	switch (fault) {
		case 'redis':
			return stack.redis.restart(DOWN_MS);
		case 'postgres':
			return stack.postgres.restart(DOWN_MS);
		case 'worker':
		case 'webhook': {
			const victim = fault === 'worker' ? stack.workers[1] : stack.webhooks.at(-1)!;
			const killedAt = Date.now();
			process.kill(-victim.process.pid, 'SIGKILL');
			return { killedAt };
		}
	}
}

async function run(
	fault: Fault,
	recommended: boolean,
	{ build, keep, durableCursors }: { build: boolean; keep: boolean; durableCursors: boolean },
) {
	const chosen = deployment(fault, recommended);
	const env = durableCursors ? { ...chosen.env, ...DURABLE_POLL_CURSORS } : chosen.env;
	const options = { ...chosen, env, keep };
	const front: WebhookFront | undefined =
		(options.webhookProcessors ?? 1) > 1
			? await startWebhookFront({ retryRefused: true })
			: undefined;
	const stack = await startQueueMode({ ...options, webhookUrl: front?.url, build });
	front?.route(stack.webhooks.map((p) => p.baseUrl));
	const sim = await startSimulator();
	const supervisor = supervise(stack);
	try {
		const secret = `faults-${randomUUID()}`;
		const credential = await stack.api.createCredential(
			'dialerApi',
			`faults ${fault}`,
			simulatorCredential(sim, secret),
		);
		// The pauses first: the dialer sends every event to every receiver registered.
		const alerts =
			fault === 'worker' ? await liveAlertWatch(stack, sim, credential, secret) : undefined;
		const flow = await createAgentEventFlow(stack.api, credential);
		sim.webhooks.register({ url: flow.url, secret });
		if (fault === 'worker')
			sim.faults.add({ kind: 'latency', operation: 'getTime', latencyMs: 2000 });
		const watch =
			fault === 'postgres' ? await reportTriggerWatch(stack, sim, credential) : undefined;
		const events = shiftEvents(
			EVENTS,
			sim.data.agents.map((a) => a.id),
		);
		const shiftStart = Date.now();
		const sending = sendShift(sim, events, PER_SECOND);
		await sleep(FAULT_AFTER_MS);
		await watch?.readUnderWay();
		const faultAt = Date.now();
		const times = await injectFault(fault, stack);
		const deliveries: ShiftDelivery[] = await sending;
		const accepted = deliveries.filter((d) => d.status === 200).length;
		// What a dead worker held ends only when n8n finds it stalled (up to 90 s by default).
		const executions = await settledExecutions(stack.api, flow.workflow.id, accepted, {
			quietMs: fault === 'worker' ? 100_000 : 30_000,
		});
		const reportTrigger = await watch?.finish();
		const liveAlerts = await alerts?.finish(faultAt);
		const outcome = shiftOutcome(deliveries, executions, faultAt);
		const at = (ms: number) => Number(((ms - faultAt) / 1000).toFixed(1));
		return {
			fault,
			logs: keep
				? [stack.main, ...stack.webhooks, ...stack.workers].map((p) => p.process.logFile)
				: undefined,
			settings: recommended ? 'recommended' : 'defaults',
			deployment: options,
			n8nVersion: stack.n8nVersion,
			postgres: stack.postgres.version,
			faultAfterSeconds: (faultAt - shiftStart) / 1000,
			faultAt: new Date(faultAt).toISOString(),
			faultTimes: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, at(v)])),
			...outcome,
			restarts: supervisor.restarts.map((r) => ({
				...r,
				diedAt: at(r.diedAt),
				readyAt: at(r.readyAt),
			})),
			reportTrigger,
			liveAlerts,
		};
	} finally {
		await supervisor.stop();
		await sim.close();
		await front?.close();
		await stack.stop();
	}
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			fault: { type: 'string' },
			recommended: { type: 'boolean', default: false },
			'durable-poll-cursors': { type: 'boolean', default: false },
			'skip-build': { type: 'boolean', default: false },
			keep: { type: 'boolean', default: false },
		},
	});
	const fault = values.fault as Fault;
	if (!FAULTS.includes(fault)) throw new Error(`--fault must be one of ${FAULTS.join(', ')}`);
	const result = await run(fault, values.recommended, {
		build: !values['skip-build'],
		keep: values.keep,
		durableCursors: values['durable-poll-cursors'],
	});
	console.log(JSON.stringify(result, null, '\t'));
}

if (require.main === module) {
	main().catch((error: Error) => {
		console.error(error.stack ?? error.message);
		process.exitCode = 1;
	});
}
