/**
 * Exactly-once reading of a report that only answers "rows between de and ate".
 *
 * Each poll reads from the cursor minus the overlap window up to now and emits the rows whose
 * key it has not remembered. Rows written late (at most the overlap window after the time they
 * carry) fall inside a later read; the keys of emitted rows are remembered as long as a later read
 * can return them by their time, and a day after the latest time a read listed them under
 * (memory.ts), so a ficha the dialer lists again later is still not new. Nothing here reads a
 * clock or the network: the poll is handed `now` and a reader, and returns the rows to emit and
 * the next state, which the caller stores only when the whole poll succeeded.
 *
 * Times are epoch milliseconds; the dialer speaks wall-clock time in its timezone. Where that zone
 * moves its clocks back, an hour of wall-clock times happens twice and a row's written time can
 * name either instant: reads and remembered keys are widened by the zone's clock shift (zero in
 * zones without daylight saving time), and a row counts from the start on when its time can name
 * an instant from the start on, so no row is missed or repeated around the change. The same holds
 * for times without seconds (a whole minute) and dialers that read only the minutes of `de`.
 */
import { DateTime } from 'luxon';

import { toApiDateTime } from '../shared/dialerTime';
import {
	knownRows,
	rememberedCounts,
	updateMemory,
	type KnownRow,
	type Remembered,
	type RowMemory,
} from './memory';
import { newRows, type FreshRow, type RowIdentity } from './newRows';

export interface CursorState extends RowMemory {
	/** The event this state reads; another event starts over. */
	event: string;
	/** The Start From this state was made for (epoch ms), or null; a new Start From starts over. */
	startFrom: number | null;
	/** Rows with an earlier time are never emitted: the first activation, or the backfill date. */
	start: number;
	/**
	 * Rows with a time up to here have been read (rows written later than that are read on the next
	 * polls).
	 */
	cursor: number;
	/** Rows found too late to emit since the last emitted item told how many. */
	lateRows: number;
}

export interface CursorSettings {
	/** Workflow timezone, the one the dialer's wall-clock times are read in. */
	zone: string;
	/** How late a row may be written after the time it carries and still be emitted, in ms. */
	overlapMs: number;
	/** At most this many rows per poll; the rest on the next polls. */
	maxRows: number;
	/**
	 * A known row listed with another status is emitted again (Emit a Row Again When Its Status
	 * Changes).
	 */
	emitStatusChanges?: boolean;
}

/** One read of the report: instants, and the wall-clock range sent as de/ate. */
export interface ReadWindow {
	from: number;
	to: number;
	de: string;
	ate: string;
}

/** A catch-up after an outage reads at most this much time per request. */
export const MAX_WINDOW_MS = 3_600_000;
/** And at most this many requests per poll; the next polls go on. */
export const MAX_READS_PER_POLL = 24;

const wholeSecond = (epochMs: number) => Math.floor(epochMs / 1000) * 1000;

/**
 * How far the zone moves its clocks over the year around `at`, in ms: 1 h in most zones with
 * daylight saving time, 30 min on Lord Howe Island, 0 without.
 */
export function clockShiftMs(zone: string, at: number): number {
	const offsets: number[] = [];
	const first = DateTime.fromMillis(at, { zone }).startOf('month').minus({ months: 12 });
	for (let month = 0; month <= 24; month++) offsets.push(first.plus({ months: month }).offset);
	return (Math.max(...offsets) - Math.min(...offsets)) * 60_000;
}

/**
 * The wall-clock range that holds every instant from `from` to `to`. Where clocks go back inside
 * it, the wall clock of the later instants is earlier, so each end takes the offset that reaches
 * furthest.
 */
export function wallClockRange(
	from: number,
	to: number,
	zone: string,
): { de: string; ate: string } {
	const offsets = [from, to].map((instant) => DateTime.fromMillis(instant, { zone }).offset);
	const wall = (instant: number, offsetMinutes: number) =>
		toApiDateTime(DateTime.fromMillis(instant + offsetMinutes * 60_000, { zone: 'utc' }));
	return { de: wall(from, Math.min(...offsets)), ate: wall(to, Math.max(...offsets)) };
}

