/**
 * Agent-event bursts through n8n's webhook processor: the workflow under load (Dialer Trigger →
 * Dialer "Team → Get Many" for the event's agent), numbered events with the cases the trigger
 * must refuse or ignore mixed in, delivery by the simulator's webhook sender, and what n8n made
 * of them: executions per event, per worker (from the workers' logs) and throughput.
 */
import { readFileSync } from 'node:fs';

import { nodeOutput, type Credential, type Execution, type N8nApi } from '../n8n/api';
import {
	createTriggerFlow,
	DIALER_TYPE,
	inParallel,
	sleep,
	TRIGGER,
	usesCredential,
	type TriggerFlow,
} from '../n8n/dialer';
import { eventKinds } from '../simulator/agent-states';
import type { AgentEvent, Delivery, DialerSimulator } from '../simulator/types';

export { TRIGGER };
export const LOOKUP = 'Agent Teams';
const ALL_EVENTS: readonly string[] = eventKinds;
/** What the workflow listens to; ringing and online are acknowledged and ignored. */
export const SELECTED_EVENTS = ALL_EVENTS.filter(
	(kind) => kind !== 'agente.ringing' && kind !== 'agente.online',
);
/** Every this-many-th event is malformed (usuario_id as text): the trigger answers 400. */
const MALFORMED_EVERY = 100;

/** The workflow under load; its URL is on the webhook processor. */
export type AgentEventFlow = TriggerFlow;

/** Creates and activates the workflow, and waits until the webhook processor serves its URL. */
export function createAgentEventFlow(api: N8nApi, credential: Credential): Promise<AgentEventFlow> {
	return createTriggerFlow(api, {
		name: 'queue-mode agent events',
		credential,
		events: SELECTED_EVENTS,
		after: [
			{
				name: LOOKUP,
				type: DIALER_TYPE,
				typeVersion: 1,
				parameters: {
					resource: 'team',
					operation: 'getMany',
					returnAll: true,
					filters: { agent: '={{ $json.agentId }}' },
				},
				credentials: usesCredential(credential),
			},
		],
		timezone: 'America/Sao_Paulo',
	});
}

/**
 * Numbered events (`seq`) of every kind for the given agents; each MALFORMED_EVERY-th is malformed:
 * its agent ID is no number (digits as text are valid and are read as the number).
 */
export function burstEvents(count: number, agentIds: number[], firstSeq = 0): AgentEvent[] {
	return Array.from({ length: count }, (_, index) => {
		const seq = firstSeq + index;
		const evento = ALL_EVENTS[seq % ALL_EVENTS.length];
		const usuarioId = agentIds[seq % agentIds.length];
		const event: AgentEvent = {
			evento,
			estado: 'online',
			t: Math.floor(Date.now() / 1000),
			usuario_id: usuarioId,
			seq,
		};
		return seq % MALFORMED_EVERY === MALFORMED_EVERY - 1
			? { ...event, usuario_id: `agent ${usuarioId}` as never }
			: event;
	});
}

export function isMalformed(event: AgentEvent): boolean {
	return typeof event.usuario_id !== 'number';
}

export function countBy<T>(values: T[], key: (value: T) => string): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
	return counts;
}

/** A delivery's outcome for reports: the HTTP status, or why there was none (`timeout`, a socket error). */
export const deliveryOutcome = (d: Delivery) => String(d.status ?? d.error);

export interface BurstDelivery {
	deliveries: Delivery[];
	startedAt: number;
	finishedAt: number;
}

/**
 * Emits the events through the simulator's webhook sender (one attempt, no retry, to every
 * registered receiver) with at most `concurrency` events in flight. `onProgress` sees the count
 * of events delivered so far, e.g. to kill a worker half-way.
 */
