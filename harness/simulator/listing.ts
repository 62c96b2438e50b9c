/**
 * How the four reports list their rows where the contract leaves it open: in the order the rows
 * were written, or shuffled anew for every answer; and whether the dialer writes a row when it
 * happens or up to a bound later (a row whose time is T shows from T + its delay on).
 */
import { Random } from './random';

export type RowOrder = 'written' | 'shuffled';
/**
 * What saving a ficha again (its status changed) does: nothing to its `data`, which getFP1's
 * `de`/`ate` filter by (`fixed`); moves `data` to the save (`redated`); or keeps `data` while
 * `de`/`ate` filter by the last save (`filteredBySave`).
 */
export type FichaSaves = 'fixed' | 'redated' | 'filteredBySave';
const fichaSavesValues: FichaSaves[] = ['fixed', 'redated', 'filteredBySave'];
export type ReportName = 'getFP1' | 'getRQ4' | 'getHC2' | 'getRE2';

/** Keeps a ficha and a call with the same number from being written late by the same amount. */
const reportCodes: Record<ReportName, number> = { getFP1: 1, getRQ4: 2, getHC2: 3, getRE2: 4 };

/** A number in [0, 1) fixed by the values: a row's delay is the same in every read. */
function fraction(...values: number[]): number {
	let hash = 0x9e3779b9;
	for (const value of values) {
		hash = Math.imul(hash ^ value, 0x85ebca6b);
		hash ^= hash >>> 13;
		hash = Math.imul(hash, 0xc2b2ae35);
		hash ^= hash >>> 16;
	}
	return (hash >>> 0) / 4294967296;
}

export class ReportListing {
	private readonly random: Random;

	constructor(
		readonly order: RowOrder,
		/** Rows are written from 0 to this many milliseconds after the time they carry. */
		readonly lateWritesMs: number,
		private readonly seed: number,
		readonly fichaSaves: FichaSaves = 'fixed',
	) {
		if (order !== 'written' && order !== 'shuffled')
			throw new Error(`rowOrder must be written or shuffled, not ${String(order)}`);
		if (!Number.isInteger(lateWritesMs) || lateWritesMs < 0 || lateWritesMs > 86_400_000)
			throw new Error('lateWritesMs must be a whole number from 0 to 86400000');
		if (!fichaSavesValues.includes(fichaSaves))
			throw new Error(`fichaSaves must be one of ${fichaSavesValues.join(', ')}`);
		this.random = new Random(seed ^ 0x0bde);
	}

	/** The rows in the order this answer lists them (shuffled in place). */
	list<T>(rows: T[]): T[] {
		if (this.order === 'written') return rows;
		for (let index = rows.length - 1; index > 0; index--) {
			const other = this.random.int(0, index);
			[rows[index], rows[other]] = [rows[other], rows[index]];
		}
		return rows;
	}

	/**
	 * From when reports show a row: not before `visibleFrom` (a row a test added to be written
	 * later), nor before the dialer wrote it. `part` tells apart rows of one record (a call's
	 * later classifications).
	 */
	shownFrom(
		report: ReportName,
		id: number,
		time: number,
		visibleFrom: number | undefined,
		part = 0,
	): number {
		const from = visibleFrom ?? -Infinity;
		if (this.lateWritesMs === 0) return from;
		const delay = fraction(this.seed, reportCodes[report], id, part) * (this.lateWritesMs + 1);
		return Math.max(from, time + Math.floor(delay));
	}

	shows(
		report: ReportName,
		id: number,
		time: number,
		visibleFrom: number | undefined,
		now: number,
		part = 0,
	): boolean {
		return this.shownFrom(report, id, time, visibleFrom, part) <= now;
	}
}