/**
 * How much earlier than `de` a dialer may return rows: one that compares only the minutes of `de`
 * (as getHC2's hh:mm echo of the range hints some do) returns the whole minute.
 */
export const COARSE_FILTER_MS = 60_000;

/** A first state: nothing read yet, rows from `start` on to be emitted. */
export function startState(event: string, startFrom: number | null, start: number): CursorState {
	return {
		event,
		startFrom,
		start: wholeSecond(start),
		cursor: wholeSecond(start),
		seen: {},
		known: {},
		forgottenBefore: wholeSecond(start),
		lateRows: 0,
	};
}

function isCursorState(value: unknown): value is CursorState {
	const state = value as CursorState;
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof state.event === 'string' &&
		(state.startFrom === null || Number.isFinite(state.startFrom)) &&
		Number.isFinite(state.start) &&
		Number.isFinite(state.cursor) &&
		Number.isFinite(state.forgottenBefore) &&
		Number.isInteger(state.lateRows) &&
		[state.seen, state.known].every(
			(groups) =>
				typeof groups === 'object' && groups !== null && Object.values(groups).every(Array.isArray),
		)
	);
}

/**
 * The state a poll goes on from. A new Start From starts over from it, and another event from
 * Start From or the Overlap Window before `now`; any other change (filters, Start From removed)
 * goes on where the trigger is, so no row is emitted again.
 */
export function resumeState(
	stored: unknown,
	event: string,
	startFrom: number | null,
	now: number,
	overlapMs: number,
): CursorState {
	if (!isCursorState(stored) || stored.event !== event) {
		return startState(event, startFrom, startFrom ?? now - overlapMs);
	}
	if (startFrom !== null && startFrom !== stored.startFrom) {
		return startState(event, startFrom, startFrom);
	}
	return { ...stored, startFrom };
}

/**
 * The next read, or undefined when the cursor is already at `now`'s second with nothing to re-read.
 */
export function planRead(
	state: CursorState,
	now: number,
	settings: CursorSettings,
): ReadWindow | undefined {
	// From a whole minute: rows alike in a minute a dialer writes without seconds are listed all
	// together or not at all, so counting them holds.
	const from =
		Math.floor(Math.max(state.start, state.cursor - settings.overlapMs) / 60_000) * 60_000;
	const to = Math.min(wholeSecond(now), state.cursor + MAX_WINDOW_MS);
	if (to < from) return undefined;
	return { from, to, ...wallClockRange(from, to, settings.zone) };
}

export interface ReadOutcome<T> {
	emit: T[];
	state: CursorState;
	/** Rows were left for the next poll because Max Rows per Poll was reached. */
	full: boolean;
}

/**
 * The rows of one read to emit, at most `room`, oldest first, and the state after them. The cursor
 * moves to the end of the read, or, when rows are left over, to just before the oldest of them.
 */
export function absorbRead<T>(
	state: CursorState,
	read: ReadWindow,
	rows: T[],
	identify: (row: T) => RowIdentity,
	room: number,
	settings: CursorSettings,
): ReadOutcome<T> {
	const shift = clockShiftMs(settings.zone, read.to);
	const known = knownRows(state.known);
	const { fresh, renamed, relisted } = newRows(
		rows,
		identify,
		rememberedCounts(state.seen),
		known,
		settings.emitStatusChanges ?? false,
		read.from - COARSE_FILTER_MS,
	);
	const ordered = fresh
		.map((entry) => ({ ...entry, ...placed(entry.identity, read) }))
		// A time that can name an instant from the start on may be from after it.
		.filter(({ latest }) => latest >= state.start)
		.sort((a, b) => a.time - b.time);
	const taken = ordered.slice(0, Math.max(0, room));
	const left = ordered[taken.length];
	const cursor = left
		? Math.max(state.cursor, Math.min(read.to, left.time - shift))
		: Math.max(state.cursor, read.to);

	const added = rememberRows(taken, read, known);
	for (const identity of relisted) {
		// Listed again with the same status, or with another one while changes are not emitted:
		// remembered from a later time, or with that status, when either moved.
		const before = known.get(identity.key)!;
		const after = listedUnder(identity, read, before);
		if (
			after.instant !== before.instant ||
			after.status !== before.status ||
			after.statusListedAt !== before.statusListedAt
		) {
			added.known.set(identity.key, after);
		}
	}
	for (const identity of renamed) {
		added.known.set(identity.key, listedUnder(identity, read, undefined));
		// A row now known by its key no longer counts as a keyless copy: a copy listed without a
		// key later is another row.
		added.forgottenCopies.push(identity.keylessKey!());
	}
	return {
		emit: taken.map(({ row }) => row),
		state: {
			...state,
			cursor,
			...updateMemory(state, added, listableFrom(cursor, settings), cursor),
		},
		full: left !== undefined,
	};
}

