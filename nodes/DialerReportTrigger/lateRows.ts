/**
 * Rows the trigger will never emit because the dialer wrote them later than the Overlap Window
 * allows (or its clock is behind): found among the rows a clock check read, told from the rows
 * the trigger emitted by its memory (memory.ts) and, where that memory does not reach, from the
 * rows the last check read; named in n8n's log and counted on the next emitted item, with one
 * warning and one count whichever way they were found. Each is told once.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RowIdentityRule } from '../shared/reports/rowSource';
import { duration, FIX, type CheckBaseline } from './clockCheck';
import { DateTime } from 'luxon';

import {
	COARSE_FILTER_MS,
	listableFrom,
	listedUnder,
	rememberRows,
	type CursorSettings,
	type CursorState,
	type ReadWindow,
} from './cursor';
import { knownRows, rememberedCounts, updateMemory, type KnownRow } from './memory';
import { newRows, type FreshRow, type RowIdentity } from './newRows';
import { canonicalValue } from './rowIdentity';

/** The field of the first new item that counts the rows found too late since the last count. */
export const LATE_ROWS_FIELD = 'lateRowsNotEmitted';
/** A warning names at most this many rows (the count covers them all). */
const NAMED_ROWS = 20;

/**
 * Rows whose time lies before this can no longer be listed by any read of the Overlap Window: the
 * next read starts at the minute of cursor - overlap, and asks from an earlier wall-clock time
 * only by a clock change near it (or between it and the cursor) and a dialer that reads only the
 * minutes of de.
 */
function unlistedBefore(state: CursorState, settings: CursorSettings): number {
	const reach =
		Math.floor(Math.max(state.start, state.cursor - settings.overlapMs) / 60_000) * 60_000;
	return reach - shiftBetween(reach, state.cursor, settings.zone) - COARSE_FILTER_MS;
}

/** How far the zone's clocks move from an hour before `from` to `to` (and an hour after `from`). */
function shiftBetween(from: number, to: number, zone: string): number {
	const offsets = [from - 3_600_000, from, from + 3_600_000, to].map(
		(instant) => DateTime.fromMillis(instant, { zone }).offset,
	);
	return (Math.max(...offsets) - Math.min(...offsets)) * 60_000;
}

/**
 * A row that appeared since the check of `baseline` was written after it: dated before this, it was
 * written later than the Overlap Window allows (with a clock change and a dialer that reads only
 * the minutes of de, that much more). Dated after, it may be on time and only before the start.
 */
function lateSince(baseline: CheckBaseline, settings: CursorSettings): number {
	const reach = baseline.at - settings.overlapMs;
	return reach - shiftBetween(reach, baseline.at, settings.zone) - COARSE_FILTER_MS;
}

/** Where the memory can tell a row the trigger emitted from one it never will. */
export function judgedFrom(state: CursorState): number {
	return Math.max(state.start, state.forgottenBefore);
}

/**
 * The rows of a check's read (`read`, up to `now`) that the trigger never emitted and no read of
 * the Overlap Window can list any more, and the state with them counted in `lateRows`. Call it
 * once the poll's reads are done (the check read before them): a row that poll emitted is not
 * late. Rows dated where the memory tells rows apart are judged by it; rows dated before that
 * (before the trigger's start, or older than the memory holds) are late when they appeared since
 * the last check (`baseline`) dated more than the Overlap Window before it. Each is told once:
 * remembered as long as the memory keeps it, and in the next check's baseline. A known row the
 * read lists under a later time than remembered (re-dated by a save written too late for any
 * poll) is remembered from that time on: the row was emitted, and never becomes a late row.
 * A known row listed with another status is a change of a row, never a late row: with Emit a Row
 * Again When Its Status Changes, one no poll lists any more (a dialer that keeps a ficha's date
 * and filters by it) is returned in `changes`, to emit, and remembered with that status; one a
 * poll still lists is left to it (the check read before the poll, so the poll saw it too).
 * `polled`: the state the poll started from, the memory as it was when the check read. A change
 * counts only against that memory, and only while the poll left that ficha's status as it was:
 * a ficha whose status the poll moved (it listed a newer save, after the check's read) is the
 * poll's, and the older status the check read is never emitted after it. Without it, `state`.
 */
