/**
 * Emit a Row Again When Its Status Changes: each change of a ficha's status once, never lost and
 * never twice, whatever order a read lists rows in, and whenever the look back for late rows runs.
 */
import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import {
	pollReport,
	startState,
	type CursorSettings,
	type CursorState,
} from '../../../nodes/DialerReportTrigger/cursor';
import { rowIdentifier } from '../../../nodes/DialerReportTrigger/rowIdentity';
import { pollFilledForms } from '../support/filledFormPolls';
import { propertyRuns } from '../support/propertyRuns';
import { RULES } from '../support/reportRules';

const MINUTE = 60_000;
const zone = 'America/Sao_Paulo';
const settings: CursorSettings = {
	zone,
	overlapMs: 10 * MINUTE,
	maxRows: 1000,
	emitStatusChanges: true,
};
const start = DateTime.fromISO('2026-11-25T09:00:00', { zone }).toMillis();
const identify = rowIdentifier(RULES.getFP1, zone);
/** The node's options in the tests that poll it: each status change comes again. */
const statusChangeOptions = { overlapWindow: 10, emitStatusChanges: true };

/** What each poll emits, one a minute from 09:01, each read listing what `listing` says then. */
async function emitsEachMinute(
	minutes: number,
	listing: (minute: number) => IDataObject[],
): Promise<IDataObject[][]> {
	let state: CursorState = startState('getFP1', null, start);
	const emitted: IDataObject[][] = [];
	for (let minute = 1; minute <= minutes; minute++) {
		const result = await pollReport(
			state,
			start + minute * MINUTE,
			settings,
			async () => listing(minute),
			identify,
		);
		emitted.push(result.emit);
		state = JSON.parse(JSON.stringify(result.state)) as CursorState;
	}
	return emitted;
}

const pending = { ficha: '42', data: '25/11/2026 09:00:05', agente: 'ana', status: 'Pendente' };
const done = { ...pending, status: 'Finalizada' };

describe('a ficha listed twice in one read with two statuses', () => {
	it('counts as its latest listing: emitted once, not again poll after poll (found: once a poll)', async () => {
		const later = { ...done, data: '25/11/2026 09:00:40' };
		// Both listings in every read, in an order that flips from read to read.
		const emitted = await emitsEachMinute(20, (minute) =>
			minute % 2 ? [pending, later] : [later, pending],
		);
		expect(emitted.flat()).toEqual([later]);
	});

	it('listed under the same time, the one chosen is the same every read', async () => {
		const emitted = await emitsEachMinute(20, (minute) =>
			minute % 2 ? [pending, done] : [done, pending],
		);
		expect(emitted.flat()).toHaveLength(1);
	});

	it('in any orders, over generated reads, at most one emission per distinct listing set', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.boolean(), { minLength: 2, maxLength: 30 }),
				fc.boolean(),
				async (flips, sameTime) => {
					const other = sameTime ? done : { ...done, data: '25/11/2026 09:00:40' };
					const emitted = await emitsEachMinute(flips.length, (minute) =>
						flips[minute - 1] ? [pending, other] : [other, pending],
					);
					expect(emitted.flat()).toHaveLength(1);
				},
			),
			{ numRuns: propertyRuns(50) },
		);
	});
});

