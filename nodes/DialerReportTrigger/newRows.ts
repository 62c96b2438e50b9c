/**
 * Which rows of a read are new. Decided by counting, never by position, so the order a read lists
 * its rows in changes nothing (docs/report-trigger.md, "What one new row is").
 */

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
}

/** How many times each key is remembered. */
export function rememberedCounts(seen: Record<string, string[]>): Map<string, number> {
	const counts = new Map<string, number>();
	for (const keys of Object.values(seen)) {
		for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
}

/**
 * The rows of one read that were never emitted, and the rows now known by a key they did not
 * have before (to be remembered, not emitted). Decided by counting, so the order the read lists
 * its rows in changes nothing: a key that is not unique is new as many times as the read holds
 * more copies of it than were emitted; a unique key is new once, unless the row was emitted
 * before it carried that key (a call listed without its protocol, then with it).
 */
export function newRows<T>(
	rows: T[],
	identify: (row: T) => RowIdentity,
	remembered: Map<string, number>,
): { fresh: Array<{ key: string; row: T; identity: RowIdentity }>; renamed: RowIdentity[] } {
	const listed = new Map<string, Array<{ row: T; identity: RowIdentity }>>();
	for (const row of rows) {
		const identity = identify(row);
		const copies = listed.get(identity.key);
		if (copies) copies.push({ row, identity });
		else listed.set(identity.key, [{ row, identity }]);
	}
	const fresh: Array<{ key: string; row: T; identity: RowIdentity }> = [];
	const renamed: RowIdentity[] = [];
	for (const [key, copies] of listed) {
		if (copies[0].identity.unique) continue;
		for (const copy of copies.slice(remembered.get(key) ?? 0)) fresh.push({ key, ...copy });
	}
	// Rows listed with a key for the first time, by the key they have without it.
	const keyedNow = new Map<string, Array<{ row: T; identity: RowIdentity }>>();
	for (const [key, [first]] of listed) {
		if (!first.identity.unique || remembered.has(key)) continue;
		const keyless = first.identity.keylessKey?.() ?? key;
		const keyed = keyedNow.get(keyless);
		if (keyed) keyed.push(first);
		else keyedNow.set(keyless, [first]);
	}
	for (const [keyless, keyed] of keyedNow) {
		// Copies emitted without a key that this read no longer lists without one: as many of the
		// rows now listed with a key are those (which ones is all the same: they were alike), the
		// rest are new.
		let spare = (remembered.get(keyless) ?? 0) - (listed.get(keyless)?.length ?? 0);
		for (const entry of keyed.sort((a, b) => (a.identity.key < b.identity.key ? -1 : 1))) {
			if (spare-- > 0) renamed.push(entry.identity);
			else fresh.push({ key: entry.identity.key, ...entry });
		}
	}
	return { fresh, renamed };
}
