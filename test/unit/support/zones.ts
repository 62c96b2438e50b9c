/**
 * Timezones the date tests run over: without daylight saving time and with it, in both
 * hemispheres, with half- and quarter-hour offsets and Lord Howe's half-hour clock change, from
 * UTC-10 to UTC+14 (dialer and workflow up to 24 hours apart).
 */
import { DateTime } from 'luxon';

export const TEST_ZONES = [
	'UTC',
	'America/Sao_Paulo',
	'America/New_York',
	'America/Santiago',
	'Europe/Berlin',
	'Asia/Kolkata',
	'Asia/Kathmandu',
	'Asia/Tokyo',
	'Australia/Sydney',
	'Australia/Lord_Howe',
	'Pacific/Auckland',
	'Pacific/Honolulu',
	'Pacific/Kiritimati',
];

/** Instants in 2026 where the zone's clock jumps (none in zones without daylight saving time). */
export function clockChanges(zone: string): number[] {
	const changes: number[] = [];
	let previous = DateTime.fromObject({ year: 2026 }, { zone });
	for (let hour = 1; hour < 366 * 24; hour++) {
		const next = previous.plus({ hours: 1 });
		if (next.offset !== previous.offset) changes.push(next.toMillis());
		previous = next;
	}
	return changes;
}
