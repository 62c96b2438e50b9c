/**
 * The live over-limit pause alert examples decide with their own expressions (event order, the
 * wait, the look for a later event): this runs those expressions, taken from the example files,
 * over generated shifts whose deliveries arrive in any order, and compares what the examples
 * would alert and show with the reference model (test/support/pauseAlertModel.ts). n8n itself
 * (the insert, the Wait node) runs in test/e2e/pause-alerts-model.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import fc from 'fast-check';
import { DateTime } from 'luxon';

import type { AgentEventPayload } from '../../../nodes/DialerTrigger/events';
import { buildEventItem } from '../../../nodes/DialerTrigger/output';
import type { AgentEvent } from '../../../simulator/types';
import {
	decide,
	shiftArbitrary,
	startingAt,
	type PauseAlert,
	type ScheduledEvent,
} from '../../support/pauseAlertModel';
import { propertyRuns } from '../support/propertyRuns';

const TIMEZONE = 'America/Sao_Paulo';
/** 2026-11-23 10:00 in São Paulo. */
const BASE = 1_763_902_800;
/** Milliseconds n8n may take to save a delivered event, beyond the 2.4 s of late delivery. */
const SAVE_MS = 500;

interface Node {
	name: string;
	parameters: Record<string, unknown>;
}
type Row = Record<string, unknown>;

/** An n8n expression of the examples (`={{ … }}`, plain JavaScript with `$json` and luxon's `DateTime`). */
function compile(value: unknown): ($json: Row) => unknown {
	const source = /^=\{\{([\s\S]*)\}\}$/.exec(String(value));
	if (!source) return () => value;
	const run = new Function('$json', 'DateTime', `return (${source[1]});`) as (
		json: Row,
		dateTime: typeof DateTime,
	) => unknown;
	return ($json) => run($json, DateTime);
}

/** The decision the example makes, read from its file. */
function exampleDecision(file: string) {
	const { nodes } = JSON.parse(
		readFileSync(path.resolve(__dirname, '../../../examples', file), 'utf8'),
	) as { nodes: Node[] };
	const node = (name: string) => nodes.find((candidate) => candidate.name === name)!;
	const assignments = (
		node('Agent State').parameters.assignments as {
			assignments: Array<{ name: string; value: string; type: string }>;
		}
	).assignments.map(({ name, value, type }) => ({ name, type, value: compile(value) }));
	const waitUntil = compile(node('Wait Until the Maximum').parameters.dateTime);
	const laterConditions = (
		node('Events Before the Maximum').parameters.filters as {
			conditions: Array<{ keyName: string; condition?: string; keyValue: string }>;
		}
	).conditions.map(({ keyName, condition = 'eq', keyValue }) => ({
		keyName,
		condition,
		keyValue: compile(keyValue),
	}));
	const compare: Record<string, (a: number, b: number) => boolean> = {
		eq: (a, b) => a === b,
		gt: (a, b) => a > b,
		lt: (a, b) => a < b,
	};

	/** Agent State: the row Save the Event inserts for a delivered event. */
	const rowOf = (event: AgentEvent): Row => {
		const item = buildEventItem(event as unknown as AgentEventPayload, TIMEZONE, DateTime.now());
		return Object.fromEntries(
			assignments.map(({ name, type, value }) => {
				const result = value(item);
				return [name, type === 'number' ? Number(result) : result];
			}),
		);
	};
	/** Pause With a Maximum. */
	const watched = (row: Row) => row.lastEvent === 'agente.pause_in' && Boolean(row.pauseLimitAt);
	/** Events Before the Maximum: does `row` (already saved) end the pause `pause`? */
	const ends = (pause: Row) => {
		const bounds = laterConditions.map((condition) => ({
			...condition,
			value: Number(condition.keyValue(pause)),
		}));
		return (row: Row) =>
			bounds.every(({ keyName, condition, value }) =>
				compare[condition](Number(row[keyName]), value),
			);
	};
	return { rowOf, watched, ends, checkAt: (pause: Row) => Date.parse(String(waitUntil(pause))) };
}

interface Outcome {
	alerts: Array<PauseAlert & { alertedAtMs: number }>;
	board: Map<number, Row>;
}

