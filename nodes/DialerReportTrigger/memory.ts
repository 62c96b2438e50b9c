/**
 * What the trigger remembers of the rows it emitted (or found too late to emit), and for how long.
 *
 * A row with a key of its own (a ficha number, a call's protocol) is remembered by the latest time
 * it was listed under: a ficha the dialer re-dates when it is saved again moves to its new time,
 * and one a read lists although it is dated before that read (a dialer that filters by the last
 * save) is remembered from the end of that read. With it the trigger keeps a digest of the row's
 * status, so it can tell a change. Rows without a key are copies, counted by their time (which is
 * part of what tells them apart, so it never moves).
 *
 * Every remembered row stays REMEMBER_MS after the time it is remembered by, and always while a
 * read of the Overlap Window can list it by its time. At most MAX_REMEMBERED rows are kept (more
 * only when the Overlap Window holds more), the oldest forgotten first; `forgottenBefore` says
 * from when on the memory is whole (every row dated from then on that was emitted is still
 * remembered).
 */

/** Rows are remembered this long after the time they were last listed under. */
export const REMEMBER_MS = 24 * 3_600_000;
/** At most this many rows are remembered, unless a read of the Overlap Window can list more. */
export const MAX_REMEMBERED = 100_000;

export interface RowMemory {
	/**
	 * Keys of the remembered copies (rows without a key of their own), by the latest instant their
	 * time can name (or the end of the read that returned them, when they carry none), in epoch ms.
	 * The rows of one second share an entry, so n8n stores one entry per second, not one per row. A
	 * key is there once for each copy.
	 */
	seen: Record<string, string[]>;
	/**
	 * Rows with a key of their own, by the latest instant they were listed under (epoch ms): for
	 * each, its key followed by the digest of its status ('' where the report has none) and, when
	 * the listing that status came from is dated before that instant, an '@' and how many seconds
	 * before.
	 */
	known: Record<string, string[]>;
	/** Rows dated from here on that were emitted are all remembered (epoch ms). */
	forgottenBefore: number;
}

/** A row with a key of its own, as remembered. */
export interface KnownRow {
	/** The latest instant it was listed under. */
	instant: number;
	/** Digest of its status when last emitted or listed. */
	status: string;
	/**
	 * The latest instant the time of the listing that status came from can name: a listing under
	 * an earlier time is an older save.
	 */
	statusListedAt: number;
}

/** A known row's status entry in the memory: see `RowMemory.known`. */
function statusEntry({ instant, status, statusListedAt }: KnownRow): string {
	const seconds = (instant - statusListedAt) / 1000;
	return seconds === 0 ? status : `${status}@${seconds}`;
}

function knownRow(instant: number, entry: string): KnownRow {
	const at = entry.lastIndexOf('@');
	if (at < 0) return { instant, status: entry, statusListedAt: instant };
	return {
		instant,
		status: entry.slice(0, at),
		statusListedAt: instant - Number(entry.slice(at + 1)) * 1000,
	};
}

/** What a read adds to the memory. */
export interface Remembered {
	/** Rows with a key of their own, by key: new ones, and known ones listed again. */
	known: Map<string, KnownRow>;
	/** Copies, one entry per copy, by the instant they are remembered by. */
	copies: Array<{ key: string; instant: number }>;
	/** Copies no longer counted as such: each now known by a key of its own. */
	forgottenCopies: string[];
}

/** The rows with a key of their own the memory holds. */
export function knownRows(known: Record<string, string[]>): Map<string, KnownRow> {
	const rows = new Map<string, KnownRow>();
	for (const [instant, entries] of Object.entries(known)) {
		for (let index = 0; index < entries.length; index += 2) {
			rows.set(entries[index], knownRow(Number(instant), entries[index + 1]));
		}
	}
	return rows;
}

/** How many times each copy is remembered. */
export function rememberedCounts(seen: Record<string, string[]>): Map<string, number> {
	const counts = new Map<string, number>();
	for (const keys of Object.values(seen)) {
		for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
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
 * The memory with `added` in it and what it may forget forgotten. `listable`: rows remembered from
 * here on can still be listed by a read of the Overlap Window, so they are always kept; `cursor`:
 * where the reads have reached, which REMEMBER_MS counts back from.
 */
export function updateMemory(
	memory: RowMemory,
	added: Remembered,
	listable: number,
	cursor: number,
): RowMemory {
	const keepFrom = Math.min(listable, cursor - REMEMBER_MS);
	const seen: Record<string, string[]> = {};
	for (const [instant, keys] of Object.entries(memory.seen)) {
		if (Number(instant) >= keepFrom) seen[instant] = keys;
	}
	forgetCopies(seen, added.forgottenCopies);
	// The arrays of the memory handed in stay as they are: a poll that fails keeps that memory.
	const copies = new Map<number, string[]>();
	for (const { key, instant } of added.copies)
		(copies.get(instant) ?? put(copies, instant)).push(key);
	for (const [instant, keys] of copies) seen[instant] = (seen[instant] ?? []).concat(keys);

	const known: Record<string, string[]> = {};
	for (const [instant, entries] of Object.entries(memory.known)) {
		if (Number(instant) < keepFrom) continue;
		let moved = false;
		for (let index = 0; index < entries.length && !moved; index += 2) {
			moved = added.known.has(entries[index]);
		}
		if (!moved) {
			known[instant] = entries;
			continue;
		}
		const kept = entries.filter((_, index) => !added.known.has(entries[index - (index % 2)]));
		if (kept.length > 0) known[instant] = kept;
	}
	const listed = new Map<number, string[]>();
	for (const [key, row] of added.known) {
		(listed.get(row.instant) ?? put(listed, row.instant)).push(key, statusEntry(row));
	}
	for (const [instant, entries] of listed) known[instant] = (known[instant] ?? []).concat(entries);
	const forgottenBefore = Math.max(memory.forgottenBefore, keepFrom);
	return capped({ seen, known, forgottenBefore }, listable);
}

function put(groups: Map<number, string[]>, instant: number): string[] {
	const entries: string[] = [];
	groups.set(instant, entries);
	return entries;
}

/** Beyond MAX_REMEMBERED rows, the oldest that no read of the Overlap Window can list go. */
function capped(memory: RowMemory, listable: number): RowMemory {
	let count = 0;
	for (const keys of Object.values(memory.seen)) count += keys.length;
	for (const entries of Object.values(memory.known)) count += entries.length / 2;
	if (count <= MAX_REMEMBERED) return memory;
	const instants = [...new Set([...Object.keys(memory.seen), ...Object.keys(memory.known)])]
		.map(Number)
		.filter((instant) => instant < listable)
		.sort((a, b) => a - b);
	let { forgottenBefore } = memory;
	for (const instant of instants) {
		if (count <= MAX_REMEMBERED) break;
		count -= (memory.seen[instant]?.length ?? 0) + (memory.known[instant]?.length ?? 0) / 2;
		delete memory.seen[instant];
		delete memory.known[instant];
		forgottenBefore = Math.max(forgottenBefore, instant + 1);
	}
	return { ...memory, forgottenBefore };
}
