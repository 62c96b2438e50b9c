/**
 * A shift of agent events sent at a steady rate while something around n8n fails, and what the
 * dialer and n8n made of each event: the answer (status, time), whether it ran, once or twice,
 * and how long after the fault deliveries succeeded again. Also a supervisor, as systemd or
 * Kubernetes would be, that starts again every n8n process that died.
 */
import { nodeOutput, type Execution, type N8nApi } from '../n8n/api';
import { sleep, TRIGGER } from '../n8n/dialer';
import type { AgentEvent, Delivery, DialerSimulator } from '../simulator/types';
import { burstEvents, countBy, deliveryOutcome, isMalformed, SELECTED_EVENTS } from './burst';
import type { QueueModeStack } from './stack';

export interface ShiftDelivery extends Delivery {
	/** Epoch ms the dialer sent it. */
	sentAt: number;
}

/** Numbered, well-formed events of the kinds the workflow listens to: each must run once. */
export function shiftEvents(count: number, agentIds: number[], firstSeq = 0): AgentEvent[] {
	return burstEvents(count * 2, agentIds, firstSeq)
		.filter((event) => SELECTED_EVENTS.includes(event.evento) && !isMalformed(event))
		.slice(0, count);
}

/** Sends each event on its own at `perSecond`, as the dialer does, whatever the answers. */
export async function sendShift(
	sim: DialerSimulator,
	events: AgentEvent[],
	perSecond: number,
): Promise<ShiftDelivery[]> {
	const startedAt = Date.now();
	const sent = await Promise.all(
		events.map(async (event, index) => {
			await sleep(startedAt + (index * 1000) / perSecond - Date.now());
			const sentAt = Date.now();
			return (await sim.webhooks.emit(event)).map((delivery) => ({ ...delivery, sentAt }));
		}),
	);
	return sent.flat();
}

const TERMINAL = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * The workflow's executions once they stopped changing: every one ended and at least `expected`,
 * or nothing new for `quietMs` (a job lost with its queue never ends), or `maxMs` passed.
 */
export async function settledExecutions(
	api: N8nApi,
	workflowId: string,
	expected: number,
	{ quietMs = 30_000, maxMs = 180_000 } = {},
): Promise<Execution[]> {
	const deadline = Date.now() + maxMs;
	let last = '';
	let changedAt = Date.now();
	for (;;) {
		const executions = await api.listExecutions(workflowId, false).catch(() => undefined);
		if (executions) {
			const ended = executions.every((e) => TERMINAL.has(e.status));
			if (ended && executions.length >= expected) break;
			const shape = JSON.stringify(countBy(executions, (e) => e.status));
			if (shape !== last) [last, changedAt] = [shape, Date.now()];
		}
		if (Date.now() - changedAt > quietMs || Date.now() > deadline) break;
		await sleep(1000);
	}
	return api.listExecutions(workflowId, true);
}

/**
 * Seconds from the fault until n8n ended the executions that did not succeed (first and last):
 * how long a dead worker's executions stay "running".
 */
export function failuresEnded(executions: Execution[], faultAt: number): number[] {
	const ended = executions
		.filter((e) => e.status !== 'success' && e.stoppedAt)
		.map((e) => (Date.parse(e.stoppedAt!) - faultAt) / 1000);
	return ended.length
		? [Math.min(...ended), Math.max(...ended)].map((s) => Number(s.toFixed(1)))
		: [];
}

/** The event an execution ran, or undefined when n8n replaced its data with an error. */
function seqOf(execution: Execution): number | undefined {
	try {
		return nodeOutput(execution, TRIGGER)[0]?.seq as number | undefined;
	} catch {
		return undefined;
	}
}

