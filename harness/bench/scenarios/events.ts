/**
 * Scenario 3, event stream: the dialer's agent events delivered to n8n, the workflow wanting one
 * kind of seven. The Dialer Trigger (secret set) against a Webhook (Header Auth) + IF, and n8n's
 * bare Webhook node as the floor of what any delivery costs n8n's main thread.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';

import { N8nApiError, waitUntilServed, webhookNode, type NodeSpec } from '../../n8n/api';
import { TRIGGER_TYPE, TRIGGER_VERSION } from '../../n8n/dialer';
import { countBy, deliveryOutcome } from '../../queue-mode/burst';
import { AgentStates, eventKinds } from '../../simulator/agent-states';
import { Random } from '../../simulator/random';
import type { Delivery, DialerSimulator } from '../../simulator/types';
import { cpuTimes } from '../lib/procfs';
import { percentile, summarize, type Summary } from '../lib/stats';
import { log, type Target } from '../lib/target';
import { settingsFor, type SaveMode } from '../lib/workflows';

/** The kind the workflows want; the simulator's bursts cycle through the kinds starting here. */
export const WANTED = eventKinds[0];

export type EventVariant = 'trigger' | 'generic' | 'bareWebhook';

interface Receiver {
	workflowId: string;
	url: string;
	secret?: string;
}

/** The receiving workflow of a variant, active, its webhook answering. */
export async function createReceiver(
	target: Target,
	variant: EventVariant,
	save: SaveMode,
	secret: string,
): Promise<Receiver> {
	const path = randomUUID();
	let nodes: NodeSpec[];
	let url = `${target.api.webhookBaseUrl}/webhook/${path}`;
	if (variant === 'trigger') {
		nodes = [
			{
				name: 'Dialer Trigger',
				type: TRIGGER_TYPE,
				typeVersion: TRIGGER_VERSION,
				webhookId: path,
				parameters: { events: [WANTED], options: {} },
				credentials: { dialerApi: { id: target.dialer.id, name: target.dialer.name } },
			},
		];
		url = `${url}/webhook`;
	} else {
		const withAuth = variant === 'generic';
		nodes = [
			{
				...webhookNode(path, {
					responseMode: 'onReceived',
					authentication: withAuth ? 'headerAuth' : 'none',
				}),
				...(withAuth
					? {
							credentials: {
								httpHeaderAuth: { id: target.webhookSecret.id, name: target.webhookSecret.name },
							},
						}
					: {}),
			},
		];
		if (withAuth) {
			nodes.push({
				name: 'Wanted Kind',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{
								id: randomUUID(),
								leftValue: '={{ $json.body.evento }}',
								rightValue: WANTED,
								operator: { type: 'string', operation: 'equals' },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
			});
		}
	}
	const workflow = await target.api.createWorkflow({
		name: `bench events ${variant} ${save}`,
		nodes: nodes.map((node, index) => ({ ...node, position: [index * 220, 0] })),
		connections:
			nodes.length > 1
				? { Webhook: { main: [[{ node: 'Wanted Kind', type: 'main', index: 0 }]] } }
				: {},
		settings: settingsFor(save, 'UTC'),
	});
	await target.api.activateWorkflow(workflow.id);
	const withSecret = variant !== 'bareWebhook';
	for (const server of target.webhookServers)
		await waitUntilServed(
			url.replace(target.api.webhookBaseUrl, server),
			withSecret ? { 'x-webhook-secret': secret } : {},
		);
	return { workflowId: workflow.id, url, secret: withSecret ? secret : undefined };
}

/**
 * After a burst n8n may answer 503 "Database is not ready!" for a while: its SQLite ping
 * (`SELECT 1`, 5 s timeout) waited behind the burst's queries. Retried until it recovers.
 */
export async function whenDatabaseReady<T>(
	call: () => Promise<T>,
	timeoutMs = 120_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await call();
		} catch (error) {
			if (!(error instanceof N8nApiError && error.status === 503) || Date.now() > deadline)
				throw error;
			log('events: n8n answered 503 (database not ready), retrying');
			await new Promise((resolve) => setTimeout(resolve, 2000));
		}
	}
}

