/**
 * The live over-limit pause alert examples decide with their own expressions (event order, what
 * ends a pause, the wait, how far behind n8n is, when to decide): this runs those expressions,
 * taken from the example files, over generated shifts whose deliveries arrive in any order, on a
 * quiet n8n and on a busy one (saves late by a lag that rises and falls, plus jitter), with the
 * dialer's clock in step or off by seconds or hours, and compares what the examples would alert
 * with the reference model (harness/pauseAlertModel.ts). The trigger's own code builds each
 * item (the dialer's clock offset included). n8n itself runs in test/e2e/pause-alerts-model.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { DialerClock } from '../../../nodes/DialerTrigger/dialerClock';
import type { AgentEventPayload } from '../../../nodes/DialerTrigger/events';
import { buildEventItem } from '../../../nodes/DialerTrigger/output';
import { Receipts } from '../../../nodes/DialerTrigger/receipts';
import type { AgentEvent } from '../../../harness/simulator/types';
import {
	DEFAULT_SHAPE,
	decide,
	shiftArbitrary,
	startingAt,
	type PauseAlert,
	type ScheduledEvent,
} from '../../../harness/pauseAlertModel';
import { ExampleExpressions } from '../support/exampleExpressions';
import { propertyRuns } from '../support/propertyRuns';

const TIMEZONE = 'America/Sao_Paulo';
/** 2026-11-23 10:00 in São Paulo. */
const BASE = 1_763_902_800;

interface Node {
	name: string;
	parameters: Record<string, unknown>;
}
type Row = Record<string, unknown>;
type Items = Array<{ json: Row }>;

/** What an expression of the examples may read. */
interface Scope {
	$json?: Row;
	$input?: Items;
	/** The output of each node that has run (its last run). */
	nodes?: Record<string, Row[]>;
	now?: number;
}

/** An n8n expression of the examples (`={{ … }}`), with `$json`, `$input`, `$()`, `$now`, `DateTime`. */
function compile(value: unknown): (scope: Scope) => unknown {
	const source = /^=\{\{([\s\S]*)\}\}$/.exec(String(value));
	if (!source) return () => value;
	const run = new Function('$json', '$input', '$', '$now', 'DateTime', `return (${source[1]});`);
	return ({ $json = {}, $input = [], nodes = {}, now = Date.now() }) =>
		run(
			$json,
			{ all: () => $input, first: () => $input[0] },
			(name: string) => ({
				isExecuted: name in nodes,
				all: () => (nodes[name] ?? []).map((json) => ({ json })),
				first: () => ({ json: nodes[name][0] }),
			}),
			DateTime.fromMillis(now, { zone: TIMEZONE }),
			DateTime,
		);
}

/** A parameter mixing text and expressions (`=text {{ … }} text`), as n8n resolves it. */
function compileTemplate(value: string): (scope: Scope) => unknown {
	if (/^=\{\{[\s\S]*\}\}$/.test(value) || !value.startsWith('=')) return compile(value);
	const parts = value
		.slice(1)
		.split(/(\{\{[\s\S]*?\}\})/)
		.map((part) => (part.startsWith('{{') ? compile(`=${part}`) : () => part));
	return (scope) => parts.map((part) => String(part(scope))).join('');
}

function assignmentsOf(node: Node) {
	return (
		node.parameters.assignments as {
			assignments: Array<{ name: string; value: string; type: string }>;
		}
	).assignments.map(({ name, type, value }) => ({ name, type, value: compileTemplate(value) }));
}

function evaluate(node: Node, scope: Scope): Row {
	return Object.fromEntries(
		assignmentsOf(node).map(({ name, type, value }) => {
			const result = value(scope);
			return [name, type === 'number' ? Number(result) : result];
		}),
	);
}

interface Condition {
	keyName: string;
	condition: string;
	value: (scope: Scope) => unknown;
}

function conditionsOf(node: Node): Condition[] {
	return (
		node.parameters.filters as {
			conditions: Array<{ keyName: string; condition?: string; keyValue: string }>;
		}
	).conditions.map(({ keyName, condition = 'eq', keyValue }) => ({
		keyName,
		condition,
		value: compile(keyValue),
	}));
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
	eq: (a, b) => a === b,
	gt: (a, b) => a > b,
	gte: (a, b) => a >= b,
	lt: (a, b) => a < b,
};

