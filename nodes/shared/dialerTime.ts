/**
 * The dialer's times. It takes 14 digits of wall-clock time in its zone (de, ate) and its reports
 * write wall-clock times in that zone, to the second or only to the minute; where clocks go back a
 * time can name two instants.
 */
import { DateTime, IANAZone } from 'luxon';

import { steadyZoneOffsets as steadyOffsets } from './processCaches';

/** The API's date-time form: 14 digits, wall-clock time of the dialer's zone. */
export const API_DATE_TIME_FORMAT = 'yyyyMMddHHmmss';

export function toApiDateTime(value: DateTime): string {
	return value.toFormat(API_DATE_TIME_FORMAT);
}

/** 14 digits as the API writes them, as wall-clock time in `zone`. */
export function fromApiDateTime(text: string, zone: string): DateTime {
	return DateTime.fromFormat(text, API_DATE_TIME_FORMAT, { zone });
}

// getFP1, getRQ4 and getRE2 write dd/mm/yyyy hh:mm[:ss] (CSV dates dd/mm/yyyy); getHC2 writes
// yyyy-mm-dd hh:mm:ss. Read with a regular expression rather than luxon's fromFormat, which costs
// about 30 µs a row: a third of a second for a poll of 10,000 rows.
const DAY_FIRST = /^(\d{2})\/(\d{2})\/(\d{4})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const YEAR_FIRST = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const DAY_MS = 86_400_000;

/** A time as a report writes it: its wall-clock fields, and what it names. */
export interface ReportTime {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	/** The wall-clock time as if it were UTC, in epoch ms. */
	wall: number;
	/** A date alone names its day, a time without seconds its minute, else its second. */
	names: 'day' | 'minute' | 'second';
}

/** A time text as the reports write it; undefined for any other text or a date that is none. */
export function readReportTime(text: string): ReportTime | undefined {
	const dayFirst = DAY_FIRST.exec(text);
	const yearFirst = dayFirst ? undefined : YEAR_FIRST.exec(text);
	if (!dayFirst && !yearFirst) return undefined;
	const [yearText, monthText, dayText, hourText, minuteText, secondText] = dayFirst
		? [dayFirst[3], dayFirst[2], dayFirst[1], dayFirst[4], dayFirst[5], dayFirst[6]]
		: yearFirst!.slice(1);
	const [year, month, day, hour, minute, second] = [
		yearText,
		monthText,
		dayText,
		hourText ?? '0',
		minuteText ?? '0',
		secondText ?? '0',
	].map(Number);
	const wall = Date.UTC(year, month - 1, day, hour, minute, second);
	const date = new Date(wall);
	// Date.UTC rolls 31/02 over into March and 24:00 into the next day: a round trip exposes both.
	const exact =
		date.getUTCDate() === day &&
		date.getUTCMonth() === month - 1 &&
		date.getUTCHours() === hour &&
		date.getUTCMinutes() === minute &&
		date.getUTCSeconds() === second;
	if (!exact) return undefined;
	const names = hourText === undefined ? 'day' : secondText === undefined ? 'minute' : 'second';
	return { year, month, day, hour, minute, second, wall, names };
}

const HOUR_MS = 3_600_000;

/**
 * The zone's offset in the wall-clock hour of `wall` when no clock change is near, else null;
 * remembered per zone and hour (processCaches.ts, steadyZoneOffsets).
 */
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
	const read = readReportTime(text);
	if (!read || read.names === 'day') {
		const parsed = DateTime.fromISO(text, { zone });
		return parsed.isValid ? { earliest: parsed.toMillis(), latest: parsed.toMillis() } : undefined;
	}
	const instants = instantsOf(read.wall, IANAZone.create(zone));
	// A time without seconds names a whole minute: the row is anywhere in it.
	const spanMs = read.names === 'minute' ? 60_000 : 1000;
	return {
		earliest: Math.min(...instants),
		latest: Math.max(...instants) + spanMs - 1000,
	};
}

/** The row's time as an instant (the earliest it can name); undefined when unreadable. */
export function rowTime(value: unknown, zone: string): number | undefined {
	return rowInstants(value, zone)?.earliest;
}
