/**
 * Exactly-once reading of a report that only answers "rows between de and ate".
 *
 * Each poll reads from the cursor minus the overlap window up to now and emits the rows whose
 * key it has not remembered. Rows written late (at most the overlap window after the time they
 * carry) fall inside a later read; the keys of emitted rows are remembered as long as a later read
 * can return them again, and no longer. Nothing here reads a clock or the network: the poll is
 * handed `now` and a reader, and returns the rows to emit and the next state, which the caller
 * stores only when the whole poll succeeded.
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
import { newRows, rememberedCounts, type RowIdentity } from './newRows';

export interface CursorState {
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
	/**
	 * Keys of the remembered emitted rows, by the latest instant their time can name (or the end of
	 * the read that returned them, when they carry none), in epoch ms. The rows of one second share
	 * an entry, so a poll copies and n8n stores one entry per second, not one per row. A key that is
	 * not `unique` is there once for each copy emitted.
	 */
	seen: Record<string, string[]>;
}

export interface CursorSettings {
	/** Workflow timezone, the one the dialer's wall-clock times are read in. */
	zone: string;
	/** How late a row may be written after the time it carries and still be emitted, in ms. */
	overlapMs: number;
	/** At most this many rows per poll; the rest on the next polls. */
	maxRows: number;
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
		typeof state.seen === 'object' &&
		state.seen !== null &&
		Object.values(state.seen).every(Array.isArray)
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

/** Forgets one remembered copy of each of `keys`, in one pass. */
function forgetCopies(seen: Record<string, string[]>, keys: string[]): void {
	const owed = new Map<string, number>();
	for (const key of keys) owed.set(key, (owed.get(key) ?? 0) + 1);
	for (const [instant, remembered] of Object.entries(seen)) {
		if (owed.size === 0) return;
		if (!remembered.some((key) => owed.has(key))) continue;
		seen[instant] = remembered.filter((key) => {
			const count = owed.get(key);
			if (count === undefined) return true;
			if (count === 1) owed.delete(key);
			else owed.set(key, count - 1);
			return false;
		});
	}
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
	// A row without a readable time is somewhere in this read: it is placed at the read's start (a
	// row left over by Max Rows per Poll is read again) and remembered with its end (as long as any
	// later read could return it).
	const place = (identity: RowIdentity) => ({
		time: identity.time ?? read.from,
		latest: identity.time === undefined ? read.to : (identity.latest ?? identity.time),
	});
	const { fresh, renamed } = newRows(rows, identify, rememberedCounts(state.seen));
	const ordered = fresh
		.map(({ key, row, identity }) => ({ key, row, ...place(identity) }))
		// A time that can name an instant from the start on may be from after it.
		.filter(({ latest }) => latest >= state.start)
		.sort((a, b) => a.time - b.time);
	const taken = ordered.slice(0, Math.max(0, room));
	const left = ordered[taken.length];
	const cursor = left
		? Math.max(state.cursor, Math.min(read.to, left.time - shift))
		: Math.max(state.cursor, read.to);

	// A later read starts at cursor - overlap; with the clock shift, and a dialer that reads only
	// the minutes of de, it can return rows up to that much earlier: keys of rows before that can
	// never come back.
	const forgetBefore = cursor - settings.overlapMs - shift - COARSE_FILTER_MS;
	const seen: Record<string, string[]> = {};
	for (const [instant, keys] of Object.entries(state.seen)) {
		if (Number(instant) >= forgetBefore) seen[instant] = keys;
	}
	// A row now known by its key no longer counts as a keyless copy: a copy listed without a key
	// later is another row.
	forgetCopies(
		seen,
		renamed.map(({ keylessKey }) => keylessKey!()),
	);
	const remember = [
		...taken,
		...renamed.map((identity) => ({ key: identity.key, ...place(identity) })),
	];
	const added = new Map<number, string[]>();
	for (const { key, latest } of remember) {
		const keys = added.get(latest);
		if (keys) keys.push(key);
		else added.set(latest, [key]);
	}
	for (const [latest, keys] of added) seen[latest] = (seen[latest] ?? []).concat(keys);
	return {
		emit: taken.map(({ row }) => row),
		state: { ...state, cursor, seen },
		full: left !== undefined,
	};
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
): Promise<{ emit: T[]; state: CursorState }> {
	let current = state;
	const emit: T[] = [];
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
		if (outcome.full || read.to >= wholeSecond(now)) break;
	}
	return { emit, state: current };
}