/** A column's value as the table compares it: a number, or a date's milliseconds. */
const comparable = (value: unknown) =>
	typeof value === 'string' && !/^-?\d+(\.\d+)?$/.test(value) ? Date.parse(value) : Number(value);

/** A Data Table Get's conditions, with their values worked out, as a test on a row. */
function matcher(conditions: Condition[], scope: Scope): (row: Row) => boolean {
	const bounds = conditions.map((c) => ({ ...c, bound: comparable(c.value(scope)) }));
	return (row) =>
		bounds.every(({ keyName, condition, bound }) =>
			COMPARE[condition](comparable(row[keyName]), bound),
		);
}

/** The decision the example makes, read from its file. */
function exampleDecision(file: string) {
	const { nodes } = JSON.parse(
		readFileSync(path.resolve(__dirname, '../../../examples', file), 'utf8'),
	) as { nodes: Node[] };
	const node = (name: string) => nodes.find((candidate) => candidate.name === name)!;
	const agentState = node('Agent State');
	const waitUntil = compile(node('Wait Until the Maximum').parameters.dateTime);
	const ended = conditionsOf(node('Pause Ended Before the Maximum'));
	const lately = conditionsOf(node('Events Saved Lately'));
	const behind = node('How Far Behind n8n Is');
	const decideAt = node('When to Decide');
	const caughtUp = compile(
		(
			node('n8n Has Caught Up').parameters.conditions as {
				conditions: Array<{ leftValue: string }>;
			}
		).conditions[0].leftValue,
	);
	const waitMore = compile(node('Wait Until n8n Catches Up').parameters.dateTime);
	const alert = node('Over-Limit Alert');
	return {
		rowOf: (item: Row) => evaluate(agentState, { $json: item }),
		watched: (row: Row) => row.lastEvent === 'agente.pause_in' && Boolean(row.pauseLimitAt),
		waitUntil: (scope: Scope) => Date.parse(String(waitUntil(scope))),
		ended: (scope: Scope) => matcher(ended, scope),
		lately: (scope: Scope) => matcher(lately, scope),
		behind: (scope: Scope) => evaluate(behind, scope),
		decideAt: (scope: Scope) => evaluate(decideAt, scope),
		caughtUp: (scope: Scope) => caughtUp(scope) === true,
		waitMore: (scope: Scope) => Date.parse(String(waitMore(scope))),
		alertLine: (scope: Scope) => {
			const fields = evaluate(alert, scope);
			return String(fields.line ?? fields.message);
		},
	};
}

/** How late n8n saves a delivery it received at `ms` (n8n's clock). */
type SaveDelay = (index: number, receivedAtMs: number) => number;

interface Conditions {
	/** n8n's clock minus the dialer's, seconds. */
	skewSeconds: number;
	saveDelay: SaveDelay;
	/** How late n8n runs a check due at `ms`: as late as it saves, when it is busy. */
	checkDelay?: (ms: number) => number;
	/** The dialer's clock set forward (or back, when negative) at a second of the shift. */
	clockStep?: { atSecond: number; bySeconds: number };
}

/** The event as a dialer whose clock was set by `clockStep` stamps it. */
function stamped(event: AgentEvent, clockStep: Conditions['clockStep']): AgentEvent {
	if (!clockStep || event.t < clockStep.atSecond) return event;
	const moved = (seconds: unknown) =>
		typeof seconds === 'number' ? seconds + clockStep.bySeconds : seconds;
	return { ...event, t: event.t + clockStep.bySeconds, udate: moved(event.udate) } as AgentEvent;
}

interface Alerted extends PauseAlert {
	/** n8n's clock. */
	alertedAtMs: number;
	line: string;
}

/**
 * The example run over a delivered shift: each event received `deliverAtMs` after its second
 * began on the dialer's clock (plus the skew on n8n's), its item built by the trigger, saved
 * `saveDelay` later; each watched pause checks the rows saved by then, and waits again while n8n
 * is behind, as its nodes say.
 */