describe('a status change racing the look back for late rows', () => {
	let workflows = 0;
	afterAll(() => {
		Settings.now = () => Date.now();
	});

	/**
	 * A dialer that keeps a ficha's `data` (09:00:05) and filters de/ate by its last save, polled
	 * by the node once a minute from 09:01 for an hour (look back for late rows every 15 minutes).
	 * At each poll of `flips` the ficha is saved with the next status right after the poll's
	 * request number `after` (0 for its first), whichever request that is (after its last when it
	 * makes fewer). Returns the statuses
	 * emitted, and the warnings.
	 */
	async function statusesEmitted(flips: Map<number, number>) {
		const statuses = ['Pendente', 'Finalizada', 'Retornar'];
		let version = 0;
		let savedAt = start + 5_000;
		const staticData: IDataObject = {};
		const warnings: string[] = [];
		const emitted: string[] = [];
		const workflowId = `status-race-${++workflows}`;
		const digits = (time: number) => DateTime.fromMillis(time, { zone }).toFormat('yyyyMMddHHmmss');
		const save = (now: number) => {
			version += 1;
			savedAt = now - 1_000;
		};
		for (let minute = 1; minute <= 60; minute++) {
			const now = start + minute * MINUTE;
			let requests = 0;
			const items = await pollFilledForms(now, statusChangeOptions, {
				staticData,
				workflowId,
				timezone: zone,
				warnings,
				answer: (form) => {
					const listed = digits(savedAt) >= form.get('de')! && digits(savedAt) <= form.get('ate')!;
					const rows = listed ? [{ ...pending, status: statuses[version % 3] }] : [];
					if (flips.get(minute) === requests++) save(now);
					return { data: rows };
				},
			});
			// A poll with fewer requests: saved after its last.
			if (flips.has(minute) && requests <= flips.get(minute)!) save(now);
			for (const item of items) emitted.push(String(item.json.status));
		}
		const expected = Array.from({ length: flips.size + 1 }, (_, index) => statuses[index % 3]);
		return { emitted, expected, warnings };
	}

	it('a change saved between the poll read and the look back is emitted once (found: lost, reported as late)', async () => {
		// At 09:17 a look back (every 15 minutes): the save lands after the poll's read.
		const { emitted, expected, warnings } = await statusesEmitted(new Map([[17, 0]]));
		expect(emitted).toEqual(expected);
		expect(warnings).toEqual([]);
	});

	it.each([16, 31])(
		'a change saved right after the look back read at 09:%i is emitted once (found: the look back re-emitted the older status, then the poll the newer)',
		async (minute) => {
			// The look back (every 15 minutes from 09:01) reads the ficha as Pendente, then it is
			// saved Finalizada and the poll's own read lists that.
			const { emitted, expected, warnings } = await statusesEmitted(new Map([[minute, 0]]));
			expect(emitted).toEqual(expected);
			expect(warnings).toEqual([]);
		},
	);

	it('over generated saves, each change once, never reported as late', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.uniqueArray(fc.integer({ min: 2, max: 58 }), { maxLength: 6 }),
				fc.array(fc.nat({ max: 2 }), { minLength: 6, maxLength: 6 }),
				async (minutes, afters) => {
					// Two saves at least two polls apart: each is listed on its own.
					const spaced = [...minutes]
						.sort((a, b) => a - b)
						.filter((minute, index, all) => index === 0 || minute - all[index - 1] >= 2);
					const flips = new Map(spaced.map((minute, index) => [minute, afters[index]]));
					const { emitted, expected, warnings } = await statusesEmitted(flips);
					expect(emitted).toEqual(expected);
					expect(warnings).toEqual([]);
				},
			),
			{ numRuns: propertyRuns(25) },
		);
	});
});

describe('a status change no poll lists any more', () => {
	afterAll(() => {
		Settings.now = () => Date.now();
	});

	it('a dialer that keeps the ficha dated 09:00 and filters by that: the change at 09:40 comes once, from the look back (found: never)', async () => {
		const staticData: IDataObject = {};
		const digits = (time: number) => DateTime.fromMillis(time, { zone }).toFormat('yyyyMMddHHmmss');
		const emitted: Array<{ minute: number; status: unknown }> = [];
		for (let minute = 1; minute <= 90; minute++) {
			const now = start + minute * MINUTE;
			const items = await pollFilledForms(now, statusChangeOptions, {
				staticData,
				workflowId: 'fixed-dialer-change',
				timezone: zone,
				answer: (form) => ({
					data:
						digits(start + 5_000) >= form.get('de')! && digits(start + 5_000) <= form.get('ate')!
							? [minute < 40 ? pending : done]
							: [],
				}),
			});
			for (const item of items) emitted.push({ minute, status: item.json.status });
		}
		expect(emitted.map(({ status }) => status)).toEqual(['Pendente', 'Finalizada']);
		// The look back runs every 15 minutes.
		expect(emitted[1].minute).toBeGreaterThanOrEqual(40);
		expect(emitted[1].minute).toBeLessThan(40 + 15);
	});
});

