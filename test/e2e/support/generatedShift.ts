/**
 * A generated shift (harness/pauseAlertModel.ts) delivered to a live alerts workflow as the
 * dialer would: each event posted at its own moment, 0 to `maxDelayMs` into its second, all
 * concurrently, so deliveries overtake each other within and across seconds. What the workflow
 * made of it (alert lines, saved rows) is read back for comparison with the model.
 */
import path from 'node:path';

import fc from 'fast-check';

import type { AgentTable } from '../../../harness/n8n/dataTables';
import {
	decide,
	limitOf,
	parseAlert,
	shiftArbitrary,
	startingAt,
	type Decision,
	type LoggedAlert,
	type ScheduledEvent,
	type ShiftShape,
} from '../../../harness/pauseAlertModel';
import { ALERT_LOG, nowSeconds } from './liveAlerts';
import { readLines, type AgentRow } from './supervision';
import { post, sleep } from './triggerWorkflows';
import type { AgentEvent } from '../../../harness/simulator/types';

export interface ShiftOutcome {
	/** What the model decides over every event sent (the warm-up too). */
	model: Decision;
	/** The trigger's answer to each shift event. */
	statuses: number[];
	/** The alert lines of the shift's agents. */
	logged: LoggedAlert[];
	/** The rows of the shift's agents. */
	rows: AgentRow[];
	/** How long after the end of its second n8n saved each shift event, ms, ascending. */
	savedAfterSecond: number[];
	/** One line for the test's log: the shift's size and how late n8n saved its events. */
	summary: string;
	/** The dialer's clock this many seconds behind n8n's. */
	clockSkewSeconds: number;
}