function runExample(
	decision: ReturnType<typeof exampleDecision>,
	schedule: readonly ScheduledEvent[],
	{ skewSeconds, saveDelay, checkDelay = () => 0, clockStep }: Conditions,
	/** Called with what each check's expressions read, at the moment it decides. */
	onCheck: (scope: Required<Pick<Scope, 'nodes' | 'now'>>) => void = () => {},
): Alerted[] {
	const clock = new DialerClock();
	const receipts = new Receipts();
	const received = [...schedule]
		.map(({ event, deliverAtMs }) => ({
			event,
			receivedAtMs: (BASE + skewSeconds) * 1000 + deliverAtMs,
		}))
		.sort((a, b) => a.receivedAtMs - b.receivedAtMs);
	const saved = received.map(({ event, receivedAtMs }, i) => {
		const sent = stamped(event, clockStep);
		const reading = clock.observe(sent.t, receivedAtMs);
		const item = buildEventItem(
			sent as unknown as AgentEventPayload,
			TIMEZONE,
			DateTime.fromMillis(receivedAtMs),
			reading,
			receipts.next('Live alerts'),
		);
		const savedAtMs = receivedAtMs + saveDelay(i, receivedAtMs);
		const row = { ...decision.rowOf(item), createdAt: new Date(savedAtMs).toISOString() };
		return { event, item, row, savedAtMs };
	});
	const alerts: Alerted[] = [];
	for (const pause of saved.filter(({ row }) => decision.watched(row))) {
		const nodes: Record<string, Row[]> = {
			'Agent Events': [pause.item],
			'Save the Event': [pause.row],
		};
		// The wait resumes at its time, or at once for a pause saved after it; n8n runs it late
		// when busy.
		let due = Math.max(pause.savedAtMs, decision.waitUntil({ nodes, $json: pause.row }));
		for (let round = 0; ; round++) {
			if (round > 500) throw new Error('the check never decided');
			const now = due + checkDelay(due);
			const visible = saved.filter((other) => other.savedAtMs <= now).map(({ row }) => row);
			const rows = visible.filter(decision.lately({ nodes, now }));
			nodes['Events Saved Lately'] = rows.length > 0 ? rows : [{}];
			const behind = decision.behind({ nodes, now });
			nodes['How Far Behind n8n Is'] = [behind];
			nodes['When to Decide'] = [
				{ ...behind, ...decision.decideAt({ nodes, now, $json: behind }) },
			];
			onCheck({ nodes: { ...nodes }, now });
			// The ending check reads after the lag: nothing saved before it is missed.
			const ends = decision.ended({ nodes, now });
			if (visible.some((row) => row !== pause.row && ends(row))) break;
			if (decision.caughtUp({ nodes, now })) {
				alerts.push({
					agentId: pause.event.usuario_id,
					pauseId: Number(pause.event.pausa_id),
					limit: Number(pause.event.udate) + Number(pause.event.durmax),
					alertedAtMs: now,
					line: decision.alertLine({ nodes, now }),
				});
				break;
			}
			due = decision.waitMore({ nodes, now });
		}
	}
	return alerts;
}

const byPause = (a: PauseAlert, b: PauseAlert) => a.agentId - b.agentId || a.pauseId - b.pauseId;
const keys = (alerts: PauseAlert[]) =>
	alerts.map(({ agentId, pauseId, limit }) => ({ agentId, pauseId, limit })).sort(byPause);

type Load = Omit<Conditions, 'skewSeconds'>;

/** A quiet n8n: each delivery saved within half a second, each check run within 0.2 s. */
const quietLoad = fc
	.record({
		saves: fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 50, maxLength: 50 }),
		checks: fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 10, maxLength: 10 }),
	})
	.map(({ saves, checks }): Load => ({
		saveDelay: (i) => saves[i % saves.length],
		checkDelay: (ms) => checks[Math.floor(ms / 1000) % checks.length],
	}));

