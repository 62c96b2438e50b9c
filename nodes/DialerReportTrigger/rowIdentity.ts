import { createHash } from 'crypto';
import { DateTime, IANAZone } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { RowIdentityRule } from '../Dialer/actions/report/rowSource';
import type { RowIdentity } from './cursor';

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

/**
 * JSON with object keys in a fixed order, so equal rows give equal text whatever their key order;
 * numbers are written by `number`.
 */
function canonicalJson(value: unknown, number: (value: number) => string): string {
	if (Array.isArray(value)) {
		return `[${value.map((item) => canonicalJson(item, number)).join(',')}]`;
	}
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key], number)}`);
		return `{${entries.join(',')}}`;
	}
	if (typeof value === 'number') return number(value);
	return JSON.stringify(value) ?? 'null';
}

/** A number as its decimal text: dialers send the same value as 5 in one answer, "5" in another. */
const asText = (value: number) => JSON.stringify(String(value));
/** How versions before 2026-11-27 wrote numbers. */
const asNumber = (value: number) => JSON.stringify(value);

/** Keys of versions before 2026-11-27 start `sha256:`, today's `row-sha256:`. */
const FORMER_PREFIX = 'sha256:';
const KEY_PREFIX = 'row-sha256:';

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/**
 * Whether a remembered key is one an earlier version gave: only while a trigger remembers such
 * keys (one overlap window after its update) are new rows checked against their former keys.
 */
export const isFormerKey = (key: string) => key.startsWith(FORMER_PREFIX);

/** Text a dialer sending numbers as text sends for a number: "42", not "042", "42.0" or "". */
const readsAsNumber = (value: unknown) =>
	typeof value === 'string' && Number.isFinite(Number(value)) && String(Number(value)) === value;

/** At most 2^this keys a row may have had in versions before 2026-11-27. */
const MAX_FLIPPED_FIELDS = 4;

/**
 * The keys versions before 2026-11-27 may have given the row with these identifying fields
 * (`stable`): they digested numbers as numbers, and the dialer may have sent each number (or text
 * that reads as one) either way then.
 */
function formerKeys(stable: IDataObject): string[] {
	const numeric = Object.keys(stable)
		.filter((field) => typeof stable[field] === 'number' || readsAsNumber(stable[field]))
		.slice(0, MAX_FLIPPED_FIELDS);
	const keys = new Set<string>();
	for (let numbers = 0; numbers < 2 ** numeric.length; numbers++) {
		const sent: IDataObject = { ...stable };
		numeric.forEach((field, index) => {
			sent[field] = numbers & (2 ** index) ? Number(sent[field]) : String(sent[field]);
		});
		keys.add(FORMER_PREFIX + digest(canonicalJson(sent, asNumber)));
	}
	return [...keys];
}

/**
 * A key that stays the same for the same row in every read: the key field's value when the row
 * has one, otherwise a SHA-256 digest of its identifying fields (so two rows equal in all of them
 * count as one). A number gives the key of its decimal text, so a row sent with 5 in one read and
 * "5" in the next is one row; text is never read as a number ("007" and 7 stay two rows).
 *
 * Versions before 2026-11-27 digested numbers as numbers: a trigger updated while it remembers a
 * row with a number among those fields has only that digest, one of the `formerKeys` (computed
 * when asked, for rows not known by their key) so the row is not emitted again, whichever way the
 * dialer sends its numbers now.
 */
export function rowKeys(
	row: IDataObject,
	rule: RowIdentityRule,
): Pick<RowIdentity, 'key' | 'formerKeys'> {
	const value = rule.keyField === undefined ? undefined : row[rule.keyField];
	if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') {
		return { key: `${rule.keyField}:${String(value).trim()}` };
	}
	const stable: IDataObject = {};
	for (const field of rule.digestFields ?? Object.keys(row)) stable[field] = row[field] ?? null;
	return {
		key: KEY_PREFIX + digest(canonicalJson(stable, asText)),
		formerKeys: () => formerKeys(stable),
	};
}

/**
 * Identifies the rows of one poll. Rows written in the same second share their time text, so each
 * text is read once.
 */
export function rowIdentifier(
	rule: RowIdentityRule,
	zone: string,
): (row: IDataObject) => RowIdentity {
	const times = new Map<unknown, RowInstants | undefined>();
	return (row) => {
		const text = row[rule.timeField];
		if (!times.has(text)) times.set(text, rowInstants(text, zone));
		const instants = times.get(text);
		return { ...rowKeys(row, rule), time: instants?.earliest, latest: instants?.latest };
	};
}
