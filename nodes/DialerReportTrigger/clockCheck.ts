/**
 * A check that the dialer's clock agrees with n8n's, and the read that finds rows written too late.
 * Exactly once assumes a row carries its dialer-clock time within the Overlap Window of n8n's now.
 * A wrong Dialer Timezone, or a dialer clock that is off, breaks that silently: ahead, rows come
 * hours late; behind, every poll asks for the dialer's future and nothing ever comes (its rows
 * appear too late, which lateRows.ts reports). Each check reads the report once, from a day back
 * to a day ahead, before the poll's own reads; it warns of rows dated ahead of now and hands its
 * rows, with the rows the last check read (the baseline), to lateRows.ts. Nothing here reads a
 * clock or the network; the last check of each active trigger is kept here, in memory.
 */
import { DateTime } from 'luxon';

import { wallClockRange, type ReadWindow } from './cursor';

/** Zones are at most 26 hours apart (UTC-12 to UTC+14): a wrong zone cannot hide further. */
export const ZONE_GAP_MS = 26 * 3_600_000;
/** An active trigger checks at most this often; Fetch Test Event always. */
export const CHECK_INTERVAL_MS = 15 * 60_000;

/**
 * What the rows of a check's read were, for the next check to tell the rows that appeared since:
 * how many rows each key (RowIdentity.key) had, in the read from `from` on.
 */
export interface CheckBaseline {
	/** When that check read. */
	at: number;
	from: number;
	counts: Map<string, number>;
}

/** What one check leaves for the next, kept in memory for the activation. */
export interface ClockCheckMemory {
	/** When the check ran: the next is due CHECK_INTERVAL_MS later. */
	at: number;
	/** The rows of the last check whose rows were judged (or the first check's). */
	baseline?: CheckBaseline;
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

/** The read a check makes: from a day back (ZONE_GAP_MS) to a day ahead. */
export function checkWindow(now: number, zone: string): ReadWindow {
	return readingAhead(now - ZONE_GAP_MS, now, zone);
}

/** The baseline the rows of `read` make. */
export function baselineOf<T>(
	rows: T[],
	keyOf: (row: T) => string,
	read: ReadWindow,
	at: number,
): CheckBaseline {
	const counts = new Map<string, number>();
	for (const row of rows) {
		const key = keyOf(row);
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return { at, from: read.from, counts };
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
 * Warnings about the clock from the rows of one check: rows dated further ahead of now than the
 * Overlap Window. Rows that appeared dated before anything a poll still reads are lateRows.ts's.
 */
export function judgeClock(
	times: Array<number | undefined>,
	now: number,
	settings: ClockCheckSettings,
): string[] {
	return aheadWarnings(newestOf(times), now, settings);
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

/** What a check found. */
export interface ClockCheckOutcome<T> {
	warnings: string[];
	/** The rows the check read and the read, for lateRows.ts (none when no check was due). */
	rows: T[];
	read?: ReadWindow;
	/** The rows the last judged check read, to tell the rows that appeared since. */
	baseline?: CheckBaseline;
	/**
	 * Remembers the check once the poll is done: `judged`, the rows that appeared since the
	 * baseline were looked at (named and counted when late), so this check's rows are the next
	 * baseline. Unjudged, the baseline stays (a first one is taken all the same).
	 */
	commit(judged: boolean): void;
}

const nothing = { warnings: [], rows: [], commit: () => undefined };

/**
 * An active trigger's check, when due: on the first poll of an activation (which only takes the
 * baseline), then every CHECK_INTERVAL_MS. It reads before the poll's own reads, so any row it
 * reads that a poll can still list is listed by that poll too; a failing read never fails the
 * poll (n8n's log says so, and it is tried again at its next interval).
 */
export async function checkClock<T>(
	trigger: string,
	scope: string,
	now: number,
	settings: ClockCheckSettings,
	readRows: (read: ReadWindow) => Promise<T[]>,
	identify: (row: T) => { key: string; time: number | undefined },
): Promise<ClockCheckOutcome<T>> {
	const last = checks.get(trigger);
	const first = last?.scope !== scope;
	const { memory, failedAt } = first ? { memory: undefined, failedAt: undefined } : last;
	const lastTry = Math.max(memory?.at ?? -Infinity, failedAt ?? -Infinity);
	if (now - lastTry < CHECK_INTERVAL_MS) return nothing;
	const read = checkWindow(now, settings.zone);
	let rows: T[];
	try {
		rows = await readRows(read);
	} catch (error) {
		return {
			...nothing,
			warnings: [
				'Could not read the report back to look for rows written too late ' +
					`(${(error as Error).message}); trying again in ${CHECK_INTERVAL_MS / 60_000} minutes`,
			],
			commit: () => checks.set(trigger, { scope, memory, failedAt: now }),
		};
	}
	const identities = rows.map(identify);
	const warnings = judgeClock(
		identities.map(({ time }) => time),
		now,
		settings,
	);
	return {
		warnings,
		rows,
		read,
		baseline: memory?.baseline,
		commit: (judged) => {
			const baseline =
				judged || !memory?.baseline
					? baselineOf(identities, ({ key }) => key, read, now)
					: memory.baseline;
			checks.set(trigger, { scope, memory: { at: now, baseline } });
		},
	};
}