/**
 * A busy n8n: a lag that rises and falls with the load (by at most as much as time passes, from
 * 0 to 45 s), for saves and checks alike, and on top of it each save up to 1.5 s late of its own,
 * and one in five held back up to 4 s (a delivery the dialer still waits for: it gives up after 5 s).
 */
const busyLoad = fc
	.record({
		lagPoints: fc.array(fc.integer({ min: 0, max: 45_000 }), { minLength: 2, maxLength: 12 }),
		jitter: fc.array(
			fc.oneof(
				{ weight: 4, arbitrary: fc.integer({ min: 0, max: 1500 }) },
				{ weight: 1, arbitrary: fc.integer({ min: 0, max: 4000 }) },
			),
			{ minLength: 50, maxLength: 50 },
		),
	})
	.map(({ lagPoints, jitter }): Load => {
		const stepMs = 10_000;
		// Consecutive points apart by at most a step: the lag never changes faster than time.
		const lags = lagPoints.reduce<number[]>(
			(curve, point) => [
				...curve,
				curve.length === 0
					? point
					: Math.min(curve.at(-1)! + stepMs, Math.max(curve.at(-1)! - stepMs, point)),
			],
			[],
		);
		const lagAt = (ms: number) => {
			const position = Math.max(0, (ms - BASE * 1000) / stepMs);
			const i = Math.min(Math.floor(position), lags.length - 1);
			const next = lags[Math.min(i + 1, lags.length - 1)];
			return lags[i] + (next - lags[i]) * Math.min(1, position - i);
		};
		return {
			saveDelay: (i, receivedAtMs) => lagAt(receivedAtMs) + jitter[i % jitter.length],
			checkDelay: lagAt,
		};
	});

/** n8n 40 s behind from 30 s into the shift on, for saves and checks alike. */
const behindFrom30s: Conditions = {
	skewSeconds: 0,
	saveDelay: (_i, receivedAtMs) => (receivedAtMs >= (BASE + 30) * 1000 ? 40_000 : 100),
	checkDelay: (ms) => (ms >= (BASE + 30) * 1000 ? 40_000 : 100),
};

const SKEWS = [0, 0, 6, -6, 10, 3 * 3600, -3 * 3600];

/**
 * Mostly none; else the dialer's clock set by whole quarter-hours at some second of the shift,
 * pauses running: daylight-saving time starting or ending, a timezone set right or wrong.
 */
const clockSteps = fc.option(
	fc.record({
		atSecond: fc.integer({ min: BASE, max: BASE + 60 }),
		bySeconds: fc.constantFrom(3600, -3600, 900, -900, -1800, 2 * 3600, -5.5 * 3600),
	}),
	{ freq: 3 },
);

