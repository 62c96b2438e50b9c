/**
 * The report trigger's exactly-once reading, against a simulated dialer that compares wall-clock
 * times as text, with rows arriving late, outages, failed polls, restarts and clock changes, rows
 * equal in every field, times without seconds and a filter that reads only the minutes of `de`.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import * as callHistory from '../../../nodes/shared/reports/callHistory';
import {
	clockShiftMs,
	COARSE_FILTER_MS,
	MAX_WINDOW_MS,
	planRead,
	pollReport,
	resumeState,
	startState,
	wallClockRange,
	type CursorSettings,
	type CursorState,
	type ReadWindow,
} from '../../../nodes/DialerReportTrigger/cursor';
import { REMEMBER_MS } from '../../../nodes/DialerReportTrigger/memory';
import { rowIdentifier } from '../../../nodes/DialerReportTrigger/rowIdentity';
import { clockChanges } from '../support/zones';
import { rowInstants } from '../../../nodes/shared/dialerTime';
import { propertyRuns } from '../support/propertyRuns';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A row of the simulated report: visible from `visibleAt`, carrying the time `time`. */
interface WorldRow {
	key: string;
	time: number;
	visibleAt: number;
}

interface ReportRow {
	key: string;
	data: string;
}

/** How coarse the simulated dialer is where the contract leaves it open. */
interface Coarseness {
	/** Rows show `dd/mm/yyyy hh:mm`, without seconds. */
	minuteTimes?: boolean;
	/** The filter reads only the minutes of `de`: a read returns its whole first minute. */
	deMinutes?: boolean;
}

/** The dialer as the contract describes it: rows whose wall-clock time lies within de..ate. */
class SimulatedReport {
	readonly rows: WorldRow[] = [];
	reads: ReadWindow[] = [];
	/** The next poll's read with this index (0 for its first) answers an error. */
	failRead: number | undefined;

	constructor(
		private readonly zone: string,
		private readonly coarse: Coarseness = {},
	) {}

	add(row: WorldRow) {
		this.rows.push(row);
	}

	reader(now: number) {
		const failRead = this.failRead;
		this.failRead = undefined;
		let index = 0;
		return async (read: ReadWindow): Promise<ReportRow[]> => {
			this.reads.push(read);
			if (index++ === failRead) throw new Error('Dialer getFP1 failed (HTTP 500)');
			return this.rows
				.filter((row) => row.visibleAt <= now)
				.map((row) => ({ row, wall: DateTime.fromMillis(row.time, { zone: this.zone }) }))
				.filter(({ wall }) => {
					const text = wall.toFormat('yyyyMMddHHmmss');
					const de = this.coarse.deMinutes ? `${read.de.slice(0, 12)}00` : read.de;
					return text >= de && text <= read.ate;
				})
				.map(({ row, wall }) => ({
					key: row.key,
					data: wall.toFormat(this.coarse.minuteTimes ? 'dd/MM/yyyy HH:mm' : 'dd/MM/yyyy HH:mm:ss'),
				}));
		};
	}
}

const identify = (zone: string) => (row: ReportRow) => {
	const instants = rowInstants(row.data, zone);
	// Rows equal in every field share a key and are counted, as rows without a key field are.
	return { key: row.key, unique: false, time: instants?.earliest, latest: instants?.latest };
};

/**
 * Runs polls the way n8n does: the state is kept in memory after every successful poll and saved
 * with the activation (its first poll) and when a poll emitted rows.
 */
class Poller {
	state: CursorState;
	saved: CursorState;
	readonly emitted: string[] = [];
	polls = 0;
	failures = 0;

	constructor(
		private readonly report: SimulatedReport,
		readonly settings: CursorSettings,
		start: number,
	) {
		this.state = startState('newFilledForm', null, start);
		this.saved = this.state;
	}

	async poll(now: number): Promise<string[]> {
		this.polls++;
		try {
			const result = await pollReport(
				this.state,
				now,
				this.settings,
				this.report.reader(now),
				identify(this.settings.zone),
			);
			this.state = result.state;
			const keys = result.emit.map((row) => row.key);
			if (keys.length > 0 || this.polls === 1) this.saved = result.state;
			this.emitted.push(...keys);
			return keys;
		} catch {
			this.failures++;
			return [];
		}
	}

	restart() {
		this.state = this.saved;
	}

	/** Polls once a minute until a poll reads up to now and emits nothing. */
	async drain(now: number): Promise<number> {
		let at = now;
		for (let guard = 0; guard < 5000; guard++) {
			at += MINUTE;
			const keys = await this.poll(at);
			if (keys.length === 0 && this.state.cursor >= Math.floor(at / 1000) * 1000) return at;
		}
		throw new Error('the poller never caught up');
	}
}

