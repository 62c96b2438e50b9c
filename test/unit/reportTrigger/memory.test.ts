/**
 * What the trigger remembers of the rows it emitted: keyed rows by the latest time they were
 * listed under, a day after it, and at most MAX_REMEMBERED rows, the oldest that no read of the
 * Overlap Window can list forgotten first.
 */
import {
	knownRows,
	MAX_REMEMBERED,
	REMEMBER_MS,
	updateMemory,
	type Remembered,
	type RowMemory,
} from '../../../nodes/DialerReportTrigger/memory';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 25, 12);

const nothing = (): Remembered => ({ known: new Map(), copies: [], forgottenCopies: [] });
const listed = (entries: Array<[string, number, string]>): Remembered => ({
	...nothing(),
	known: new Map(
		entries.map(([key, instant, status]) => [key, { instant, status, statusListedAt: instant }]),
	),
});

/** `count` fichas, one group per second from `from`, 100 a second. */
function fichas(count: number, from: number): RowMemory {
	const known: Record<string, string[]> = {};
	for (let index = 0; index < count; index++) {
		(known[from + Math.floor(index / 100) * 1000] ??= []).push(`ficha:${index}`, '');
	}
	return { seen: {}, known, forgottenBefore: from };
}

describe('a ficha remembered', () => {
	it('moves to the later time it is listed under, leaving the others of its second', () => {
		const memory = updateMemory(
			{ seen: {}, known: { [NOW - HOUR]: ['ficha:1', 'a', 'ficha:2', 'a'] }, forgottenBefore: 0 },
			listed([['ficha:1', NOW, 'b']]),
			NOW - HOUR,
			NOW,
		);
		expect(memory.known).toEqual({ [NOW - HOUR]: ['ficha:2', 'a'], [NOW]: ['ficha:1', 'b'] });
		expect(knownRows(memory.known).get('ficha:1')).toEqual({
			instant: NOW,
			status: 'b',
			statusListedAt: NOW,
		});
	});

	it('is kept a day after the time it was last listed under, then forgotten', () => {
		const start = { seen: {}, known: { [NOW]: ['ficha:1', ''] }, forgottenBefore: NOW };
		const later = (hours: number) =>
			updateMemory(start, nothing(), NOW + hours * HOUR - 10 * 60_000, NOW + hours * HOUR);
		expect(later(24).known).toEqual(start.known);
		const forgotten = later(25);
		expect(forgotten.known).toEqual({});
		expect(forgotten.forgottenBefore).toBe(NOW + 25 * HOUR - REMEMBER_MS);
	});

	it('is kept while a read of the Overlap Window can list it by its time, however long ago', () => {
		const start = { seen: {}, known: { [NOW]: ['ficha:1', ''] }, forgottenBefore: NOW };
		expect(updateMemory(start, nothing(), NOW, NOW + 30 * HOUR).known).toEqual(start.known);
	});

	it('leaves the memory it was given as it was (a failed poll keeps it)', () => {
		const start = {
			seen: { [NOW]: ['copy'] },
			known: { [NOW]: ['ficha:1', ''] },
			forgottenBefore: 0,
		};
		const before = JSON.stringify(start);
		updateMemory(
			start,
			{ ...listed([['ficha:2', NOW, '']]), copies: [{ key: 'copy', instant: NOW }] },
			0,
			NOW,
		);
		expect(JSON.stringify(start)).toBe(before);
	});
});

describe('the bound on memory', () => {
	it(`keeps at most ${MAX_REMEMBERED.toLocaleString('en-US')} fichas, forgetting the oldest`, () => {
		const memory = updateMemory(
			fichas(MAX_REMEMBERED, NOW - 2 * HOUR),
			listed([['ficha:new', NOW, '']]),
			NOW - 60_000,
			NOW,
		);
		const kept = knownRows(memory.known);
		// The first second's hundred went whole, and the memory says from when it is whole.
		expect(kept.size).toBe(MAX_REMEMBERED + 1 - 100);
		expect(kept.has('ficha:new')).toBe(true);
		expect(kept.has('ficha:0')).toBe(false);
		expect(kept.has('ficha:100')).toBe(true);
		expect(memory.forgottenBefore).toBe(NOW - 2 * HOUR + 1);
	});

	it('never forgets a ficha a read of the Overlap Window can still list, however many', () => {
		const memory = updateMemory(
			fichas(MAX_REMEMBERED + 500, NOW - 2 * HOUR),
			nothing(),
			NOW - 3 * HOUR,
			NOW,
		);
		expect(knownRows(memory.known).size).toBe(MAX_REMEMBERED + 500);
	});
});