describe.each(['live-pause-alerts-to-file.json', 'live-pause-alerts-slack.json'])(
	'%s decides as the model, whatever the order and timing of deliveries',
	(file) => {
		const decision = exampleDecision(file);

		/**
		 * Over generated shifts under `load`, with the dialer's clock in step or off: the example
		 * alerts exactly the model's pauses, each once; `each` then looks at every alert and how
		 * long after its limit on n8n's clock it came.
		 */
		const alertsAsTheModel = (
			load: fc.Arbitrary<Load>,
			each: (alert: Alerted, lateMs: number) => void,
			shape = DEFAULT_SHAPE,
		) =>
			fc.assert(
				fc.property(
					shiftArbitrary(shape),
					load,
					fc.constantFrom(...SKEWS),
					clockSteps,
					(shift, conditions, skewSeconds, clockStep) => {
						const schedule = startingAt(shift, BASE);
						const model = decide(schedule.map(({ event }) => event));
						const alerts = runExample(decision, schedule, {
							...conditions,
							skewSeconds,
							clockStep: clockStep ?? undefined,
						});
						expect(keys(alerts)).toEqual(keys(model.alerts));
						for (const alert of alerts)
							each(alert, alert.alertedAtMs - (alert.limit + skewSeconds) * 1000);
					},
				),
				{ numRuns: propertyRuns(100) },
			);

		it('alerts exactly the pauses nothing ended before their limit, each once, on a quiet n8n, within 10 s of the limit on n8n’s clock', () => {
			// The 5 s the dialer may take to deliver, counted from the pause's own delivery (up to
			// 2.4 s into its second here), then 0.5 s (1.5 s while fewer than 20 rows were saved).
			alertsAsTheModel(quietLoad, (_alert, lateMs) => expect(lateMs).toBeLessThanOrEqual(10_000));
		});

		it('never alerts a pause that ended in time when deliveries take up to the 5 s the dialer waits', () => {
			alertsAsTheModel(quietLoad, (_alert, lateMs) => expect(lateMs).toBeLessThanOrEqual(12_500), {
				...DEFAULT_SHAPE,
				maxDelayMs: 4900,
			});
		});

		it('does not alert a pause whose resume takes 3.5 s to arrive, overtaken by a later event', () => {
			// Shrunk from an attack: the resume (t = limit − 1) arrives 3.5 s into its second, another
			// agent's event of the limit + 2 s right away.
			const events = [
				at(pause({ durmax: 10 })),
				at({ evento: 'agente.pause_out', estado: 'online', t: BASE + 9, usuario_id: 7 }, 3500),
				at({ evento: 'agente.online', estado: 'online', t: BASE + 12, usuario_id: 8 }, 50),
			];
			expect(runExample(decision, events, quiet)).toEqual([]);
		});

		it('never alerts a pause that ended in time on a busy n8n, alerts every other once, and says how far behind n8n was', () => {
			alertsAsTheModel(busyLoad, (alert, lateMs) => {
				// 3 s past the wait for deliveries (at most 7.4 s after the limit here).
				if (lateMs > 10_500)
					expect(alert.line).toMatch(/; alerted \d+ s after the limit: n8n was \d+ s behind\n?$/);
			});
		});

		const pause = (fields: Partial<AgentEvent> = {}): AgentEvent => ({
			evento: 'agente.pause_in',
			estado: 'paused',
			t: BASE,
			usuario_id: 7,
			pausa_id: 1,
			udate: BASE,
			durmax: 60,
			...fields,
		});
		const at = (event: AgentEvent, afterMs = 200): ScheduledEvent => ({
			event,
			deliverAtMs: (event.t - BASE) * 1000 + afterMs,
		});
		const quiet: Conditions = { skewSeconds: 0, saveDelay: () => 100 };

		it.each([
			['rings', [{ evento: 'agente.ringing', estado: 'ringing', t: BASE + 20 }]],
			[
				'takes and ends a call',
				[
					{ evento: 'agente.busy', estado: 'busy', t: BASE + 20, udate: BASE + 20 },
					{ evento: 'agente.online', estado: 'online', t: BASE + 40 },
				],
			],
			['logs in again, still paused', [{ evento: 'agente.login', estado: 'paused', t: BASE + 20 }]],
		])('alerts a pause in which the agent %s, since that does not end it', (_label, inside) => {
			const events = [
				pause(),
				...inside.map((fields) => ({ usuario_id: 7, ...fields }) as AgentEvent),
				{ evento: 'agente.pause_out', estado: 'busy', t: BASE + 100, usuario_id: 7 },
			];
			expect(decide(events).alerts).toHaveLength(1);
			expect(
				runExample(
					decision,
					events.map((event) => at(event)),
					quiet,
				),
			).toHaveLength(1);
		});

		it.each([
			['a resume', { evento: 'agente.pause_out', estado: 'online' }],
			['a logout', { evento: 'agente.logout', estado: 'offline' }],
			[
				'a new pause',
				{ evento: 'agente.pause_in', estado: 'paused', pausa_id: 2, udate: BASE + 57 },
			],
			['a login as available', { evento: 'agente.login', estado: 'online' }],
		])('does not alert a pause ended by %s before its limit', (_label, fields) => {
			const events = [pause(), { t: BASE + 57, usuario_id: 7, ...fields } as AgentEvent];
			expect(
				runExample(
					decision,
					events.map((event) => at(event)),
					quiet,
				),
			).toEqual([]);
		});

		it('waits for a resume n8n saves 40 s late, and alerts nothing', () => {
			const events = [
				pause(),
				{ evento: 'agente.pause_out', estado: 'online', t: BASE + 57, usuario_id: 7 },
				...Array.from({ length: 80 }, (_, i) => ({
					evento: 'agente.online',
					estado: 'online',
					t: BASE + 20 + i,
					usuario_id: 100 + (i % 10),
				})),
			];
			expect(
				runExample(
					decision,
					events.map((event) => at(event)),
					behindFrom30s,
				),
			).toEqual([]);
		});

		it('alerts a pause still open when n8n is 40 s behind, late, and says n8n was behind', () => {
			const events = [
				pause(),
				...Array.from({ length: 120 }, (_, i) => ({
					evento: 'agente.online',
					estado: 'online',
					t: BASE + 20 + i,
					usuario_id: 100 + (i % 10),
				})),
			];
			const [alert, ...more] = runExample(
				decision,
				events.map((event) => at(event)),
				behindFrom30s,
			);
			expect(more).toEqual([]);
			expect(alert.alertedAtMs - (BASE + 60) * 1000).toBeGreaterThan(40_000);
			expect(alert.line).toMatch(/; alerted \d+ s after the limit: n8n was (3\d|4\d) s behind\n?$/);
		});

		it.each([6, 10, 3 * 3600])(
			'does not alert a pause ended 3 s before its limit when the dialer’s clock is %i s behind',
			(skewSeconds) => {
				const events = [
					pause(),
					{ evento: 'agente.pause_out', estado: 'online', t: BASE + 57, usuario_id: 7 },
				];
				expect(
					runExample(
						decision,
						events.map((event) => at(event)),
						{ ...quiet, skewSeconds },
					),
				).toEqual([]);
			},
		);

		it.each([3600, -3600, -5.5 * 3600])(
			'judges a pause by the dialer’s clock set by %i s while it runs: in time, no alert; over, one',
			(bySeconds) => {
				const clockStep = { atSecond: BASE + 30, bySeconds };
				const endedAt = (second: number) => [
					pause(),
					{ evento: 'agente.pause_out', estado: 'online', t: second, usuario_id: 7 },
				];
				const run = (events: AgentEvent[]) =>
					runExample(
						decision,
						events.map((event) => at(event)),
						{ ...quiet, clockStep },
					);
				expect(run(endedAt(BASE + 57))).toEqual([]);
				expect(run(endedAt(BASE + 63))).toHaveLength(1);
			},
		);

		/** Agents 100 to 109 busy around a pause: an event every 100 ms from `from` s to `to` s. */
		const others = (from: number, to: number) =>
			Array.from({ length: (to - from) * 10 }, (_, i) => ({
				event: {
					evento: 'agente.online',
					estado: 'online',
					t: BASE + from + Math.floor(i / 10),
					usuario_id: 100 + (i % 10),
				} as AgentEvent,
				deliverAtMs: from * 1000 + i * 100 + 20,
			}));

		it('waits for a resume n8n took in time but saves after later events, and alerts nothing', () => {
			// Shrunk from the busy model: the resume's save is held 3.3 s, every other one takes 0.1 s.
			const resumeAtMs = (BASE + 3) * 1000 + 200;
			const schedule = [
				at(pause({ durmax: 4 })),
				at({ evento: 'agente.pause_out', estado: 'online', t: BASE + 3, usuario_id: 7 }),
				...others(0, 20),
			];
			const held: Conditions = {
				skewSeconds: 0,
				saveDelay: (_i, receivedAtMs) => (receivedAtMs === resumeAtMs ? 3300 : 100),
			};
			expect(runExample(decision, schedule, held)).toEqual([]);
		});

		it('takes a delivery n8n has not saved a minute after taking it for lost, and decides', () => {
			// The resume's execution failed: its receipt number stays missing for good.
			const lostAtMs = (BASE + 3) * 1000 + 200;
			const schedule = [
				at(pause({ durmax: 4 })),
				at({ evento: 'agente.pause_out', estado: 'online', t: BASE + 3, usuario_id: 7 }),
				...others(0, 90),
			];
			const lost: Conditions = {
				skewSeconds: 0,
				saveDelay: (_i, receivedAtMs) => (receivedAtMs === lostAtMs ? 10 ** 9 : 100),
			};
			const [alert, ...more] = runExample(decision, schedule, lost);
			expect(more).toEqual([]);
			const lateMs = alert.alertedAtMs - (BASE + 4) * 1000;
			expect(lateMs).toBeGreaterThan(55_000);
			expect(lateMs).toBeLessThan(62_000);
		});

		it('alerts a pause left open 5.7 s after its limit when n8n keeps up on a busy shift', () => {
			const schedule = [at(pause()), ...others(0, 70)];
			const [alert, ...more] = runExample(decision, schedule, quiet);
			expect(more).toEqual([]);
			// Delivered 0.2 s into its second: the dialer may deliver until 5 s after, then 0.5 s.
			expect(alert.alertedAtMs - (BASE + 60) * 1000).toBe(5700);
		});

		it('alerts a pause left open 6.7 s after its limit when few events were saved lately', () => {
			const [alert] = runExample(decision, [at(pause())], quiet);
			expect(alert.alertedAtMs - (BASE + 60) * 1000).toBe(6700);
		});

		it('waits the whole pause when the dialer’s clock was set back an hour just before it', () => {
			const events = [
				{ evento: 'agente.online', estado: 'online', t: BASE - 10, usuario_id: 8 },
				pause(),
				{ evento: 'agente.pause_out', estado: 'online', t: BASE + 57, usuario_id: 7 },
			];
			const clockStep = { atSecond: BASE, bySeconds: -3600 };
			expect(
				runExample(
					decision,
					events.map((event) => at(event)),
					{ ...quiet, clockStep },
				),
			).toEqual([]);
		});
	},
);