function counts(keys: string[]): Map<string, number> {
	const result = new Map<string, number>();
	for (const key of keys) result.set(key, (result.get(key) ?? 0) + 1);
	return result;
}

const ZONES = [
	'UTC',
	'America/Sao_Paulo',
	'America/New_York',
	'Europe/Berlin',
	'Australia/Lord_Howe',
	'America/Santiago',
	'Australia/Sydney',
	'Pacific/Auckland',
];

describe('what the trigger remembers', () => {
	it('remembers each row a day after its time, and longer while a read of the Overlap Window can list it, forgetting nothing sooner', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(...ZONES),
				fc.integer({ min: 1, max: 1440 }),
				fc.array(
					fc.record({
						rows: fc.integer({ min: 0, max: 20 }),
						advanceMs: fc.oneof(
							fc.integer({ min: MINUTE, max: 10 * MINUTE }),
							fc.integer({ min: HOUR, max: 8 * HOUR }),
						),
					}),
					{ minLength: 5, maxLength: 40 },
				),
				async (zone, overlapMinutes, steps) => {
					const report = new SimulatedReport(zone);
					const settings = { zone, overlapMs: overlapMinutes * MINUTE, maxRows: 100_000 };
					const start = Date.UTC(2026, 2, 1, 12);
					const poller = new Poller(report, settings, start);
					let now = start;
					let sequence = 0;
					for (const step of steps) {
						for (let index = 0; index < step.rows; index++) {
							const time =
								now + Math.floor((index * MINUTE) / Math.max(step.rows, 1) / 1000) * 1000;
							report.add({ key: `row-${sequence++}`, time, visibleAt: time });
						}
						now = await poller.drain(now + step.advanceMs);
						const { cursor } = poller.state;
						const bound = Math.min(
							cursor - settings.overlapMs - clockShiftMs(zone, cursor) - COARSE_FILTER_MS,
							cursor - REMEMBER_MS,
						);
						const remembered = Object.entries(poller.state.seen).flatMap(([instant, keys]) =>
							keys.map(() => Number(instant)),
						);
						expect(remembered.every((time) => time >= bound)).toBe(true);
						expect(remembered).toHaveLength(report.rows.filter((row) => row.time >= bound).length);
					}
				},
			),
			{ numRuns: propertyRuns(40) },
		);
	});
});

