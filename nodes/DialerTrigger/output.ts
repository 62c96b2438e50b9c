import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { ClockReading } from './dialerClock';
import type { AgentEventPayload } from './events';

/** ISO 8601 in the workflow's timezone, so times read the same as in the rest of the workflow. */
function isoFromUnixSeconds(seconds: number, timezone: string, offsetMs = 0): string | null {
	return DateTime.fromMillis(seconds * 1000 + offsetMs, { zone: timezone }).toISO();
}

/** A number `checkPayload` read; absent, null or blank reads as null. */
function optionalNumber(value: unknown): number | null {
	return typeof value === 'number' ? value : null;
}

/** A duration limit; 0 or less means "no limit" (a dialer sends 0 for a pause without one). */
function durationLimit(value: unknown): number | null {
	const seconds = optionalNumber(value);
	return seconds !== null && seconds > 0 ? seconds : null;
}

/** The Unix seconds of the event's dialer times that a workflow may wait for or show. */
interface DialerTimes {
	eventTime: number;
	pauseStartedAt?: number;
	maxDurationReachedAt?: number | null;
	minDurationReachedAt?: number | null;
	callStartedAt?: number;
}

/**
 * Events of one second in the order an agent goes through them: logging in, becoming available,
 * pausing, leaving the pause, ringing, taking the call, logging out. Logging out comes last, so a
 * pause entered and left by logging out in the same second is seen to end.
 */
const ORDER_IN_A_SECOND = [
	'agente.login',
	'agente.online',
	'agente.pause_in',
	'agente.pause_out',
	'agente.ringing',
	'agente.busy',
	'agente.logout',
];

/**
 * A number that sorts an agent's events in the order they happened: the dialer's second ×10
 * plus the event's place in a second, moved across the dialer's clock jumps (see DialerClock).
 */
function orderOf(second: number, event: string, shiftSeconds: number): number {
	return (second + shiftSeconds) * 10 + ORDER_IN_A_SECOND.indexOf(event) + 1;
}

/** How long the dialer waits for n8n to answer a delivery before it gives up on the event. */
const DELIVERY_TIMEOUT_MS = 5_000;

const MISSING_START =
	'The dialer sent no udate (the start of the pause or call): the event time t is used instead';

/**
 * The dialer's times of an event. A pause or call without `udate` started at its event time: the
 * dialer sends each event as it happens. Returns the note saying so, if it was needed.
 */
function dialerTimes(payload: AgentEventPayload): { times: DialerTimes; note?: string } {
	const start = optionalNumber(payload.udate);
	const times: DialerTimes = { eventTime: payload.t };
	if (payload.evento === 'agente.pause_in') {
		const started = start ?? payload.t;
		const limitAt = (limit: unknown) => {
			const seconds = durationLimit(limit);
			return seconds === null ? null : started + seconds;
		};
		times.pauseStartedAt = started;
		times.maxDurationReachedAt = limitAt(payload.durmax);
		times.minDurationReachedAt = limitAt(payload.durmin);
	} else if (payload.evento === 'agente.busy') {
		times.callStartedAt = start ?? payload.t;
	} else {
		return { times };
	}
	return start === null ? { times, note: MISSING_START } : { times };
}

/** The same times as ISO text, shifted by `offsetMs` onto another clock. */
function timesAsText(times: DialerTimes, timezone: string, offsetMs = 0): IDataObject {
	return Object.fromEntries(
		Object.entries(times).map(([name, seconds]) => [
			name,
			typeof seconds === 'number' ? isoFromUnixSeconds(seconds, timezone, offsetMs) : null,
		]),
	);
}

/**
 * The item a workflow receives: readable English fields first, then every field of the
 * delivery as `checkPayload` read it (they win on a name clash, so nothing the server sent is
 * lost; only numbers sent as text arrive as numbers).
 *
 * Times are the dialer's, as it sent them; `n8nClock` gives the same moments on n8n's clock
 * (the dialer's plus the offset measured from recent deliveries, in whole seconds), the ones to
 * wait for in a Wait node or compare with `$now`.
 */
export function buildEventItem(
	payload: AgentEventPayload,
	timezone: string,
	receivedAt: DateTime,
	clock: Pick<ClockReading, 'offsetSeconds' | 'orderShiftSeconds' | 'warning'> = {
		offsetSeconds: 0,
		orderShiftSeconds: 0,
	},
	receipt?: { receivedBy: string; receiptNumber: number },
): IDataObject {
	const { times, note } = dialerTimes(payload);
	const text = timesAsText(times, timezone);
	const readable: IDataObject = {
		event: payload.evento,
		state: payload.estado,
		agentId: payload.usuario_id,
		eventTime: text.eventTime,
		receivedAt: receivedAt.setZone(timezone).toISO(),
		...receipt,
	};
	if (payload.evento === 'agente.pause_in') {
		readable.pauseId = payload.pausa_id ?? null;
		readable.pauseStartedAt = text.pauseStartedAt;
		readable.maxDurationSeconds = durationLimit(payload.durmax);
		readable.minDurationSeconds = durationLimit(payload.durmin);
		// The moments a workflow waits for, so it needs no date maths.
		readable.maxDurationReachedAt = text.maxDurationReachedAt;
		readable.minDurationReachedAt = text.minDurationReachedAt;
	} else if (payload.evento === 'agente.busy') {
		readable.callStartedAt = text.callStartedAt;
	}
	readable.eventOrder = orderOf(payload.t, payload.evento, clock.orderShiftSeconds);
	if (payload.evento === 'agente.pause_in') {
		// Below the order of any event in the second the maximum is reached.
		readable.maxDurationReachedOrder =
			typeof times.maxDurationReachedAt === 'number'
				? (times.maxDurationReachedAt + clock.orderShiftSeconds) * 10
				: null;
	}
	readable.dialerClockOffsetSeconds = clock.offsetSeconds;
	// Whole seconds, as `t` is: a dialer in step gets the very same times.
	const n8nClock = timesAsText(times, timezone, clock.offsetSeconds * 1000);
	if (typeof times.maxDurationReachedAt === 'number') {
		// By then every event the dialer stamped before the maximum has reached n8n, or the dialer
		// gave up on it. Counted from this delivery's own arrival, which is never earlier on n8n's
		// clock than its `t`: right whatever the offset reads.
		const settledMs =
			receivedAt.toMillis() + (times.maxDurationReachedAt - payload.t) * 1000 + DELIVERY_TIMEOUT_MS;
		n8nClock.maxDurationSettledAt = DateTime.fromMillis(settledMs, { zone: timezone }).toISO();
	}
	readable.n8nClock = n8nClock;
	const warnings = [clock.warning, note].filter((warning) => warning !== undefined);
	if (warnings.length > 0) readable.warnings = warnings;
	return { ...readable, ...payload };
}
