/**
 * When a report row says it happened. Reports write wall-clock times in the dialer's zone, to the
 * second or only to the minute; where clocks go back a time can name two instants.
 */
import { DateTime, IANAZone } from 'luxon';

// getFP1, getRQ4 and getRE2 write dd/mm/yyyy hh:mm[:ss]; getHC2 writes yyyy-mm-dd hh:mm:ss. Read
// with a regular expression and the zone's offsets rather than luxon's fromFormat, which costs
// about 30 µs a row: a third of a second for a poll of 10,000 rows.
const DAY_FIRST = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?$/;
const YEAR_FIRST = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const DAY_MS = 86_400_000;

/** The wall-clock time a text names, as if it were UTC, and how much time it covers (ms). */
function wallClock(text: string): { wall: number; spanMs: number } | undefined {
	const dayFirst = DAY_FIRST.exec(text);
	const yearFirst = dayFirst ? undefined : YEAR_FIRST.exec(text);
	if (!dayFirst && !yearFirst) return undefined;
	const [year, month, day, hour, minute, second] = dayFirst
		? [dayFirst[3], dayFirst[2], dayFirst[1], dayFirst[4], dayFirst[5], dayFirst[6]]
		: yearFirst!.slice(1);
	const parts = [year, month, day, hour, minute, second ?? '0'].map(Number);
	const wall = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]);
	const date = new Date(wall);
	// Date.UTC rolls 31/02 over into March and 24:00 into the next day: a round trip exposes both.
	const exact =
		date.getUTCDate() === parts[2] &&
		date.getUTCMonth() === parts[1] - 1 &&
		date.getUTCHours() === parts[3] &&
		date.getUTCMinutes() === parts[4] &&
		date.getUTCSeconds() === parts[5];
	// A time without seconds names a whole minute: the row is anywhere in it.
	return exact ? { wall, spanMs: second === undefined ? 60_000 : 1000 } : undefined;
}

const HOUR_MS = 3_600_000;
/** Per zone and wall-clock hour: the zone's offset when no clock change is near, else null. */
const steadyOffsets = new Map<string, number | null>();

function steadyOffset(zone: IANAZone, wall: number): number | null {
	const hour = Math.floor(wall / HOUR_MS) * HOUR_MS;
	const key = `${zone.name}|${hour}`;
	let offset = steadyOffsets.get(key);
	if (offset === undefined) {
		// The same offset a day before and a day after the hour: no change in between.
		const before = zone.offset(hour - DAY_MS);
		offset = before === zone.offset(hour + HOUR_MS + DAY_MS) ? before : null;
		if (steadyOffsets.size >= 10_000) steadyOffsets.clear();
		steadyOffsets.set(key, offset);
	}
	return offset;
}

/**
 * The instants a wall-clock time can name in `zone`: one, or two in the hour that happens twice
 * when clocks go back, and both readings of a time in the hour skipped when they go forward.
 */
function instantsOf(wall: number, zone: IANAZone): number[] {
	const steady = steadyOffset(zone, wall);
	if (steady !== null) return [wall - steady * 60_000];
	const readings = [zone.offset(wall - DAY_MS), zone.offset(wall + DAY_MS)].map((offset) => ({
		offset,
		instant: wall - offset * 60_000,
	}));
	const named = readings.filter(({ offset, instant }) => zone.offset(instant) === offset);
	return (named.length > 0 ? named : readings).map(({ instant }) => instant);
}

/** When a row's time text says it happened: the earliest and the latest instant it can name. */
export interface RowInstants {
	earliest: number;
	latest: number;
}

/**
 * The instants a row's time text can name, read as wall-clock time in `zone`: a text without
 * seconds covers its minute, and one in the hour that happens twice covers both; undefined when
 * unreadable.
 */
export function rowInstants(value: unknown, zone: string): RowInstants | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	const read = wallClock(text);
	if (!read) {
		const parsed = DateTime.fromISO(text, { zone });
		return parsed.isValid ? { earliest: parsed.toMillis(), latest: parsed.toMillis() } : undefined;
	}
	const instants = instantsOf(read.wall, IANAZone.create(zone));
	return {
		earliest: Math.min(...instants),
		latest: Math.max(...instants) + read.spanMs - 1000,
	};
}

/** The row's time as an instant (the earliest it can name); undefined when unreadable. */
export function rowTime(value: unknown, zone: string): number | undefined {
	return rowInstants(value, zone)?.earliest;
}