describe('reading the report', () => {
	const zone = 'America/Sao_Paulo';
	const settings: CursorSettings = { zone, overlapMs: 10 * MINUTE, maxRows: 100 };
	const at = (iso: string) => DateTime.fromISO(iso, { zone }).toMillis();

	it('starts from the first activation: rows from before it are never emitted, even when written later', async () => {
		const report = new SimulatedReport(zone);
		const poller = new Poller(report, settings, at('2026-11-23T10:00:00'));
		report.add({
			key: 'old',
			time: at('2026-11-23T09:58:00'),
			visibleAt: at('2026-11-23T09:58:00'),
		});
		expect(await poller.poll(at('2026-11-23T10:00:00'))).toEqual([]);
		report.add({
			key: 'late-old',
			time: at('2026-11-23T09:59:30'),
			visibleAt: at('2026-11-23T10:00:30'),
		});
		report.add({
			key: 'new',
			time: at('2026-11-23T10:00:40'),
			visibleAt: at('2026-11-23T10:00:40'),
		});
		expect(await poller.poll(at('2026-11-23T10:01:00'))).toEqual(['new']);
	});

	it('emits a row written minutes after its time once, on the poll after it was written', async () => {
		const report = new SimulatedReport(zone);
		const poller = new Poller(report, settings, at('2026-11-23T10:00:00'));
		report.add({
			key: 'on-time',
			time: at('2026-11-23T10:04:00'),
			visibleAt: at('2026-11-23T10:04:00'),
		});
		expect(await poller.poll(at('2026-11-23T10:05:00'))).toEqual(['on-time']);
		report.add({
			key: 'late',
			time: at('2026-11-23T10:03:00'),
			visibleAt: at('2026-11-23T10:07:00'),
		});
		expect(await poller.poll(at('2026-11-23T10:06:00'))).toEqual([]);
		expect(await poller.poll(at('2026-11-23T10:08:00'))).toEqual(['late']);
		expect(await poller.poll(at('2026-11-23T10:09:00'))).toEqual([]);
	});

	it('misses a row written later than the overlap window after its time (the window must cover the latest rows)', async () => {
		const report = new SimulatedReport(zone);
		const poller = new Poller(report, settings, at('2026-11-23T10:00:00'));
		await poller.poll(at('2026-11-23T10:20:00'));
		report.add({
			key: 'too-late',
			time: at('2026-11-23T10:01:00'),
			visibleAt: at('2026-11-23T10:20:30'),
		});
		expect(await poller.poll(at('2026-11-23T10:21:00'))).toEqual([]);
	});

	it('emits nothing and keeps its state when a read fails; the next poll catches up', async () => {
		const report = new SimulatedReport(zone);
		const start = at('2026-11-23T10:00:00');
		const state = startState('newFilledForm', null, start);
		report.add({ key: 'a', time: at('2026-11-23T10:01:00'), visibleAt: at('2026-11-23T10:01:00') });
		report.failRead = 0;
		await expect(
			pollReport(
				state,
				at('2026-11-23T10:02:00'),
				settings,
				report.reader(at('2026-11-23T10:02:00')),
				identify(zone),
			),
		).rejects.toThrow('HTTP 500');
		expect(state).toEqual(startState('newFilledForm', null, start));
		const next = await pollReport(
			state,
			at('2026-11-23T10:03:00'),
			settings,
			report.reader(at('2026-11-23T10:03:00')),
			identify(zone),
		);
		expect(next.emit.map((row) => row.key)).toEqual(['a']);
	});

	it('catches up after a 30-hour outage in reads of at most an hour, Max Rows per Poll at a time, oldest first', async () => {
		const report = new SimulatedReport(zone);
		const start = at('2026-11-23T10:00:00');
		const poller = new Poller(report, { ...settings, maxRows: 500 }, start);
		for (let index = 0; index < 3000; index++) {
			const time = start + index * 36_000;
			report.add({ key: `row-${String(index).padStart(4, '0')}`, time, visibleAt: time });
		}
		const back = start + 30 * HOUR + 90_000;
		const perPoll: number[] = [];
		for (let poll = 0; poll < 12; poll++)
			perPoll.push((await poller.poll(back + poll * MINUTE)).length);
		expect(perPoll.slice(0, 6)).toEqual([500, 500, 500, 500, 500, 500]);
		expect(perPoll.slice(6).every((count) => count === 0)).toBe(true);
		expect(poller.emitted).toEqual(report.rows.map((row) => row.key));
		expect(
			report.reads.every((read) => read.to - read.from <= MAX_WINDOW_MS + settings.overlapMs),
		).toBe(true);
	});

	it('sends de/ate as wall-clock time in the workflow timezone', () => {
		const state = startState('newFilledForm', null, at('2026-11-23T10:00:00'));
		expect(planRead(state, at('2026-11-23T10:05:30.700'), settings)).toMatchObject({
			de: '20261123100000',
			ate: '20261123100530',
		});
	});

	it('widens de/ate over the hour that happens twice when clocks go back', () => {
		const newYork = 'America/New_York';
		// 2026-11-01: 01:59:59 EDT is followed by 01:00:00 EST.
		const from = DateTime.fromISO('2026-11-01T01:50:00-04:00').toMillis();
		const to = DateTime.fromISO('2026-11-01T01:10:00-05:00').toMillis();
		expect(wallClockRange(from, to, newYork)).toEqual({
			de: '20261101005000',
			ate: '20261101021000',
		});
		expect(clockShiftMs(newYork, from)).toBe(HOUR);
		expect(clockShiftMs('UTC', from)).toBe(0);
		expect(clockShiftMs('Australia/Lord_Howe', from)).toBe(30 * MINUTE);
	});

	it.each(['America/Santiago', 'Australia/Sydney', 'Pacific/Auckland', 'America/New_York'])(
		'activated in the hour before clocks go back in %s, emits every row of both hours once',
		async (dstZone) => {
			const fallBack = clockChanges(dstZone).find(
				(change) =>
					DateTime.fromMillis(change, { zone: dstZone }).offset <
					DateTime.fromMillis(change - 1000, { zone: dstZone }).offset,
			)!;
			const report = new SimulatedReport(dstZone);
			const zoneSettings = { zone: dstZone, overlapMs: 10 * MINUTE, maxRows: 1000 };
			// Activated 20 minutes before the change: the start is 30 minutes before it.
			const activation = fallBack - 20 * MINUTE;
			const poller = new Poller(report, zoneSettings, activation - zoneSettings.overlapMs);
			// A row a minute from 40 minutes before the change to 90 minutes after it.
			for (let minute = -40; minute < 90; minute++) {
				const time = fallBack + minute * MINUTE;
				report.add({ key: `row${minute}`, time, visibleAt: time });
			}
			for (let now = activation; now < fallBack + 100 * MINUTE; now += MINUTE)
				await poller.poll(now);
			const start = activation - zoneSettings.overlapMs;
			const emitted = counts(poller.emitted);
			const fromStart = report.rows.filter((row) => row.time >= start);
			expect(fromStart.map((row) => emitted.get(row.key))).toEqual(fromStart.map(() => 1));
			// The ten rows before the start lie in the hour that comes again after it: their text
			// names an instant after the start too, so they count (once).
			const before = report.rows.filter((row) => row.time < start).map((row) => row.key);
			expect(before.filter((key) => emitted.has(key))).toEqual(before);
			expect([...emitted.values()].every((times) => times === 1)).toBe(true);
		},
	);
});

