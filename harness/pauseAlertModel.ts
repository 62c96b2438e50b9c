/**
 * What the live over-limit pause alerts (examples/live-pause-alerts-*.json) and the boards must
 * show, worked out from the contract alone, and shifts to check them with. Shared by the unit
 * property test and the e2e test in real n8n.
 *
 * The model: an agent's events are ordered by the dialer's time `t`, and events of one second by
 * their meaning (the order examples/README.md gives). A pause ends only as the contract says: a
 * resume, a logout, a new pause, or a login in any state but paused; a call rung, taken or ended
 * inside it leaves it running. A pause with a maximum (`durmax`) is alerted when nothing ended it
 * before its limit (`udate` + `durmax`): no ending event of the agent ordered after it has a `t`
 * before the limit (`t` is whole seconds, so an event stamped with the limit's second happened at
 * the limit or after). Each agent's board row is its latest event.
 */
import fc from 'fast-check';

import type { AgentEvent } from './simulator/types';

/** Events of one second, in the order they count (examples/README.md, "Events that arrive out of order"). */
export const SAME_SECOND_ORDER = [
	'agente.login',
	'agente.online',
	'agente.pause_in',
	'agente.pause_out',
	'agente.ringing',
	'agente.busy',
	'agente.logout',
] as const;
type EventCode = (typeof SAME_SECOND_ORDER)[number];

const STATE_AFTER: Record<EventCode, string> = {
	'agente.login': 'online',
	'agente.online': 'online',
	'agente.pause_in': 'paused',
	'agente.pause_out': 'online',
	'agente.ringing': 'ringing',
	'agente.busy': 'busy',
	'agente.logout': 'offline',
};

const rank = (event: AgentEvent) => SAME_SECOND_ORDER.indexOf(event.evento as EventCode);

/** Whether an event ends the pause before it (contract: pause_out, logout, a new pause). */
export function endsPause(event: AgentEvent): boolean {
	if (event.evento === 'agente.login') return event.estado !== 'paused';
	return ['agente.pause_in', 'agente.pause_out', 'agente.logout'].includes(event.evento);
}

/** Negative when `a` comes before `b` in its agent's timeline. */
export function compareEvents(a: AgentEvent, b: AgentEvent): number {
	return a.t - b.t || rank(a) - rank(b);
}

/** The second a pause with a maximum reaches it, or undefined for a pause without one. */
export function limitOf(event: AgentEvent): number | undefined {
	if (event.evento !== 'agente.pause_in' || typeof event.durmax !== 'number') return undefined;
	return Number(event.udate) + event.durmax;
}

export interface PauseAlert {
	agentId: number;
	pauseId: number;
	/** Unix seconds. */
	limit: number;
}

export interface Decision {
	/** The pauses to alert, once each. */
	alerts: PauseAlert[];
	/** Each agent's latest event: its board row. */
	latest: Map<number, AgentEvent>;
}

/** The reference model: what must be alerted and shown, given every event of a shift. */
export function decide(events: readonly AgentEvent[]): Decision {
	const byAgent = new Map<number, AgentEvent[]>();
	for (const event of events) {
		byAgent.set(event.usuario_id, [...(byAgent.get(event.usuario_id) ?? []), event]);
	}
	const alerts: PauseAlert[] = [];
	const latest = new Map<number, AgentEvent>();
	for (const [agentId, timeline] of byAgent) {
		const ordered = [...timeline].sort(compareEvents);
		latest.set(agentId, ordered.at(-1)!);
		for (const pause of ordered) {
			const limit = limitOf(pause);
			if (limit === undefined) continue;
			const endedInTime = ordered.some(
				(other) => compareEvents(other, pause) > 0 && other.t < limit && endsPause(other),
			);
			if (!endedInTime) alerts.push({ agentId, pauseId: Number(pause.pausa_id), limit });
		}
	}
	return { alerts, latest };
}

/** A line of the live alerts' log file (`over-limit-pauses.log`), as read back. */
export interface LoggedAlert {
	agentId: number;
	pauseId: number;
	/** When the alert was written (the line's time stamp), ms since the epoch. */
	at: number;
	/** How far behind n8n was, when the line says so. */
	n8nBehindSeconds?: number;
}