/**
 * Rows remembered from here on can still be listed by a later read, which starts at cursor -
 * overlap: with the clock shift, and a dialer that reads only the minutes of de, up to that much
 * earlier.
 */
export function listableFrom(cursor: number, settings: CursorSettings): number {
	return cursor - settings.overlapMs - clockShiftMs(settings.zone, cursor) - COARSE_FILTER_MS;
}

/**
 * Where a row of `read` lies. A row without a readable time is somewhere in this read: it is
 * placed at the read's start (a row left over by Max Rows per Poll is read again) and remembered
 * with its end (as long as any later read could return it).
 */
function placed(identity: RowIdentity, read: ReadWindow): { time: number; latest: number } {
	return {
		time: identity.time ?? read.from,
		latest: identity.time === undefined ? read.to : (identity.latest ?? identity.time),
	};
}

/**
 * How a row with a key is remembered once `read` listed it: by the latest time it was listed
 * under. A read that lists a row dated before the read (a dialer that filters by another time,
 * such as its last save) can list it again up to the read's end: remembered from there. Its status
 * is remembered with the time it was listed under, the latest that status was listed under.
 */
export function listedUnder(
	identity: RowIdentity,
	read: ReadWindow,
	before: KnownRow | undefined,
): KnownRow {
	const { time, latest } = placed(identity, read);
	const instant = time < read.from - COARSE_FILTER_MS ? Math.max(latest, read.to) : latest;
	const status = identity.status ?? '';
	const sameStatus = before?.status === status ? before.statusListedAt : undefined;
	return {
		instant: Math.max(instant, before?.instant ?? -Infinity),
		status,
		statusListedAt: Math.max(latest, sameStatus ?? -Infinity),
	};
}

/** What remembering rows emitted (or found too late to emit) from `read` adds to the memory. */
export function rememberRows<T>(
	rows: Array<FreshRow<T>>,
	read: ReadWindow,
	known: Map<string, KnownRow>,
): Remembered {
	const added: Remembered = { known: new Map(), copies: [], forgottenCopies: [] };
	for (const { key, identity } of rows) {
		if (identity.unique) added.known.set(key, listedUnder(identity, read, known.get(key)));
		else added.copies.push({ key, instant: placed(identity, read).latest });
	}
	return added;
}

/**
 * One poll: reads until caught up with `now`, Max Rows per Poll is reached or MAX_READS_PER_POLL
 * reads were made. A failing read rejects the whole poll, and the caller keeps the old state.
 */
export async function pollReport<T>(
	state: CursorState,
	now: number,
	settings: CursorSettings,
	readRows: (read: ReadWindow) => Promise<T[]>,
	identify: (row: T) => RowIdentity,
): Promise<{ emit: T[]; state: CursorState; full: boolean }> {
	let current = state;
	const emit: T[] = [];
	let full = false;
	for (let reads = 0; reads < MAX_READS_PER_POLL; reads++) {
		const read = planRead(current, now, settings);
		if (!read) break;
		const outcome = absorbRead(
			current,
			read,
			await readRows(read),
			identify,
			settings.maxRows - emit.length,
			settings,
		);
		for (const row of outcome.emit) emit.push(row);
		current = outcome.state;
		full = outcome.full;
		if (outcome.full || read.to >= wholeSecond(now)) break;
	}
	return { emit, state: current, full };
}