export async function deliverGeneratedShift(options: {
	url: string;
	secret: string;
	table: AgentTable;
	/** The workflow's output folder (its alert log is read from there). */
	outputFolder: string;
	shape: ShiftShape;
	seed: number;
	/** Events sent before the shift (n8n's first executions of a workflow are slower). */
	before?: AgentEvent[];
	/** The dialer's clock this many seconds behind n8n's (negative: ahead). */
	clockSkewSeconds?: number;
	/** Deliveries held back this long more, ms, one in `heldBackEvery` (none when absent). */
	heldBack?: { every: number; upToMs: number };
	/** The dialer's clock set by `bySeconds` this many seconds into the shift, pauses running. */
	clockStep?: { afterSeconds: number; bySeconds: number };
	/** How long n8n may take past the last check's due time to write the alerts, ms. */
	settleMs?: number;
}): Promise<ShiftOutcome> {
	const { url, secret, table, shape, seed, before = [], clockSkewSeconds = 0 } = options;
	const { heldBack, clockStep } = options;
	const send = (agentEvent: AgentEvent) =>
		post(url, JSON.stringify(agentEvent), {
			'content-type': 'application/json',
			'x-webhook-secret': secret,
		}).then((answer) => answer.status);
	const ours = (agentId: number) =>
		agentId >= shape.firstAgent && agentId < shape.firstAgent + shape.agents;

	// The first shift from the seed on with pauses both alerted and not: one that tests something.
	let used = seed;
	const telling = (candidate: ScheduledEvent[]) => {
		const alerted = decide(candidate.map(({ event }) => event)).alerts.length;
		const withLimit = candidate.filter(({ event }) => limitOf(event) !== undefined).length;
		return alerted >= 2 && withLimit > alerted;
	};
	for (; !telling(fc.sample(shiftArbitrary(shape), { seed: used, numRuns: 1 })[0]); used++);
	const [shift] = fc.sample(shiftArbitrary(shape), { seed: used, numRuns: 1 });
	// The dialer's times: its clock `clockSkewSeconds` behind n8n's.
	const base = nowSeconds() + 2 - clockSkewSeconds;
	const schedule = startingAt(shift, base);
	// What a dialer whose clock was set during the shift sends: `t` and `udate` moved with it.
	const stamped = (event: AgentEvent): AgentEvent =>
		clockStep && event.t >= base + clockStep.afterSeconds
			? {
					...event,
					t: event.t + clockStep.bySeconds,
					...(typeof event.udate === 'number' ? { udate: event.udate + clockStep.bySeconds } : {}),
				}
			: event;
	const heldBackMs = (i: number) =>
		heldBack && i % heldBack.every === 0 ? (i * 7919) % heldBack.upToMs : 0;
	const model = decide([...before, ...schedule.map(({ event }) => event)]);
	// Every pause with a maximum is checked then, alerted or not: wait for the last check.
	const lastLimit = Math.max(base, ...schedule.flatMap(({ event }) => limitOf(event) ?? []));
	const lastEvent = Math.max(...schedule.map(({ event }) => event.t));
	const onN8nClock = (dialerMs: number) => dialerMs + clockSkewSeconds * 1000;
	const statuses = await Promise.all(
		schedule.map(async ({ event, deliverAtMs }, i) => {
			const at = onN8nClock(base * 1000 + deliverAtMs) + heldBackMs(i);
			await sleep(Math.max(0, at - Date.now()));
			return send(stamped(event));
		}),
	);
	// Every check is done 2 s after its maximum at the soonest, later when n8n is behind: read
	// until the model's count is in (or the time is up), then a few seconds more for any extra.
	await sleep(Math.max(0, onN8nClock((Math.max(lastLimit, lastEvent) + 6) * 1000) - Date.now()));
	const expected = model.alerts.filter((alert) => ours(alert.agentId)).length;
	const readAlerts = async () =>
		(await readLines(path.join(options.outputFolder, ALERT_LOG)))
			.map(parseAlert)
			.filter((alert) => ours(alert.agentId));
	const deadline = Date.now() + (options.settleMs ?? 0);
	while ((await readAlerts()).length < expected && Date.now() < deadline) await sleep(500);
	if (options.settleMs) await sleep(3000);
	const logged = await readAlerts();
	const rows = (await table.rows()).filter((row) => ours(row.agentId));
	// How late n8n saved each event after the end of its second, on n8n's clock.
	const savedAfterSecond = rows
		.map(
			(row) => Date.parse(row.createdAt) - onN8nClock((Math.floor(row.eventOrder / 10) + 1) * 1000),
		)
		.sort((a, b) => a - b);
	const withLimit = schedule.filter(({ event }) => limitOf(event) !== undefined).length;
	const summary =
		`seed ${used}${used === seed ? '' : ` (from ${seed})`}: ${shape.agents} agents, ${schedule.length} events over ${lastEvent - base} s, ` +
		`${model.alerts.filter((alert) => ours(alert.agentId)).length} of ${withLimit} pauses with a ` +
		`maximum over it; n8n saved the events ${savedAfterSecond[0]}–${savedAfterSecond.at(-1)} ms ` +
		`after the end of their second (median ${savedAfterSecond[Math.floor(savedAfterSecond.length / 2)]}), ` +
		`deliveries came 0–${shape.maxDelayMs} ms after its start` +
		(heldBack ? `, one in ${heldBack.every} up to ${heldBack.upToMs} ms more` : '') +
		(clockSkewSeconds ? `; the dialer's clock ${clockSkewSeconds} s behind n8n's` : '') +
		(clockStep ? `, set by ${clockStep.bySeconds} s ${clockStep.afterSeconds} s in` : '');
	return { model, statuses, logged, rows, savedAfterSecond, summary, clockSkewSeconds };
}

/** How long after its pause's maximum on n8n's clock an alert was written, ms. */
export function latenessOf(outcome: ShiftOutcome, alert: LoggedAlert): number {
	const pause = outcome.model.alerts.find(
		({ agentId, pauseId }) => agentId === alert.agentId && pauseId === alert.pauseId,
	)!;
	return alert.at - (pause.limit + outcome.clockSkewSeconds) * 1000;
}

/** Each logged alert's delay after its pause's maximum on n8n's clock, ms, ascending. */
export function alertLateness(outcome: ShiftOutcome): number[] {
	return outcome.logged.map((alert) => latenessOf(outcome, alert)).sort((a, b) => a - b);
}

/** "agent A pause P" for each alert, sorted: what to compare between the model and the log. */
export function alertKeys(alerts: ReadonlyArray<{ agentId: number; pauseId: number }>): string[] {
	return alerts.map(({ agentId, pauseId }) => `agent ${agentId} pause ${pauseId}`).sort();
}