export async function removeReceiver(target: Target, receiver: Receiver): Promise<void> {
	await whenDatabaseReady(() => target.api.deactivateWorkflow(receiver.workflowId));
	await whenDatabaseReady(() => target.api.deleteWorkflow(receiver.workflowId));
}

export interface Acks {
	deliveries: number;
	failed: number;
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
	/** Deliveries per HTTP status, or `timeout` (the dialer's 5 s) and socket errors. */
	outcomes: Record<string, number>;
}

const accepted = (d: Delivery) => d.status !== undefined && d.status >= 200 && d.status < 300;

export function acks(deliveries: Delivery[]): Acks {
	const ms = deliveries.map((delivery) => delivery.ms);
	return {
		outcomes: countBy(deliveries, deliveryOutcome),
		deliveries: deliveries.length,
		failed: deliveries.filter((d) => !accepted(d)).length,
		p50Ms: percentile(ms, 50),
		p99Ms: percentile(ms, 99),
		maxMs: Math.max(...ms),
	};
}

export interface BurstRun extends Acks {
	eventsPerSecond: number;
	executions: number;
	/** Deliveries of the wanted kind answered 2xx: each must make exactly one execution. */
	wantedAccepted: number;
	mainThreadMsPerDelivery: number;
}

/** The simulator's burst (control API): `count` events over the kinds, at most `concurrency` in flight. */
export async function burst(
	sim: DialerSimulator,
	count: number,
	concurrency: number,
	kinds?: string[],
): Promise<{ deliveries: Delivery[]; elapsedMs: number }> {
	const res = await request(`${sim.baseUrl}/__simulator/events`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ count, concurrency, ...(kinds ? { kinds } : {}) }),
	});
	const body = (await res.body.json()) as {
		deliveries: Delivery[];
		summary: { elapsedMs: number };
	};
	if (res.statusCode !== 200) throw new Error(`burst answered ${res.statusCode}`);
	return { deliveries: body.deliveries, elapsedMs: body.summary.elapsedMs };
}

