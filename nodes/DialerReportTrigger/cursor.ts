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
 * Times are epoch milliseconds; the dialer speaks wall-clock time in the workflow's timezone. Where
 * that zone moves its clocks back, an hour of wall-clock times happens twice and a row's written
 * time can name either instant: every bound below is widened by the zone's clock shift (zero in
 * zones without daylight saving time), so no row is missed or repeated around the change.
 */
import { DateTime } from 'luxon';

export interface CursorState {
	/** Which event and parameters this state belongs to; other settings start over. */
	scope: string;
	/** Rows with an earlier time are never emitted: the first activation, or the backfill date. */
	start: number;
	/**
	 * Rows with a time up to here have been read (rows written later than that are read on the next
	 * polls).
	 */
	cursor: number;
	/**
	 * Key of each remembered emitted row and the time it carries (or the end of the read that
	 * returned it, when it carries none).
	 */
	seen: Record<string, number>;
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

/** What the cursor needs to know about a row. */
export interface RowIdentity {
	key: string;
	/** Epoch ms of the time the row carries; undefined when it carries none that can be read. */
	time: number | undefined;
}

/** A catch-up after an outage reads at most this much time per request. */
export const MAX_WINDOW_MS = 3_600_000;
/** And at most this many requests per poll; the next polls go on. */
export const MAX_READS_PER_POLL = 24;

const API_FORMAT = 'yyyyMMddHHmmss';

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
		DateTime.fromMillis(instant + offsetMinutes * 60_000, { zone: 'utc' }).toFormat(API_FORMAT);
	return { de: wall(from, Math.min(...offsets)), ate: wall(to, Math.max(...offsets)) };
}

/** A first state: nothing read yet, rows from `start` on to be emitted. */
export function startState(scope: string, start: number): CursorState {
	return { scope, start: wholeSecond(start), cursor: wholeSecond(start), seen: {} };
}

/**
 * The next read, or undefined when the cursor is already at `now`'s second with nothing to re-read.
 */
export function planRead(
	state: CursorState,
	now: number,
	settings: CursorSettings,
): ReadWindow | undefined {
	const from = Math.max(state.start, state.cursor - settings.overlapMs);
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
	const fresh = new Map<string, { row: T; time: number }>();
	for (const row of rows) {
		const { key, time } = identify(row);
		if (Object.hasOwn(state.seen, key) || fresh.has(key)) continue;
		if (time !== undefined && time < state.start) continue;
		// A row without a readable time is somewhere in this read: remembering it with the read's
		// end keeps it at least as long as any later read could return it.
		fresh.set(key, { row, time: time ?? read.to });
	}
	const ordered = [...fresh.entries()].sort((a, b) => a[1].time - b[1].time);
	const taken = ordered.slice(0, Math.max(0, room));
	const left = ordered[taken.length];
	const cursor = left
		? Math.max(state.cursor, Math.min(read.to, left[1].time - shift))
		: Math.max(state.cursor, read.to);

	// A later read starts at cursor - overlap, and with the clock shift can return rows up to that
	// much earlier: keys of rows before that can never come back.
	const forgetBefore = cursor - settings.overlapMs - shift;
	const seen: Record<string, number> = {};
	for (const [key, time] of Object.entries(state.seen)) if (time >= forgetBefore) seen[key] = time;
	for (const [key, { time }] of taken) seen[key] = time;
	return {
		emit: taken.map(([, { row }]) => row),
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
