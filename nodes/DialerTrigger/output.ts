import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { AgentEventPayload } from './events';

/** ISO 8601 in the workflow's timezone, so times read the same as in the rest of the workflow. */
function isoFromUnixSeconds(seconds: number, timezone: string): string | null {
	return DateTime.fromSeconds(seconds, { zone: timezone }).toISO();
}

/** Optional numeric extras may come as numbers or digit strings; anything else reads as absent. */
function optionalSeconds(value: unknown): number | null {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
	return null;
}

function optionalTime(value: unknown, timezone: string): string | null {
	const seconds = optionalSeconds(value);
	return seconds === null ? null : isoFromUnixSeconds(seconds, timezone);
}

/**
 * When a pause that started at `udate` reaches a limit of `limit` seconds; null if either is
 * absent.
 */
function limitReachedAt(udate: unknown, limit: unknown, timezone: string): string | null {
	const start = optionalSeconds(udate);
	const seconds = optionalSeconds(limit);
	return start === null || seconds === null ? null : isoFromUnixSeconds(start + seconds, timezone);
}

/**
 * The item a workflow receives: readable English fields first, then every field of the
 * delivery exactly as sent (they win on a name clash, so nothing the server sent is altered).
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
		readable.maxDurationSeconds = optionalSeconds(payload.durmax);
		readable.minDurationSeconds = optionalSeconds(payload.durmin);
		// The moments a workflow waits for (e.g. a Wait node "At Specified Time"), so it needs no date
		// maths.
		readable.maxDurationReachedAt = limitReachedAt(payload.udate, payload.durmax, timezone);
		readable.minDurationReachedAt = limitReachedAt(payload.udate, payload.durmin, timezone);
	} else if (payload.evento === 'agente.busy') {
		readable.callStartedAt = optionalTime(payload.udate, timezone);
	}
	return { ...readable, ...payload };
}