export function findLateRows<T>(
	state: CursorState,
	rows: T[],
	identify: (row: T) => RowIdentity,
	settings: CursorSettings,
	read: ReadWindow,
	now: number,
	baseline?: CheckBaseline,
	polled?: CursorState,
): { state: CursorState; late: Array<FreshRow<T>>; changes: Array<FreshRow<T>> } {
	if (rows.length === 0) return { state, late: [], changes: [] };
	const identities = new Map(rows.map((row) => [row, identify(row)]));
	const identityOf = (row: T) => identities.get(row)!;
	const known = knownRows(state.known);
	const emitChanges = settings.emitStatusChanges ?? false;
	// What the trigger knew when the check read (before the poll's own reads).
	const knownAtRead = polled ? knownRows(polled.known) : known;
	const { fresh, relisted } = newRows(
		rows,
		identityOf,
		rememberedCounts(state.seen),
		known,
		emitChanges,
		read.from - COARSE_FILTER_MS,
	);
	const from = judgedFrom(state);
	const unlisted = unlistedBefore(state, settings);
	// Changes of known rows that no poll lists any more: emitted from here, once.
	const changes: Array<FreshRow<T>> = [];
	const judged: Array<FreshRow<T>> = [];
	const appeared: Array<FreshRow<T>> = [];
	// How many rows of each key the read lists, for the rows dated before `from`.
	const listed = new Map<string, number>();
	for (const { key } of identities.values()) {
		listed.set(key, (listed.get(key) ?? 0) + 1);
	}
	const taken = new Map<string, number>();
	for (const entry of fresh) {
		const { identity, key } = entry;
		if (identity.time === undefined) continue;
		const latest = identity.latest ?? identity.time;
		if (latest >= unlisted) continue;
		if (known.has(key)) {
			// Another status than the memory held when the check read, which the poll left as it
			// was. A status the poll moved is newer than the check's read: not a change to emit.
			if (knownAtRead.get(key)?.status === known.get(key)!.status) changes.push(entry);
			continue;
		}
		// A time that can name an instant from `from` on (the hour clocks go back) is judged.
		if (latest >= from) {
			judged.push(entry);
			continue;
		}
		// Written since the last check: too late when dated more than the Overlap Window before it.
		if (!baseline || identity.time < baseline.from || latest >= lateSince(baseline, settings)) {
			continue;
		}
		// More rows of this key than the last check read: that many appeared since.
		const since = (listed.get(key) ?? 0) - (baseline.counts.get(key) ?? 0);
		const count = taken.get(key) ?? 0;
		if (count >= since) continue;
		taken.set(key, count + 1);
		appeared.push(entry);
	}
	const late = [...judged, ...appeared];
	const lookedBack = { ...read, to: Math.min(read.to, now) };
	// A known row listed under a later time than remembered (a save the dialer re-dated, written
	// later than any poll reads): remembered from that time on, status as it was, so the memory
	// keeps it as long as the look back lists it, and it is never taken for a row not emitted.
	const moved = new Map<string, KnownRow>();
	for (const identity of relisted) {
		const before = known.get(identity.key)!;
		const { instant } = listedUnder(identity, lookedBack, before);
		if (instant > before.instant) moved.set(identity.key, { ...before, instant });
	}
	if (late.length === 0 && changes.length === 0 && moved.size === 0) {
		return { state, late, changes };
	}
	// All are remembered as long as the memory keeps them: a ficha among them the dialer re-dates
	// later is still not emitted.
	const added = rememberRows([...late, ...changes], lookedBack, known);
	for (const [key, row] of moved) added.known.set(key, row);
	const memory = updateMemory(state, added, listableFrom(state.cursor, settings), state.cursor);
	return {
		state: { ...state, ...memory, lateRows: state.lateRows + late.length },
		late,
		changes,
	};
}

/** A row as a warning names it: its key, or the fields that tell it apart, and its time. */
function rowName(row: IDataObject, rule: RowIdentityRule): string {
	const time = `${rule.timeField} ${canonicalValue(row[rule.timeField])}`;
	const key = rule.keyField === undefined ? '' : canonicalValue(row[rule.keyField]);
	if (key !== '') return `${rule.keyField} ${key} (${time})`;
	const fields = rule.identityFields
		.filter((field) => field !== rule.timeField)
		.map((field) => `${field} ${canonicalValue(row[field])}`);
	return `${time}, ${fields.join(', ')}`;
}

/** The warning naming the rows found too late, or none. */
export function lateWarnings(
	late: Array<FreshRow<IDataObject>>,
	rule: RowIdentityRule,
	settings: CursorSettings & { zone: string },
	now: number,
): string[] {
	if (late.length === 0) return [];
	const oldest = Math.min(...late.map(({ identity }) => identity.time!));
	const named = late.slice(0, NAMED_ROWS).map(({ row }) => rowName(row, rule));
	const more = late.length > NAMED_ROWS ? ` and ${late.length - NAMED_ROWS} more` : '';
	const rows = late.length === 1 ? '1 row' : `${late.length} rows`;
	return [
		`${rows} appeared later than the Overlap Window (${duration(settings.overlapMs)}) allows ` +
			`and will not be emitted: ${named.join('; ')}${more}. The oldest is dated ` +
			`${duration(now - oldest)} before now on the dialer's clock read in ${settings.zone}. ` +
			`The next new item counts them in ${LATE_ROWS_FIELD}. Widen Overlap Window beyond how ` +
			`late the dialer writes rows, or, if its clock or timezone is behind n8n's: ${FIX}`,
	];
}