export interface ShiftOutcome {
	events: number;
	/** What the dialer got: status, or why none (`timeout` after 5 s, a socket error). */
	answers: Record<string, number>;
	/** Answered 2xx within the dialer's 5 s. */
	accepted: number;
	/** The dialer's loss: answered otherwise or not within 5 s. */
	lost: number;
	/** Accepted events that no execution ran (the execution failed without them, or never started). */
	neverRan: number;
	/** Events that more than one execution ran. */
	doubles: number;
	/** Events the dialer counts as lost that ran all the same (a dialer that retried would double them). */
	ranUnanswered: number;
	/** Executions by final status. */
	executions: Record<string, number>;
	/** When, after the fault, the failed executions ended (seconds, first and last). */
	failuresEndedSeconds: number[];
	/** From the fault until deliveries succeed again: the first 2xx sent after the last failure. */
	recoverySeconds: number;
	/** The slowest 2xx answer. */
	slowestAcceptedMs: number;
	/** Per 2 s of the shift from the fault on (negative: before it): accepted/sent. */
	timeline: Record<string, string>;
}

export function shiftOutcome(
	deliveries: ShiftDelivery[],
	executions: Execution[],
	faultAt: number,
): ShiftOutcome {
	const ok = (d: Delivery) => d.status !== undefined && d.status >= 200 && d.status < 300;
	const accepted = deliveries.filter(ok);
	const runs = countBy(
		executions.map(seqOf).filter((seq) => seq !== undefined),
		String,
	);
	const failures = deliveries.filter((d) => !ok(d) && d.sentAt >= faultAt - 5000);
	const lastFailure = Math.max(faultAt, ...failures.map((d) => d.sentAt));
	const backAt = Math.min(...accepted.filter((d) => d.sentAt > lastFailure).map((d) => d.sentAt));
	return {
		events: deliveries.length,
		answers: countBy(deliveries, deliveryOutcome),
		accepted: accepted.length,
		lost: deliveries.length - accepted.length,
		neverRan: accepted.filter((d) => !runs[String(d.event.seq)]).length,
		doubles: Object.values(runs).filter((count) => count > 1).length,
		ranUnanswered: deliveries.filter((d) => !ok(d) && runs[String(d.event.seq)]).length,
		executions: countBy(executions, (e) => e.status),
		failuresEndedSeconds: failuresEnded(executions, faultAt),
		recoverySeconds: Number.isFinite(backAt) ? (backAt - faultAt) / 1000 : NaN,
		slowestAcceptedMs: Math.max(0, ...accepted.map((d) => d.ms)),
		timeline: timeline(deliveries, faultAt, ok),
	};
}

function timeline(
	deliveries: ShiftDelivery[],
	faultAt: number,
	ok: (d: Delivery) => boolean,
): Record<string, string> {
	const slots = new Map<number, [number, number]>();
	for (const d of deliveries) {
		const slot = Math.floor((d.sentAt - faultAt) / 2000) * 2;
		const [good, all] = slots.get(slot) ?? [0, 0];
		slots.set(slot, [good + (ok(d) ? 1 : 0), all + 1]);
	}
	return Object.fromEntries(
		[...slots]
			.sort(([a], [b]) => a - b)
			.map(([slot, [good, all]]) => [`${slot}s`, `${good}/${all}`]),
	);
}

export interface Supervisor {
	/** Processes started again: name, when it was seen dead and when it was ready again. */
	restarts: Array<{ name: string; diedAt: number; readyAt: number }>;
	stop(): Promise<void>;
}

/** Starts again, as a supervisor would, any n8n process of the stack that exited. */
export function supervise(stack: QueueModeStack): Supervisor {
	const restarts: Supervisor['restarts'] = [];
	let running = true;
	const loop = (async () => {
		while (running) {
			for (const proc of [stack.main, ...stack.webhooks, ...stack.workers]) {
				const { child } = proc.process;
				if (child.exitCode === null && child.signalCode === null) continue;
				const diedAt = Date.now();
				// A process that cannot start yet (its Redis still down) is tried again.
				if (
					await stack.respawn(proc.name).then(
						() => true,
						() => false,
					)
				)
					restarts.push({ name: proc.name, diedAt, readyAt: Date.now() });
			}
			await sleep(250);
		}
	})();
	return {
		restarts,
		stop: async () => {
			running = false;
			await loop;
		},
	};
}