export function parseAlert(line: string): LoggedAlert {
	const found = /^(\S+)\tAgent (\d+) still paused, .* \(pause (\d+) since /.exec(line);
	if (!found) throw new Error(`not an alert line: ${line}`);
	const behind = /; alerted \d+ s after the limit: n8n was (\d+) s behind$/.exec(line.trimEnd());
	return {
		at: Date.parse(found[1]),
		agentId: Number(found[2]),
		pauseId: Number(found[3]),
		...(behind ? { n8nBehindSeconds: Number(behind[1]) } : {}),
	};
}

/** One event of a generated shift and when it reaches the receiver. */
export interface ScheduledEvent {
	event: AgentEvent;
	/** Milliseconds after the start of the shift's first second (`t` = 0) that it is delivered. */
	deliverAtMs: number;
}

export interface ShiftShape {
	agents: number;
	/** Steps per agent (each one or two events). */
	steps: number;
	/** Pause maxima, seconds. */
	minLimit: number;
	maxLimit: number;
	/** Latest delivery after the event's second begins, ms. */
	maxDelayMs: number;
	/** The first agent's id. */
	firstAgent: number;
}

export const DEFAULT_SHAPE: ShiftShape = {
	agents: 12,
	steps: 6,
	minLimit: 3,
	maxLimit: 9,
	maxDelayMs: 2400,
	firstAgent: 1,
};

/**
 * One agent's plausible timeline from `t` = 0: a login, then pauses with and without a maximum
 * ended before, at or after their limit (or by a logout), calls (ringing, busy, available) and
 * logouts with a new login. Events of one second appear in their same-second order, as the
 * dialer's own sequence would; several events in one second are common.
 */
function agentTimeline(agentId: number, shape: ShiftShape): fc.Arbitrary<AgentEvent[]> {
	const gap = fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 4 }));
	const step = fc.record({
		kind: fc.constantFrom('pause', 'pause', 'call', 'logout'),
		withMaximum: fc.constantFrom(true, true, true, false),
		gap,
		limit: fc.integer({ min: shape.minLimit, max: shape.maxLimit }),
		// Where the pause ends relative to its limit: well before, the second before, at, after, never.
		end: fc.constantFrom('before', 'lastSecond', 'atLimit', 'after', 'sameSecond', 'logout'),
		callSeconds: fc.integer({ min: 0, max: 3 }),
		// A call inside the pause (rung, taken, ended), or still going when the pause ends; or the
		// agent's phone logging in again, still paused.
		callInside: fc.constantFrom('none', 'none', 'ended', 'ongoing', 'rangOnly', 'pausedLogin'),
	});
	return fc
		.record({
			start: fc.integer({ min: 0, max: 3 }),
			steps: fc.array(step, { maxLength: shape.steps }),
		})
		.map(({ start, steps }) => {
			const events: AgentEvent[] = [];
			let t = start;
			let pauseId = 0;
			const push = (evento: EventCode, extra: Record<string, unknown> = {}) => {
				events.push({ evento, estado: STATE_AFTER[evento], t, usuario_id: agentId, ...extra });
			};
			push('agente.login');
			for (const { kind, withMaximum, gap: wait, limit, end, callSeconds, callInside } of steps) {
				const previous = events.at(-1)!;
				// Same-second events only in their same-second order, as the dialer would send them.
				t +=
					wait === 0 && rank(previous) >= SAME_SECOND_ORDER.indexOf('agente.pause_in') ? 1 : wait;
				if (kind === 'call') {
					push('agente.ringing');
					t += callSeconds > 0 ? 1 : 0;
					push('agente.busy', { udate: t });
					t += callSeconds;
					t += callSeconds === 0 ? 1 : 0;
					push('agente.online');
				} else if (kind === 'logout') {
					push('agente.logout');
					t += 1 + callSeconds;
					push('agente.login');
				} else {
					pauseId += 1;
					const started = t;
					push('agente.pause_in', {
						pausa_id: pauseId,
						udate: started,
						...(withMaximum ? { durmax: limit } : {}),
					});
					const endsAt = {
						before: started + Math.floor(limit / 2),
						lastSecond: started + limit - 1,
						atLimit: started + limit,
						after: started + limit + 1 + callSeconds,
						sameSecond: started,
						logout: started + 1 + callSeconds,
					}[end];
					if (callInside === 'pausedLogin' && endsAt > started + 1) {
						t = started + 1;
						push('agente.login', { estado: 'paused' });
					} else if (callInside !== 'none' && endsAt > started + 1) {
						t = started + 1;
						push('agente.ringing');
						if (callInside !== 'rangOnly') push('agente.busy', { udate: t });
						if (callInside === 'ended' && endsAt > t + 1) {
							t += 1;
							push('agente.online');
						}
					}
					t = endsAt;
					const onCall = callInside === 'ongoing' && endsAt > started + 1;
					// The dialer says busy when the agent leaves a pause during a call.
					if (end === 'logout') push('agente.logout');
					else push('agente.pause_out', onCall ? { estado: 'busy' } : {});
					if (end === 'logout') {
						t += 1;
						push('agente.login');
					}
				}
			}
			return events;
		});
}

/** The shift moved to start at `base` (Unix seconds): `t` and `udate` shifted, delivery times kept relative. */
export function startingAt(schedule: readonly ScheduledEvent[], base: number): ScheduledEvent[] {
	return schedule.map(({ event, deliverAtMs }) => ({
		deliverAtMs,
		event: {
			...event,
			t: event.t + base,
			...(typeof event.udate === 'number' ? { udate: event.udate + base } : {}),
		},
	}));
}

/**
 * A shift of many agents acting at once, each event delivered 0 to `maxDelayMs` after its second
 * begins, so deliveries overtake each other within an agent and across agents.
 */
export function shiftArbitrary(shape: ShiftShape = DEFAULT_SHAPE): fc.Arbitrary<ScheduledEvent[]> {
	const agents = Array.from({ length: shape.agents }, (_, i) => shape.firstAgent + i);
	return fc.tuple(...agents.map((agentId) => agentTimeline(agentId, shape))).chain((timelines) => {
		const events = timelines.flat();
		return fc
			.array(fc.integer({ min: 0, max: shape.maxDelayMs }), {
				minLength: events.length,
				maxLength: events.length,
			})
			.map((delays) =>
				events
					.map((event, i) => ({ event, deliverAtMs: event.t * 1000 + delays[i] }))
					.sort((a, b) => a.deliverAtMs - b.deliverAtMs),
			);
	});
}
