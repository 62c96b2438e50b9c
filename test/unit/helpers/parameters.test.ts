import fc from 'fast-check';
import { DateTime } from 'luxon';

import { propertyRuns } from '../support/propertyRuns';
import {
	customRange,
	ParameterError,
	parseDateTime,
	parseFichaIds,
	PERIOD_PRESETS,
	type PeriodPreset,
	presetRange,
	requireId,
	requireText,
} from '../../../nodes/shared/parameters';
import { rowTime, toApiDateTime } from '../../../nodes/shared/dialerTime';

const api = (range: { start: DateTime; end: DateTime }) => [
	toApiDateTime(range.start),
	toApiDateTime(range.end),
];

describe('report periods', () => {
	// Sunday 22 Nov 2026, 01:30 in São Paulo (04:30 UTC).
	const now = DateTime.fromISO('2026-11-22T01:30:00', { zone: 'America/Sao_Paulo' });

	it.each([
		['today', '20261122000000', '20261122235959'],
		['yesterday', '20261121000000', '20261121235959'],
		['last7Days', '20261116000000', '20261122235959'],
		['last30Days', '20261024000000', '20261122235959'],
		['thisWeek', '20261116000000', '20261122235959'],
		['lastWeek', '20261109000000', '20261115235959'],
		['thisMonth', '20261101000000', '20261130235959'],
		['lastMonth', '20261001000000', '20261031235959'],
	] as const)('%s covers whole days in the workflow timezone', (preset, de, ate) => {
		expect(api(presetRange(preset, now))).toEqual([de, ate]);
	});

	it('uses the calendar day of the workflow timezone, not of UTC', () => {
		// 01:30 in São Paulo is 04:30 UTC the same day, but 23:30 the day before in Los Angeles.
		const instant = now.toUTC();
		expect(api(presetRange('yesterday', instant.setZone('America/Los_Angeles')))).toEqual([
			'20261120000000',
			'20261120235959',
		]);
		expect(api(presetRange('today', instant.setZone('Asia/Kolkata')))).toEqual([
			'20261122000000',
			'20261122235959',
		]);
	});

	it('keeps whole local days across a daylight-saving change (23-hour day in New York)', () => {
		const afterChange = DateTime.fromISO('2026-03-09T10:00:00', { zone: 'America/New_York' });
		const yesterday = presetRange('yesterday', afterChange);
		expect(api(yesterday)).toEqual(['20260308000000', '20260308235959']);
		expect(yesterday.end.diff(yesterday.start, 'hours').hours).toBeCloseTo(23, 2);
	});

	it('starts a day at the first valid time when midnight does not exist (Santiago spring forward)', () => {
		// Chile moves clocks from 24:00 to 01:00 on 6 Sep 2026, so that day begins at 01:00.
		const day = DateTime.fromISO('2026-09-06T12:00:00', { zone: 'America/Santiago' });
		expect(api(presetRange('today', day))).toEqual(['20260906010000', '20260906235959']);
	});

	it('gives yesterday and the last 7 days whole on the morning clocks skipped midnight (Santiago, Havana)', () => {
		// The day before began at 00:00: the hour before 01:00 belongs to it.
		const santiago = DateTime.fromISO('2026-09-06T07:00:00', { zone: 'America/Santiago' });
		expect(api(presetRange('yesterday', santiago))).toEqual(['20260905000000', '20260905235959']);
		expect(api(presetRange('last7Days', santiago))).toEqual(['20260831000000', '20260906235959']);
		const havana = DateTime.fromISO('2026-03-08T07:00:00', { zone: 'America/Havana' });
		expect(api(presetRange('yesterday', havana))).toEqual(['20260307000000', '20260307235959']);
		expect(api(presetRange('last30Days', havana))).toEqual(['20260207000000', '20260308235959']);
	});

	it('ends October on 31 October 23:59:59 where clocks go back to 00:00 on 1 November (Havana)', () => {
		// Havana moves clocks back from 01:00 to 00:00 on 1 Nov 2026: 00:00 to 00:59 happen twice.
		const october = DateTime.fromISO('2026-10-20T12:00:00', { zone: 'America/Havana' });
		expect(api(presetRange('thisMonth', october))).toEqual(['20261001000000', '20261031235959']);
		const november = DateTime.fromISO('2026-11-10T12:00:00', { zone: 'America/Havana' });
		expect(api(presetRange('lastMonth', november))).toEqual(['20261001000000', '20261031235959']);
	});

	it('ends every preset at 23:59:59 of its last day, in any zone (generated dates)', () => {
		const zones = ['America/Havana', 'Atlantic/Azores', 'America/Santiago', 'Australia/Lord_Howe'];
		fc.assert(
			fc.property(
				fc.constantFrom(...zones),
				fc.date({ min: new Date('2000-01-01'), max: new Date('2035-12-31'), noInvalidDate: true }),
				fc.constantFrom(...(Object.keys(PERIOD_PRESETS) as PeriodPreset[])),
				(zone, date, preset) => {
					const now = DateTime.fromJSDate(date, { zone });
					expect(toApiDateTime(presetRange(preset, now).end).slice(8)).toBe('235959');
				},
			),
			{ numRuns: propertyRuns(100) },
		);
	});

	it('counts last month correctly at a month end (31 March back to February)', () => {
		const endOfMarch = DateTime.fromISO('2026-03-31T18:00:00', { zone: 'Europe/Berlin' });
		expect(api(presetRange('lastMonth', endOfMarch))).toEqual(['20260201000000', '20260228235959']);
	});
});