/** Executions of the workflow once their count has stopped changing (at most two minutes). */
export async function settledExecutions(target: Target, workflowId: string): Promise<number> {
	const deadline = Date.now() + 120_000;
	let previous = -1;
	for (;;) {
		const executions = await whenDatabaseReady(() => target.api.listExecutions(workflowId));
		if (
			(executions.length === previous && executions.every((e) => e.stoppedAt)) ||
			Date.now() > deadline
		)
			return executions.length;
		previous = executions.length;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

async function withReceiver<T>(
	target: Target,
	sim: DialerSimulator,
	variant: EventVariant,
	save: SaveMode,
	secret: string,
	work: (receiver: Receiver) => Promise<T>,
): Promise<T> {
	const receiver = await createReceiver(target, variant, save, secret);
	const id = sim.webhooks.register({ url: receiver.url, secret: receiver.secret });
	try {
		return await work(receiver);
	} finally {
		sim.webhooks.unregister(id);
		await removeReceiver(target, receiver);
	}
}

export async function runBurst(
	target: Target,
	sim: DialerSimulator,
	variant: EventVariant,
	options: { count: number; concurrency: number; save: SaveMode; secret: string },
): Promise<BurstRun> {
	return await withReceiver(
		target,
		sim,
		variant,
		options.save,
		options.secret,
		async (receiver) => {
			// The probe that waited for the webhook to answer may have started an execution.
			const earlier =
				options.save === 'all' ? await settledExecutions(target, receiver.workflowId) : 0;
			const before = cpuTimes(target.n8n.pid).mainThreadMs;
			const { deliveries, elapsedMs } = await burst(sim, options.count, options.concurrency);
			const cpu = cpuTimes(target.n8n.pid).mainThreadMs - before;
			// With saving off n8n deletes successful executions: only saving on can count them.
			const executions =
				options.save === 'all'
					? (await settledExecutions(target, receiver.workflowId)) - earlier
					: NaN;
			return {
				...acks(deliveries),
				eventsPerSecond: (options.count * 1000) / elapsedMs,
				executions,
				wantedAccepted: deliveries.filter((d) => d.event.evento === WANTED && accepted(d)).length,
				mainThreadMsPerDelivery: cpu / options.count,
			};
		},
	);
}

export interface DeliveryCost {
	variant: EventVariant;
	kind: 'ignored' | 'wanted';
	/** Main-thread CPU per delivery, one delivery at a time. */
	mainThreadMs: Summary;
	groupMs: Summary;
	ackMs: Summary;
}

/** Main-thread CPU of single deliveries of one kind, `rounds` series of `count`. */
export async function deliveryCost(
	target: Target,
	sim: DialerSimulator,
	variant: EventVariant,
	kind: 'ignored' | 'wanted',
	options: { count: number; rounds: number; save: SaveMode; secret: string },
): Promise<DeliveryCost> {
	const event = kind === 'wanted' ? WANTED : eventKinds[1];
	return await withReceiver(target, sim, variant, options.save, options.secret, async () => {
		const main: number[] = [];
		const group: number[] = [];
		const ack: number[] = [];
		// A first, unrecorded series warms the path up.
		for (let round = 0; round <= options.rounds; round++) {
			const before = cpuTimes(target.n8n.pid);
			const { deliveries } = await burst(sim, options.count, 1, [event]);
			const after = cpuTimes(target.n8n.pid);
			if (round === 0) continue;
			main.push((after.mainThreadMs - before.mainThreadMs) / options.count);
			group.push((after.groupMs - before.groupMs) / options.count);
			ack.push(
				percentile(
					deliveries.map((d) => d.ms),
					50,
				),
			);
		}
		return {
			variant,
			kind,
			mainThreadMs: summarize(main),
			groupMs: summarize(group),
			ackMs: summarize(ack),
		};
	});
}

export interface RatePoint extends Acks {
	variant: EventVariant;
	targetRate: number;
	achievedRate: number;
	/** Share of one core n8n's main thread was busy. */
	mainThreadLoad: number;
}

/** Open-loop steady stream: one event every 1000/rate ms for `seconds`, kinds in turn. */
export async function steadyRate(
	target: Target,
	sim: DialerSimulator,
	variant: EventVariant,
	options: { rate: number; seconds: number; save: SaveMode; secret: string },
): Promise<RatePoint> {
	return await withReceiver(target, sim, variant, options.save, options.secret, async () => {
		const count = Math.round(options.rate * options.seconds);
		const interval = 1000 / options.rate;
		// Well-formed events of each kind from the simulator's own generator, agent state untouched.
		const events = new AgentStates(sim.data, new Random(options.rate));
		const pending: Array<Promise<Delivery[]>> = [];
		const before = cpuTimes(target.n8n.pid).mainThreadMs;
		const started = performance.now();
		for (let index = 0; index < count; index++) {
			// Sleep until this event's slot, measured from the start so delays do not add up.
			const wait = started + index * interval - performance.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
			pending.push(
				sim.webhooks.emit(
					events.sample(
						eventKinds[index % eventKinds.length],
						sim.data.agents[index % sim.data.agents.length],
					),
				),
			);
		}
		const deliveries = (await Promise.all(pending)).flat();
		const elapsed = performance.now() - started;
		const cpu = cpuTimes(target.n8n.pid).mainThreadMs - before;
		log(`events: ${variant} at ${options.rate}/s done`);
		return {
			variant,
			targetRate: options.rate,
			achievedRate: (count * 1000) / elapsed,
			mainThreadLoad: cpu / elapsed,
			...acks(deliveries),
		};
	});
}