describe('a dialer that lists one row per save, filtered by the save', () => {
	let workflows = 0;
	afterAll(() => {
		Settings.now = () => Date.now();
	});

	/**
	 * Polls once a minute from 09:01 to 10:30 (look back every 15 minutes) a dialer that keeps
	 * every save of ficha 42 as a row of its own, each with the ficha's data (09:00:05) and that
	 * save's status, and filters de/ate by the save's time. Returns the statuses emitted.
	 */
	async function emittedStatuses(saves: Array<{ at: number; status: string }>) {
		const staticData: IDataObject = {};
		const warnings: string[] = [];
		const emitted: string[] = [];
		const workflowId = `row-per-save-${++workflows}`;
		const digits = (time: number) => DateTime.fromMillis(time, { zone }).toFormat('yyyyMMddHHmmss');
		for (let minute = 1; minute <= 90; minute++) {
			const now = start + minute * MINUTE;
			const items = await pollFilledForms(now, statusChangeOptions, {
				staticData,
				workflowId,
				timezone: zone,
				warnings,
				answer: (form) => ({
					data: saves
						.filter(({ at }) => at <= now)
						.filter(({ at }) => digits(at) >= form.get('de')! && digits(at) <= form.get('ate')!)
						.map(({ status }) => ({ ...pending, status })),
				}),
			});
			for (const item of items) emitted.push(String(item.json.status));
		}
		return { emitted, warnings };
	}

	it.each([
		['Pendente', 'Finalizada', 'Retornar'],
		['Retornar', 'Pendente', 'Finalizada'],
		['Finalizada', 'Retornar', 'Pendente'],
		['Pendente', 'Retornar', 'Finalizada'],
	])(
		'New Filled Form with Emit Status Changes: saved %s, %s, %s, each change comes once and the ficha ends on the last (found: the look back brought an older status back, the poll the newer again, ending on the older)',
		async (...statuses) => {
			const { emitted, warnings } = await emittedStatuses(
				statuses.map((status, index) => ({
					at: index === 0 ? start + 5_000 : start + (20 * index - 1) * MINUTE + 30_000,
					status,
				})),
			);
			expect(emitted).toEqual(statuses);
			expect(warnings).toEqual([]);
		},
	);
});

describe('a dialer that lists one row per save, each dated by its save', () => {
	afterAll(() => {
		Settings.now = () => Date.now();
	});

	/**
	 * Polls once a minute from `from` for `minutes` a dialer in `dialerZone` that lists every save
	 * of ficha 1001 as a row of its own, dated by the save and with its status, and filters de/ate
	 * by that date. Returns the statuses emitted.
	 */
	async function emittedStatuses(
		dialerZone: string,
		from: number,
		minutes: number,
		saves: Array<{ at: number; status: string }>,
	) {
		const staticData: IDataObject = {};
		const warnings: string[] = [];
		const emitted: string[] = [];
		const wall = (time: number) => DateTime.fromMillis(time, { zone: dialerZone });
		for (let minute = 0; minute <= minutes; minute++) {
			const now = from + minute * MINUTE;
			const items = await pollFilledForms(now, statusChangeOptions, {
				staticData,
				timezone: dialerZone,
				warnings,
				answer: (form) => ({
					data: saves
						.filter(({ at }) => at <= now)
						.filter(({ at }) => {
							const digits = wall(at).toFormat('yyyyMMddHHmmss');
							return digits >= form.get('de')! && digits <= form.get('ate')!;
						})
						.map(({ at, status }) => ({
							ficha: '1001',
							data: wall(at).toFormat('dd/MM/yyyy HH:mm:ss'),
							agente: 'ana',
							status,
						})),
				}),
			});
			for (const item of items) emitted.push(String(item.json.status));
		}
		return { emitted, warnings };
	}

	it('in Sydney as clocks go back, a ficha saved before the start and again right after never comes back with the older status (found: Finalizada, then Pendente)', async () => {
		// Clocks go back from 03:00 to 02:00 at 16:00 UTC; the trigger starts at 02:02, the second
		// time.
		const from = Date.UTC(2026, 3, 4, 16, 12);
		// Saved Pendente at 02:40 before the change, Finalizada at 02:10 after it: the older save's
		// time reads later on the wall clock.
		const { emitted, warnings } = await emittedStatuses('Australia/Sydney', from, 90, [
			{ at: Date.UTC(2026, 3, 4, 15, 40), status: 'Pendente' },
			{ at: Date.UTC(2026, 3, 4, 16, 10), status: 'Finalizada' },
		]);
		expect(emitted).toEqual(['Finalizada']);
		expect(warnings).toEqual([]);
	});
});