describe('custom dates', () => {
	const zone = 'America/Sao_Paulo';

	it('reads a date picker value as wall-clock time in the workflow timezone', () => {
		expect(toApiDateTime(parseDateTime('2026-11-21T08:15:00', zone, 'Start'))).toBe(
			'20261121081500',
		);
	});

	it('converts a value with an offset into the workflow timezone', () => {
		expect(toApiDateTime(parseDateTime('2026-11-21T11:00:00Z', zone, 'Start'))).toBe(
			'20261121080000',
		);
	});

	it('accepts luxon DateTimes from expressions, whatever their zone', () => {
		const tokyo = DateTime.fromISO('2026-11-21T20:00:00', { zone: 'Asia/Tokyo' });
		expect(toApiDateTime(parseDateTime(tokyo, zone, 'Start'))).toBe('20261121080000');
	});

	it('accepts JS dates and the API form itself', () => {
		expect(toApiDateTime(parseDateTime(new Date('2026-11-21T11:00:00Z'), zone, 'Start'))).toBe(
			'20261121080000',
		);
		expect(toApiDateTime(parseDateTime('20261121080000', zone, 'Start'))).toBe('20261121080000');
	});

	it.each([
		['getHC2 horario', '2026-11-21 08:15:00', '20261121081500'],
		['getRQ4 datahora, getFP1 data, getRE2 data_hora', '21/11/2026 08:15:00', '20261121081500'],
		['getHC2 de and ate', '21/11/2026 08:15', '20261121081500'],
		['a date of the CSV exports', '21/11/2026', '20261121000000'],
	])(
		'reads a time written as the reports write it (%s: %s) on the dialer clock',
		(_field, text, sent) => {
			expect(toApiDateTime(parseDateTime(text, zone, 'Start'))).toBe(sent);
		},
	);

	it.each(['2026-11-21 08:15:00', '21/11/2026 08:15:00', '21/11/2026 08:15'])(
		'reads a row time given as a date (%s) as the instant the Report Trigger dates that row',
		(text) => {
			expect(parseDateTime(text, zone, 'Start From').toMillis()).toBe(rowTime(text, zone));
		},
	);

	it.each([
		['as the reports write it', '20/11/2026', '21/11/2026'],
		['in ISO 8601 basic form', '20261120', '20261121'],
	])(
		'reads a date without time %s as the end of that day when it ends a range',
		(_form, start, end) => {
			expect(api(customRange(start, end, zone))).toEqual(['20261120000000', '20261121235959']);
		},
	);

	it('reads the API form and a basic date given as numbers (a spreadsheet cell, a JSON field)', () => {
		expect(api(customRange(20261120080000, 20261121, zone))).toEqual([
			'20261120080000',
			'20261121235959',
		]);
	});

	it('reads a date without time as the end of that day when it ends a range', () => {
		const range = customRange('2026-11-20', '2026-11-21', zone);
		expect(api(range)).toEqual(['20261120000000', '20261121235959']);
	});

	it.each([
		['', 'is empty'],
		['yesterday-ish', 'not a valid date'],
		['20261332000000', 'not a valid date'],
		['2026-02-30', 'not a valid date'],
		['31/02/2026 10:00:00', 'not a valid date'],
		['11/21/2026 10:00:00', 'not a valid date'],
		[12345, 'is empty or not a date'],
	])('rejects %p, naming the parameter and how to fix it', (value, problem) => {
		expect(() => parseDateTime(value, zone, 'Start')).toThrow(ParameterError);
		try {
			parseDateTime(value, zone, 'Start');
		} catch (error) {
			expect((error as ParameterError).message).toContain('Start');
			expect((error as ParameterError).message).toContain(problem);
			expect((error as ParameterError).fix).toMatch(/ISO 8601/);
		}
	});

	it('rejects an end before the start', () => {
		expect(() => customRange('2026-11-21T10:00:00', '2026-11-21T09:59:59', zone)).toThrow(
			/End: .* is before Start/,
		);
	});

	it('accepts an end equal to the start', () => {
		expect(api(customRange('2026-11-21T10:00:00', '2026-11-21T10:00:00', zone))).toEqual([
			'20261121100000',
			'20261121100000',
		]);
	});
});

