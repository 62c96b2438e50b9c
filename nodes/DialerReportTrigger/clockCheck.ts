/**
 * A check that the dialer's clock agrees with n8n's. Exactly once assumes a row carries its
 * dialer-clock time within the Overlap Window of n8n's now. A wrong Dialer Timezone, or a dialer
 * clock that is off, breaks that silently: ahead, rows come hours late; behind, every poll asks for
 * the dialer's future and nothing ever comes. Each check reads the report once, from where the
 * trigger's memory of emitted rows is whole (or the newest row the last check saw, when older; a
 * day back the first time) to a day ahead, and compares row times with now; the rows it read go
 * to lateRows.ts, which tells the rows the trigger will never emit from those it emitted. Nothing
 * here reads a clock or the network; the last check of each active trigger is kept here, in
 * memory.
 */
import { DateTime } from 'luxon';

import { wallClockRange, type ReadWindow } from './cursor';

/** Zones are at most 26 hours apart (UTC-12 to UTC+14): a wrong zone cannot hide further. */
export const ZONE_GAP_MS = 26 * 3_600_000;
/** An active trigger checks at most this often; Fetch Test Event always. */
export const CHECK_INTERVAL_MS = 15 * 60_000;

/** What one check leaves for the next, kept in memory for the activation. */
export interface ClockCheckMemory {
	/** When the check ran: the next is due CHECK_INTERVAL_MS later. */
	at: number;
	/** Rows dated after this, unseen so far, are new to the next check. */
	newest: number;
	/** Rows dated before this were no longer read by any later poll. */
	readFrom: number;
}

export interface ClockCheckSettings {
	zone: string;
	overlapMs: number;
}

/** A read from `from` to a day ahead of now, where only a dialer clock ahead of n8n's puts rows. */
export function readingAhead(from: number, now: number, zone: string): ReadWindow {
	const to = now + ZONE_GAP_MS;
	return { from, to, ...wallClockRange(from, to, zone) };
}

/**
 * The read a check makes: from the newest row the last one saw, or a day back, and from
 * `judgedFrom` (where the trigger's memory can tell rows it emitted) when that is earlier.
 */
export function checkWindow(
	memory: ClockCheckMemory | undefined,
	judgedFrom: number,
	now: number,
	zone: string,
): ReadWindow {
	const from = Math.min(memory?.newest ?? -Infinity, judgedFrom);
	return readingAhead(Math.max(from, now - ZONE_GAP_MS), now, zone);
}

function newestOf(times: Array<number | undefined>): number | undefined {
	let newest: number | undefined;
	for (const time of times) {
		if (time !== undefined && (newest === undefined || time > newest)) newest = time;
	}
	return newest;
}

/**
 * How far the zone's clocks move within two hours around `at`. A wall-clock time of the hour that
 * comes twice where they go back is read as one of its two instants: up to this much off.
 */
function shiftNear(at: number, zone: string): number {
	const offsets = [at - 3_600_000, at, at + 3_600_000].map(
		(instant) => DateTime.fromMillis(instant, { zone }).offset,
	);
	return (Math.max(...offsets) - Math.min(...offsets)) * 60_000;
}

