import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { AgentEventPayload } from './events';

/** ISO 8601 in the workflow's timezone, so times read the same as in the rest of the workflow. */
function isoFromUnixSeconds(seconds: number, timezone: string): string | null {
	return DateTime.fromSeconds(seconds, { zone: timezone }).toISO();
}

/** A number `checkPayload` read; absent, null or blank reads as null. */
function optionalNumber(value: unknown): number | null {
	return typeof value === 'number' ? value : null;
}

function optionalTime(value: unknown, timezone: string): string | null {
	const seconds = optionalNumber(value);
	return seconds === null ? null : isoFromUnixSeconds(seconds, timezone);
}

/** A duration limit; 0 or less means "no limit" (a dialer sends 0 for a pause without one). */
function durationLimit(value: unknown): number | null {
	const seconds = optionalNumber(value);
	return seconds !== null && seconds > 0 ? seconds : null;
}

/**
 * When a pause that started at `udate` reaches a limit of `limit` seconds; null if either is
 * absent or the pause has no such limit.
 */
function limitReachedAt(udate: unknown, limit: unknown, timezone: string): string | null {
	const start = optionalNumber(udate);
	const seconds = durationLimit(limit);
	return start === null || seconds === null ? null : isoFromUnixSeconds(start + seconds, timezone);
}

/**
 * The item a workflow receives: readable English fields first, then every field of the
 * delivery as `checkPayload` read it (they win on a name clash, so nothing the server sent is
 * lost; only numbers sent as text arrive as numbers).
 */
export function buildEventItem(
	payload: AgentEventPayload,
	timezone: string,
	receivedAt: DateTime,
): IDataObject {
	const readable: IDataObject = {
		event: payload.evento,
		state: payload.estado,
		agentId: payload.usuario_id,
		eventTime: isoFromUnixSeconds(payload.t, timezone),
		receivedAt: receivedAt.setZone(timezone).toISO(),
	};
	if (payload.evento === 'agente.pause_in') {
		readable.pauseId = payload.pausa_id ?? null;
		readable.pauseStartedAt = optionalTime(payload.udate, timezone);
		readable.maxDurationSeconds = durationLimit(payload.durmax);
		readable.minDurationSeconds = durationLimit(payload.durmin);
		// The moments a workflow waits for (e.g. a Wait node "At Specified Time"), so it needs no date
		// maths.
		readable.maxDurationReachedAt = limitReachedAt(payload.udate, payload.durmax, timezone);
		readable.minDurationReachedAt = limitReachedAt(payload.udate, payload.durmin, timezone);
	} else if (payload.evento === 'agente.busy') {
		readable.callStartedAt = optionalTime(payload.udate, timezone);
	}
	return { ...readable, ...payload };
}