/**
 * The example run over a delivered shift: each event saved `saveMs(i)` after its delivery; each
 * watched pause checks the rows saved by its wait's end (or at once, if saved after it).
 */
function runExample(
	decision: ReturnType<typeof exampleDecision>,
	schedule: readonly ScheduledEvent[],
	saveMs: (index: number) => number,
): Outcome {
	const saved = schedule.map(({ event, deliverAtMs }, i) => ({
		event,
		row: decision.rowOf(event),
		savedAt: BASE * 1000 + deliverAtMs + saveMs(i),
	}));
	const alerts: Outcome['alerts'] = [];
	for (const pause of saved.filter(({ row }) => decision.watched(row))) {
		const checkedAt = Math.max(pause.savedAt, decision.checkAt(pause.row));
		const endsIt = decision.ends(pause.row);
		const ended = saved.some(
			(other) => other !== pause && other.savedAt <= checkedAt && endsIt(other.row),
		);
		if (!ended)
			alerts.push({
				agentId: pause.event.usuario_id,
				pauseId: Number(pause.event.pausa_id),
				limit: Date.parse(String(pause.row.pauseLimitAt)) / 1000,
				alertedAtMs: checkedAt,
			});
	}
	const board = new Map<number, Row>();
	for (const { row } of saved) {
		const known = board.get(Number(row.agentId));
		if (!known || Number(row.eventOrder) > Number(known.eventOrder))
			board.set(Number(row.agentId), row);
	}
	return { alerts, board };
}

const byPause = (a: PauseAlert, b: PauseAlert) => a.agentId - b.agentId || a.pauseId - b.pauseId;

describe.each(['live-pause-alerts-to-file.json', 'live-pause-alerts-slack.json'])(
	'%s decides as the model, whatever the order and timing of deliveries',
	(file) => {
		const decision = exampleDecision(file);

		it("alerts exactly the pauses still open at their limit, each once, at most 2 s after it, and shows each agent's latest event", () => {
			fc.assert(
				fc.property(
					shiftArbitrary(),
					fc.array(fc.integer({ min: 0, max: SAVE_MS }), { minLength: 400, maxLength: 400 }),
					(shift, saveDelays) => {
						const schedule = startingAt(shift, BASE);
						const model = decide(schedule.map(({ event }) => event));
						const outcome = runExample(
							decision,
							schedule,
							(i) => saveDelays[i % saveDelays.length],
						);
						expect(
							outcome.alerts
								.map(({ agentId, pauseId, limit }) => ({ agentId, pauseId, limit }))
								.sort(byPause),
						).toEqual([...model.alerts].sort(byPause));
						for (const alert of outcome.alerts)
							expect(alert.alertedAtMs - alert.limit * 1000).toBeLessThanOrEqual(2000);
						expect(
							[...outcome.board].map(([agentId, row]) => [agentId, row.lastEvent, row.lastEventAt]),
						).toEqual(
							[...outcome.board.keys()].map((agentId) => {
								const latest = model.latest.get(agentId)!;
								return [
									agentId,
									latest.evento,
									DateTime.fromSeconds(latest.t, { zone: TIMEZONE }).toISO(),
								];
							}),
						);
						expect(outcome.board.size).toBe(model.latest.size);
					},
				),
				{ numRuns: propertyRuns(100) },
			);
		});

		it('alerts a pause whose resume, in the second before the limit, is saved more than 2 s after the limit (the stated bound)', () => {
			const pause: AgentEvent = {
				evento: 'agente.pause_in',
				estado: 'paused',
				t: BASE,
				usuario_id: 7,
				pausa_id: 1,
				udate: BASE,
				durmax: 10,
			};
			const resume: AgentEvent = {
				evento: 'agente.pause_out',
				estado: 'online',
				t: BASE + 9,
				usuario_id: 7,
			};
			const schedule = [
				{ event: pause, deliverAtMs: 0 },
				{ event: resume, deliverAtMs: 9000 },
			];
			expect(decide([pause, resume]).alerts).toEqual([]);
			expect(runExample(decision, schedule, (i) => (i === 1 ? 2900 : 0)).alerts).toEqual([]);
			expect(runExample(decision, schedule, (i) => (i === 1 ? 3100 : 0)).alerts).toEqual([
				expect.objectContaining({ agentId: 7, pauseId: 1 }),
			]);
		});
	},
);