describe('ficha ID lists', () => {
	it.each([
		['1200', '1200'],
		['1200,1203', '1200,1203'],
		[' 1200 , 1203 ,1210 - 1220 ', '1200,1203,1210-1220'],
		['7-7', '7-7'],
		['007', '7'],
	])('sends %p as %p', (input, sent) => {
		expect(parseFichaIds(input)).toBe(sent);
	});

	it.each([
		['', 'is empty'],
		['1,,2', 'empty entry'],
		['1,2,', 'empty entry'],
		['12-3', 'ends before it starts'],
		['abc', 'neither an ID nor a range'],
		['1;2', 'neither an ID nor a range'],
		['-5', 'neither an ID nor a range'],
		['1-2-3', 'neither an ID nor a range'],
		['0', 'not an ID'],
		['3.5', 'neither an ID nor a range'],
	])('rejects %p before sending anything', (input, problem) => {
		expect(() => parseFichaIds(input)).toThrow(ParameterError);
		expect(() => parseFichaIds(input)).toThrow(problem);
	});

	it('either sends a well-formed list or rejects the input (generated inputs)', () => {
		const wellFormed = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
		fc.assert(
			fc.property(
				fc.string({ unit: fc.constantFrom(...'0123456789,- a'.split('')), maxLength: 30 }),
				(input) => {
					let sent: string;
					try {
						sent = parseFichaIds(input);
					} catch (error) {
						expect(error).toBeInstanceOf(ParameterError);
						return;
					}
					expect(sent).toMatch(wellFormed);
					for (const part of sent.split(',')) {
						const [from, to] = part.split('-');
						if (to !== undefined) expect(BigInt(from) <= BigInt(to)).toBe(true);
						expect(from).not.toMatch(/^0/);
					}
				},
			),
			{ numRuns: propertyRuns(2_000) },
		);
	});
});

describe('required values', () => {
	it('trims text and rejects blanks with an example', () => {
		expect(requireText('  1001 ', 'Extension', '1001')).toBe('1001');
		expect(() => requireText('   ', 'Extension', '1001')).toThrow('Extension: is empty');
		expect(() => requireText(undefined, 'Extension', '1001')).toThrow(ParameterError);
	});

	it('accepts positive whole-number IDs as text or numbers', () => {
		expect(requireId(7, 'Audio ID')).toBe('7');
		expect(requireId(' 0042 ', 'Audio ID')).toBe('42');
		for (const bad of ['0', '-1', '1.5', 'x7', '']) {
			expect(() => requireId(bad, 'Audio ID')).toThrow(/Audio ID/);
		}
	});
});