/**
 * The checks above evaluate the examples' expressions with a small `$` of their own, fast enough
 * for thousands of shifts. This runs the same expressions through n8n-workflow, as n8n does, on
 * the moments those checks met, and asks for the very same values.
 */
describe.each(['live-pause-alerts-to-file.json', 'live-pause-alerts-slack.json'])(
	'%s: every expression the checks evaluate gives what n8n gives',
	(file) => {
		const decision = exampleDecision(file);
		const n8n = new ExampleExpressions(file, TIMEZONE);
		const checks: Array<Required<Pick<Scope, 'nodes' | 'now'>>> = [];
		const [shift] = fc.sample(shiftArbitrary(), { seed: 7, numRuns: 1 });
		runExample(decision, startingAt(shift, BASE), behindFrom30s, (scope) => checks.push(scope));
		const sample = checks.filter((_, i) => i % Math.ceil(checks.length / 40) === 0);

		beforeEach(() => jest.useFakeTimers());
		afterEach(() => jest.useRealTimers());

		/** The node's expressions, each with where it sits in the parameters. */
		const expressionsOf = (name: string): Array<[string, string]> => {
			const found: Array<[string, string]> = [];
			const walk = (value: unknown, at: string) => {
				if (typeof value === 'string' && value.startsWith('=')) found.push([at, value]);
				else if (value && typeof value === 'object')
					for (const [key, inner] of Object.entries(value)) walk(inner, `${at}.${key}`);
			};
			walk(n8n.node(name).parameters, name);
			return found;
		};

		it.each([
			'How Far Behind n8n Is',
			'When to Decide',
			'n8n Has Caught Up',
			'Wait Until n8n Catches Up',
			'Pause Ended Before the Maximum',
			'Events Saved Lately',
			'Over-Limit Alert',
		])('%s', (name) => {
			expect(sample.length).toBeGreaterThan(10);
			for (const { nodes, now } of sample) {
				jest.setSystemTime(now);
				// A node's input is the output of the node before it in the check.
				const input = name === 'When to Decide' ? nodes['How Far Behind n8n Is'] : [{}];
				for (const [at, expression] of expressionsOf(name)) {
					const ours = compileTemplate(expression)({ nodes, now, $json: input[0] });
					const theirs = n8n.evaluate(
						name,
						expression,
						input as IDataObject[],
						nodes as Record<string, IDataObject[]>,
					);
					expect({ at, value: ours }).toEqual({ at, value: theirs });
				}
			}
		});
	},
);