describe('what a parameter change does', () => {
	const now = Date.UTC(2026, 10, 23, 13);
	const overlapMs = 10 * MINUTE;
	const going = {
		...startState('newFilledForm', now - 5 * HOUR, now - 5 * HOUR),
		cursor: now - MINUTE,
		seen: { [now - 2 * MINUTE]: ['ficha:1'] },
	};

	it('a first activation starts at Start From, or the Overlap Window before now', () => {
		expect(resumeState(undefined, 'newFilledForm', null, now, overlapMs)).toEqual(
			startState('newFilledForm', null, now - overlapMs),
		);
		expect(resumeState({}, 'newFilledForm', now - HOUR, now, overlapMs)).toEqual(
			startState('newFilledForm', now - HOUR, now - HOUR),
		);
	});

	it('filters, form, Max Rows or Overlap Window changed: goes on where it is, remembering what it emitted', () =>
		expect(resumeState(going, 'newFilledForm', now - 5 * HOUR, now, overlapMs)).toEqual(going));

	it('Start From removed: goes on where it is', () =>
		expect(resumeState(going, 'newFilledForm', null, now, overlapMs)).toEqual({
			...going,
			startFrom: null,
		}));

	it('a new Start From: starts over from it, rows emitted before included', () =>
		expect(resumeState(going, 'newFilledForm', now - 2 * HOUR, now, overlapMs)).toEqual(
			startState('newFilledForm', now - 2 * HOUR, now - 2 * HOUR),
		));

	it('another event: starts over from Start From or the Overlap Window before now', () => {
		expect(resumeState(going, 'newInboundCall', now - 5 * HOUR, now, overlapMs)).toEqual(
			startState('newInboundCall', now - 5 * HOUR, now - 5 * HOUR),
		);
		expect(resumeState(going, 'newInboundCall', null, now, overlapMs)).toEqual(
			startState('newInboundCall', null, now - overlapMs),
		);
	});
});

describe('what the trigger remembers between polls', () => {
	const zone = 'America/Sao_Paulo';
	const settings: CursorSettings = { zone, overlapMs: 10 * MINUTE, maxRows: 100_000 };
	const start = Date.UTC(2026, 10, 25, 12);

	it('keeps the rows of one second as one entry, however many there are', async () => {
		const report = new SimulatedReport(zone);
		for (let index = 0; index < 2_000; index++) {
			report.add({ key: `ficha:${index}`, time: start + 5_000, visibleAt: start + 5_000 });
		}
		report.add({ key: 'ficha:late', time: start + 7_000, visibleAt: start + 7_000 });
		const poller = new Poller(report, settings, start);
		expect(await poller.poll(start + 10_000)).toHaveLength(2_001);
		expect(Object.keys(poller.state.seen)).toEqual([String(start + 5_000), String(start + 7_000)]);
		expect(poller.state.seen[start + 5_000]).toHaveLength(2_000);
		expect(await poller.poll(start + 20_000)).toEqual([]);
	});
});

describe('rows the dialer sends with their numbers as numbers or as text', () => {
	const zone = 'America/Sao_Paulo';
	const settings: CursorSettings = { zone, overlapMs: 10 * MINUTE, maxRows: 100_000 };
	const start = Date.UTC(2026, 10, 25, 12);
	// A call in history without a protocol: its time, number, duration and extension tell it apart.
	const call = {
		horario: '2026-11-25 09:00:05',
		tipo: 'Recebida',
		numero: '(11) 3333-4444',
		duracao_segundos: 42,
		duracao: '00:00:42',
		desligada_por: '1',
		protocolo: '',
		ramal_agente: '1001',
	};
	const asText = { ...call, duracao_segundos: '42' };
	const identify = rowIdentifier(callHistory.rowSource.identity, zone);

	/** The rows each poll emits, polling every 10 s from 09:00:10, the dialer answering `answers`. */
	async function emitted(state: CursorState, answers: IDataObject[][]): Promise<IDataObject[][]> {
		const emits: IDataObject[][] = [];
		let now = start + 10_000;
		for (const rows of answers) {
			const result = await pollReport(state, now, settings, async () => rows, identify);
			emits.push(result.emit);
			state = result.state;
			now += 10_000;
		}
		return emits;
	}

	it('a keyless row sent with a number in one poll and the same number as text in the next is emitted once', async () => {
		const first = startState('newCallInHistory', null, start);
		expect(await emitted(first, [[call], [asText], [call]])).toEqual([[call], [], []]);
		expect(await emitted(first, [[asText], [call], [asText]])).toEqual([[asText], [], []]);
	});
});