export async function deliverBurst(
	sim: DialerSimulator,
	events: AgentEvent[],
	options: { concurrency: number; onProgress?: (delivered: number) => void },
): Promise<BurstDelivery> {
	let delivered = 0;
	const startedAt = Date.now();
	const answers = await inParallel(events, options.concurrency, async (event) => {
		const deliveries = await sim.webhooks.emit(event);
		options.onProgress?.(++delivered);
		return deliveries;
	});
	return { deliveries: answers.flat(), startedAt, finishedAt: Date.now() };
}

/** Which worker started each execution: n8n logs `Worker started execution <id> (job <n>)` at info level. */
export function startedByWorker(
	workers: Array<{ name: string; logFile: string }>,
): Map<string, string[]> {
	const byExecution = new Map<string, string[]>();
	for (const { name, logFile } of workers) {
		for (const [, id] of readFileSync(logFile, 'utf8').matchAll(
			/Worker started execution (\d+) \(job/g,
		)) {
			byExecution.set(id, [...(byExecution.get(id) ?? []), name]);
		}
	}
	return byExecution;
}

/** Executions a worker started but never logged as finished: what it held when it died. */
export function unfinishedOn(logFile: string): string[] {
	const log = readFileSync(logFile, 'utf8');
	const finished = new Set(
		[...log.matchAll(/Worker finished execution (\d+) \(job/g)].map(([, id]) => id),
	);
	return [...log.matchAll(/Worker started execution (\d+) \(job/g)]
		.map(([, id]) => id)
		.filter((id) => !finished.has(id));
}

const TERMINAL = new Set(['success', 'error', 'crashed', 'canceled']);

/** Polls until the workflow has `count` executions and every one has ended (or the time is up). */
export async function waitForEnded(
	api: N8nApi,
	workflowId: string,
	count: number,
	timeoutMs: number,
): Promise<Execution[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = await api.listExecutions(workflowId);
		const ended = executions.filter((e) => TERMINAL.has(e.status));
		if ((executions.length >= count && ended.length === executions.length) || Date.now() > deadline)
			return executions;
		await sleep(1000);
	}
}

export function triggerSeq(execution: Execution): number {
	return nodeOutput(execution, TRIGGER)[0].seq as number;
}

export function lookupItems(execution: Execution): Array<Record<string, unknown>> {
	return nodeOutput(execution, LOOKUP);
}

export interface Throughput {
	events: number;
	executions: number;
	/** Events answered per second by the webhook processor. */
	ackPerSecond: number;
	/** Executions ended per second, from the first delivery to the last execution's end. */
	executedPerSecond: number;
	ackP50Ms: number;
	ackP95Ms: number;
	ackMaxMs: number;
	/** From the first delivery to the last execution's end. */
	totalSeconds: number;
}

export function throughput(
	burst: BurstDelivery,
	events: number,
	executions: Execution[],
): Throughput {
	const ms = burst.deliveries.map((d) => d.ms).sort((a, b) => a - b);
	const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0;
	const lastEnd = Math.max(
		burst.finishedAt,
		...executions.map((e) => (e.stoppedAt ? Date.parse(e.stoppedAt) : 0)),
	);
	const totalSeconds = (lastEnd - burst.startedAt) / 1000;
	return {
		events,
		executions: executions.length,
		ackPerSecond: events / ((burst.finishedAt - burst.startedAt) / 1000),
		executedPerSecond: executions.length / totalSeconds,
		ackP50Ms: at(0.5),
		ackP95Ms: at(0.95),
		ackMaxMs: ms.at(-1) ?? 0,
		totalSeconds,
	};
}

export function formatThroughput(label: string, t: Throughput): string {
	return (
		`${label}: ${t.events} events acknowledged at ${t.ackPerSecond.toFixed(1)}/s ` +
		`(ack p50 ${t.ackP50Ms.toFixed(0)} ms, p95 ${t.ackP95Ms.toFixed(0)} ms, max ${t.ackMaxMs.toFixed(0)} ms); ` +
		`${t.executions} executions ended at ${t.executedPerSecond.toFixed(1)}/s, all done ${t.totalSeconds.toFixed(1)} s after the first delivery`
	);
}