export function duration(ms: number): string {
	const minutes = Math.round(ms / 60_000);
	return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const FIX =
	"Set the Dialer API credential's Dialer Timezone to the dialer server's zone, or have the " +
	"dialer's clock corrected.";

/**
 * Warnings about the rows of one check, and what the next check needs. Rows dated from
 * `judgedFrom` on are left to the trigger's memory (lateRows.ts), which tells them one by one.
 */
export function judgeClock(
	times: Array<number | undefined>,
	window: ReadWindow,
	memory: ClockCheckMemory | undefined,
	judgedFrom: number,
	now: number,
	settings: ClockCheckSettings,
): { warnings: string[]; seen: { at: number; newest: number } } {
	const { zone } = settings;
	const newest = newestOf(times);
	const warnings = aheadWarnings(newest, now, settings);
	if (memory) {
		const late = times.filter(
			(time): time is number =>
				time !== undefined && time > memory.newest && time < Math.min(memory.readFrom, judgedFrom),
		);
		if (late.length > 0) {
			const oldest = late.reduce((a, b) => Math.min(a, b));
			warnings.push(
				`${late.length} ${late.length === 1 ? 'row' : 'rows'} appeared dated up to ` +
					`${duration(now - oldest)} ` +
					`before now on the dialer's clock read in ${zone}, earlier than any poll still ` +
					`reads: they are not emitted. The dialer's clock or timezone is behind n8n's, or ` +
					`it writes rows later than the Overlap Window. ${FIX} Or widen Overlap Window.`,
			);
		}
	}
	// Rows dated ahead of now are new to no one: the next check starts at now at the latest.
	return { warnings, seen: { at: now, newest: Math.min(Math.max(newest ?? 0, window.from), now) } };
}

/** The memory a check leaves once the poll it ran in has moved its cursor to `cursor`. */
export function rememberCheck(
	seen: { at: number; newest: number },
	cursor: number,
	settings: ClockCheckSettings,
): ClockCheckMemory {
	// The next reads start an Overlap Window before the cursor.
	const from = cursor - settings.overlapMs;
	return { ...seen, readFrom: from - shiftNear(from, settings.zone) };
}

function aheadWarnings(
	newest: number | undefined,
	now: number,
	settings: ClockCheckSettings,
): string[] {
	const tolerance = settings.overlapMs + shiftNear(now, settings.zone);
	if (newest === undefined || newest <= now + tolerance) return [];
	return [
		`Rows are dated up to ${duration(newest - now)} ahead of now on the dialer's clock read ` +
			`in ${settings.zone}: they reach the workflow that much late. ${FIX}`,
	];
}

/**
 * Fetch Test Event's warnings: rows dated ahead of now, or, when none were dated in the last
 * `recentMs`, a hint naming how old the newest is (the report may just be quiet).
 */
export function testEventWarnings(
	times: Array<number | undefined>,
	now: number,
	settings: ClockCheckSettings,
	recentMs: number,
): string[] {
	const newest = newestOf(times);
	if (newest === undefined || newest >= now - recentMs) return aheadWarnings(newest, now, settings);
	return [
		`The newest row is dated ${duration(now - newest)} before now on the dialer's clock read ` +
			`in ${settings.zone}. If the dialer wrote rows since, its clock or timezone is behind ` +
			`n8n's and an active trigger reads none of them. ${FIX}`,
	];
}

// Each trigger's last check and the scope (event and parameters) it read, by workflow and node:
// in memory, for as long as this n8n process runs. Not by the static data object: n8n's poll
// scheduler and durable cursors hand every poll a new one.
const checks = new Map<string, { scope: string; memory?: ClockCheckMemory; failedAt?: number }>();

/** What a check found, once the poll it ran in has moved its cursor. */
export interface ClockCheckOutcome<T> {
	warnings: string[];
	/** The rows the check read and the read, for lateRows.ts (none when no check was due). */
	rows: T[];
	read?: ReadWindow;
}

/**
 * An active trigger's check, when due: from the second poll of an activation on (the first, often
 * a backfill, keeps its own time), then every CHECK_INTERVAL_MS. It reads before the poll, so a
 * failing read fails the poll cleanly. Returns what to call once the poll has moved its cursor
 * (nothing is remembered otherwise): the warnings to log and the rows read.
 */
export async function checkClock<T>(
	trigger: string,
	scope: string,
	now: number,
	judgedFrom: number,
	settings: ClockCheckSettings,
	readRows: (read: ReadWindow) => Promise<T[]>,
	timeOf: (row: T) => number | undefined,
): Promise<(cursor: number) => ClockCheckOutcome<T>> {
	const last = checks.get(trigger);
	if (last?.scope !== scope) {
		return () => {
			checks.set(trigger, { scope });
			return { warnings: [], rows: [] };
		};
	}
	const { memory, failedAt } = last;
	const lastTry = Math.max(memory?.at ?? -Infinity, failedAt ?? -Infinity);
	if (now - lastTry < CHECK_INTERVAL_MS) return () => ({ warnings: [], rows: [] });
	const read = checkWindow(memory, judgedFrom, now, settings.zone);
	let rows: T[];
	try {
		rows = await readRows(read);
	} catch (error) {
		// The check never fails the poll it runs in: it is tried again at its next interval.
		return () => {
			checks.set(trigger, { scope, memory, failedAt: now });
			return {
				warnings: [
					'Could not read the report back to look for rows written too late ' +
						`(${(error as Error).message}); trying again in ${CHECK_INTERVAL_MS / 60_000} minutes`,
				],
				rows: [],
			};
		};
	}
	const times = rows.map(timeOf);
	const { warnings, seen } = judgeClock(times, read, memory, judgedFrom, now, settings);
	return (cursor) => {
		checks.set(trigger, { scope, memory: rememberCheck(seen, cursor, settings) });
		return { warnings, rows, read };
	};
}
