/**
 * Which rows of a read are new. Decided by counting, never by position, so the order a read lists
 * its rows in changes nothing (docs/report-trigger.md, "What one new row is").
 */
import type { KnownRow } from './memory';

/** What the trigger needs to know about a row. */
export interface RowIdentity {
	/** What the row is remembered by. */
	key: string;
	/**
	 * The key names one row for good (a ficha number, a call's protocol): however many times reads
	 * list it, it is one row. Otherwise rows with the same key are copies, each a row of its own.
	 */
	unique: boolean;
	/**
	 * For a row with a unique key, the key it has without it: a row emitted before it carried its
	 * protocol is not new when it comes with one. Asked only of rows whose key is new.
	 */
	keylessKey?: () => string;
	/**
	 * Epoch ms of the time the row carries, the earliest it can name; undefined when it carries none
	 * that can be read.
	 */
	time: number | undefined;
	/**
	 * The latest instant the time can name: later than `time` when it has no seconds, or lies in the
	 * hour that happens twice when clocks go back. `time` when not given.
	 */
	latest?: number;
	/** For a row with a unique key, a digest of its status ('' where the report has none). */
	status?: string;
}

/** A row of a read that is new, or a change to emit. */
export interface FreshRow<T> {
	key: string;
	row: T;
	identity: RowIdentity;
}

/**
 * Of the listings of one key in a read, the one it counts as: the one with the latest time (the
 * newest save, where the dialer dates a ficha by it); among those, one with the `remembered`
 * status, else the one whose status digest sorts last. Not the first: the order of a read changes
 * nothing, so a ficha listed twice in one read with two statuses is the same one every read. A
 * read tells not which of the listings under one time is newer (a dialer that lists a row per
 * save under the ficha's data), so one of them never reverts the status the trigger holds: a
 * look back, reading a day of saves, would otherwise bring an older status back.
 */
function latestListing<T>(
	listing: Array<{ row: T; identity: RowIdentity }>,
	remembered: string | undefined,
): { row: T; identity: RowIdentity } {
	const rank = (identity: RowIdentity): [number, boolean, string] => [
		identity.latest ?? identity.time ?? -Infinity,
		identity.status === remembered,
		identity.status ?? '',
	];
	let chosen = listing[0];
	let best = rank(chosen.identity);
	for (const entry of listing.slice(1)) {
		const [time, kept, status] = rank(entry.identity);
		if (
			time > best[0] ||
			(time === best[0] && (kept > best[1] || (kept === best[1] && status > best[2])))
		) {
			chosen = entry;
			best = [time, kept, status];
		}
	}
	return chosen;
}

/**
 * Whether a known row's listing is an older save than the one its remembered status came from: a
 * dialer that lists a row per save, each dated by it, lists the older saves too. Its time names
 * an instant before that save's, and it is not listed under that save's time (a dialer that keeps
 * a ficha's date lists each change under it), nor dated, whichever instant its time names,
 * before what the read asks for (a read lists such a row for a later save: a dialer that filters
 * by it). Where clocks go back, a time
 * of the hour that happens twice may name either instant: read as older, it never brings a status
 * back.
 */
function olderSave(identity: RowIdentity, remembered: KnownRow, asksFrom: number): boolean {
	const saved = remembered.statusListedAt;
	if (identity.time === undefined) return false;
	const latest = identity.latest ?? identity.time;
	return latest >= asksFrom && identity.time < saved && latest !== saved;
}

/**
 * The rows of one read that were never emitted, the rows now known by a key they did not have
 * before (to be remembered, not emitted) and the known rows listed again. Decided by counting, so
 * the order the read lists its rows in changes nothing: a key that is not unique is new as many
 * times as the read holds more copies of it than were emitted; a unique key is new once, unless
 * the row was emitted before it carried that key (a call listed without its protocol, then with
 * it). With `emitChanges`, a known row listed with another status than remembered is new too,
 * unless it is an older save. `asksFrom`: the earliest time the read can list a row under by its
 * own date.
 */
export function newRows<T>(
	rows: T[],
	identify: (row: T) => RowIdentity,
	copies: Map<string, number>,
	known: Map<string, KnownRow>,
	emitChanges: boolean,
	asksFrom: number,
): { fresh: Array<FreshRow<T>>; renamed: RowIdentity[]; relisted: RowIdentity[] } {
	const listed = new Map<string, Array<{ row: T; identity: RowIdentity }>>();
	for (const row of rows) {
		const identity = identify(row);
		const listing = listed.get(identity.key);
		if (listing) listing.push({ row, identity });
		else listed.set(identity.key, [{ row, identity }]);
	}
	const fresh: Array<FreshRow<T>> = [];
	const renamed: RowIdentity[] = [];
	const relisted: RowIdentity[] = [];
	// Rows listed with a key for the first time, by the key they have without it.
	const keyedNow = new Map<string, Array<{ row: T; identity: RowIdentity }>>();
	for (const [key, listing] of listed) {
		const first = listing[0].identity.unique
			? latestListing(listing, known.get(key)?.status)
			: listing[0];
		if (!first.identity.unique) {
			for (const copy of listing.slice(copies.get(key) ?? 0)) fresh.push({ key, ...copy });
			continue;
		}
		const remembered = known.get(key);
		if (remembered) {
			// An older save, listed beside or after the newer one: not a change, and nothing to move.
			if (olderSave(first.identity, remembered, asksFrom)) continue;
			if (emitChanges && remembered.status !== first.identity.status) fresh.push({ key, ...first });
			else relisted.push(first.identity);
			continue;
		}
		const keyless = first.identity.keylessKey?.() ?? key;
		const keyed = keyedNow.get(keyless);
		if (keyed) keyed.push(first);
		else keyedNow.set(keyless, [first]);
	}
	for (const [keyless, keyed] of keyedNow) {
		// Copies emitted without a key that this read no longer lists without one: as many of the
		// rows now listed with a key are those (which ones is all the same: they were alike), the
		// rest are new.
		let spare = (copies.get(keyless) ?? 0) - (listed.get(keyless)?.length ?? 0);
		for (const entry of keyed.sort((a, b) => (a.identity.key < b.identity.key ? -1 : 1))) {
			if (spare-- > 0) renamed.push(entry.identity);
			else fresh.push({ key: entry.identity.key, ...entry });
		}
	}
	return { fresh, renamed, relisted };
}
