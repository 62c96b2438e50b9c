/**
 * Rows the dialer writes later than the Overlap Window allows: the trigger does not emit them
 * (reads no longer reach their time), but it names each in n8n's log once and counts them on the
 * next new item, whether the report is busy or quiet.
 */
import { DateTime, Settings } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { LATE_ROWS_FIELD } from '../../../nodes/DialerReportTrigger/lateRows';
import { pollFilledForms } from '../support/filledFormPolls';

const MINUTE = 60_000;
const ZONE = 'UTC';
const at = (time: string) => DateTime.fromISO(`2026-11-25T${time}`, { zone: ZONE }).toMillis();

interface Ficha {
	ficha: string;
	data: number;
	writtenAt: number;
}

const digits = (time: number) =>
	DateTime.fromMillis(time, { zone: ZONE }).toFormat('yyyyMMddHHmmss');

/** A getFP1 that filters `de`/`ate` by `data` and lists a ficha from when it is written. */
function dialer(fichas: Ficha[], now: () => number) {
	return (form: URLSearchParams) => ({
		data: fichas
			.filter(({ data, writtenAt }) => writtenAt <= now() && digits(data) >= form.get('de')!)
			.filter(({ data }) => digits(data) <= form.get('ate')!)
			.map(({ ficha, data }) => ({
				ficha,
				data: DateTime.fromMillis(data, { zone: ZONE }).toFormat('dd/MM/yyyy HH:mm:ss'),
				agente: 'ana',
				status: 'Pendente',
			})),
	});
}

/**
 * Polls once a minute from `from` to `to` with an Overlap Window of 10 minutes. `answer` replaces
 * the dialer's; `copyStaticData`: n8n's poll scheduler, which hands every poll a copy of it.
 */
async function pollEachMinute(
	fichas: Ficha[],
	from: number,
	to: number,
	options: {
		answer?: (form: URLSearchParams, now: number) => unknown;
		copyStaticData?: boolean;
		workflowId?: string;
		stepMs?: number;
		startFrom?: string;
	} = {},
) {
	let staticData: IDataObject = {};
	const warnings: string[] = [];
	const items: Array<{ at: number; json: IDataObject }> = [];
	let now = from;
	const listed = dialer(fichas, () => now);
	const answer = (form: URLSearchParams) => (options.answer ?? listed)(form, now);
	for (; now <= to; now += options.stepMs ?? MINUTE) {
		if (options.copyStaticData) staticData = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		const polled = await pollFilledForms(
			now,
			{ overlapWindow: 10, ...(options.startFrom ? { startFrom: options.startFrom } : {}) },
			{ staticData, timezone: ZONE, warnings, answer, workflowId: options.workflowId },
		);
		for (const item of polled) items.push({ at: now, json: item.json });
	}
	return { warnings, items };
}

afterAll(() => {
	Settings.now = () => Date.now();
});

/** A ficha dated 10:00 that the dialer writes at 10:25, 15 minutes past the Overlap Window. */
const late: Ficha = { ficha: 'late', data: at('10:00:00'), writtenAt: at('10:25:00') };

it('on a busy report, a ficha written later than the Overlap Window is named once in the log and counted on the next item', async () => {
	// A ficha a minute, each written on time.
	const busy = Array.from({ length: 70 }, (_, minute) => ({
		ficha: String(minute),
		data: at('09:50:30') + minute * MINUTE,
		writtenAt: at('09:50:30') + minute * MINUTE,
	}));
	const { warnings, items } = await pollEachMinute([...busy, late], at('09:51:00'), at('11:00:00'));
	expect(items.map(({ json }) => json.ficha)).toEqual(busy.map(({ ficha }) => ficha));
	expect(warnings).toEqual([
		expect.stringMatching(
			/^1 row appeared later than the Overlap Window \(10 min\) allows and will not be emitted: ficha late \(data 25\/11\/2026 10:00:00\)/,
		),
	]);
	const counted = items.filter(({ json }) => 'lateRowsNotEmitted' in json);
	expect(counted).toEqual([
		{ at: expect.any(Number), json: expect.objectContaining({ lateRowsNotEmitted: 1 }) },
	]);
	// Found by the first clock check after it was written, every 15 minutes.
	expect(counted[0].at).toBeGreaterThan(late.writtenAt);
	expect(counted[0].at).toBeLessThanOrEqual(late.writtenAt + 15 * MINUTE);
});

it('on a quiet report, the same ficha is named once and counted on the next ficha that comes', async () => {
	const next: Ficha = { ficha: 'next', data: at('10:50:00'), writtenAt: at('10:50:00') };
	const { warnings, items } = await pollEachMinute([late, next], at('09:51:00'), at('11:00:00'));
	expect(warnings).toEqual([expect.stringContaining('ficha late (data 25/11/2026 10:00:00)')]);
	expect(items.map(({ json }) => json)).toEqual([
		expect.objectContaining({ ficha: 'next', lateRowsNotEmitted: 1 }),
	]);
});

it('a ficha written late but inside the Overlap Window is emitted and reported nowhere', async () => {
	const inside: Ficha = { ficha: 'inside', data: at('10:00:00'), writtenAt: at('10:08:00') };
	const { warnings, items } = await pollEachMinute([inside], at('09:51:00'), at('11:00:00'));
	expect(items.map(({ json }) => json)).toEqual([
		{ ficha: 'inside', data: '25/11/2026 10:00:00', agente: 'ana', status: 'Pendente' },
	]);
	expect(warnings).toEqual([]);
});

/** A ficha a minute from 09:41, each written on time, for `minutes` minutes. */
const busyFichas = (minutes: number): Ficha[] =>
	Array.from({ length: minutes }, (_, minute) => ({
		ficha: String(minute),
		data: at('09:41:30') + minute * MINUTE,
		writtenAt: at('09:41:30') + minute * MINUTE,
	}));

/** The warning both ways of finding a row too late give, naming ficha `ficha` dated `data`. */
const lateWarning = (ficha: string, data: string) =>
	new RegExp(
		`^1 row appeared later than the Overlap Window \\(10 min\\) allows and will not be emitted: ` +
			`ficha ${ficha} \\(data ${data.replace(/\//g, '\\/')}\\)`,
	);

describe('rows dated where the memory of emitted rows does not reach', () => {
	// The trigger starts at 09:51 and emits fichas from 09:41 (the Overlap Window before) on.
	const beforeStart: Ficha = { ficha: 'early', data: at('09:30:00'), writtenAt: at('10:05:00') };

	it('on a busy report, a ficha dated before the start and written after it is named and counted (found: neither)', async () => {
		const busy = busyFichas(79);
		const { warnings, items } = await pollEachMinute(
			[...busy, beforeStart],
			at('09:51:00'),
			at('11:00:00'),
		);
		expect(items.map(({ json }) => json.ficha)).toEqual(busy.map(({ ficha }) => ficha));
		expect(warnings).toEqual([expect.stringMatching(lateWarning('early', '25/11/2026 09:30:00'))]);
		const counted = items.filter(({ json }) => LATE_ROWS_FIELD in json);
		expect(counted.map(({ json }) => json[LATE_ROWS_FIELD])).toEqual([1]);
		expect(counted[0].at).toBeGreaterThan(beforeStart.writtenAt);
	});

	it('on a quiet report, the same ficha gives the same warning and count as any late row (found: another warning, no count)', async () => {
		const next: Ficha = { ficha: 'next', data: at('10:50:00'), writtenAt: at('10:50:00') };
		const { warnings, items } = await pollEachMinute(
			[beforeStart, next],
			at('09:51:00'),
			at('11:00:00'),
		);
		expect(warnings).toEqual([expect.stringMatching(lateWarning('early', '25/11/2026 09:30:00'))]);
		expect(items.map(({ json }) => json)).toEqual([
			expect.objectContaining({ ficha: 'next', [LATE_ROWS_FIELD]: 1 }),
		]);
	});

	it('a ficha dated before the start that was there at the activation is not late', async () => {
		const there: Ficha = { ficha: 'there', data: at('09:30:00'), writtenAt: at('09:35:00') };
		const { warnings } = await pollEachMinute(
			[...busyFichas(80), there],
			at('09:51:00'),
			at('11:00:00'),
		);
		expect(warnings).toEqual([]);
	});

	it('a ficha dated just before Start From and written on time is not late: reported nowhere', async () => {
		const onTime: Ficha = { ficha: 'ontime', data: at('09:58:00'), writtenAt: at('10:05:00') };
		const { warnings, items } = await pollEachMinute([onTime], at('09:51:00'), at('11:00:00'), {
			startFrom: '2026-11-25T10:00:00',
		});
		expect([warnings, items]).toEqual([[], []]);
	});

	it('on a busy report, a ficha written a day late, older than the memory holds, is named and counted (found: neither)', async () => {
		const day = 24 * 60 * MINUTE;
		const busy = busyFichas(27 * 60);
		const dayLate: Ficha = {
			ficha: 'daylate',
			data: at('10:00:00'),
			writtenAt: at('10:30:00') + day,
		};
		// A poll every 15 minutes for 26 hours.
		const { warnings, items } = await pollEachMinute(
			[...busy, dayLate],
			at('09:51:00'),
			at('11:45:00') + day,
			{ stepMs: 15 * MINUTE },
		);
		expect(warnings).toEqual([
			expect.stringMatching(lateWarning('daylate', '25/11/2026 10:00:00')),
		]);
		const counted = items.filter(({ json }) => LATE_ROWS_FIELD in json);
		expect(counted.map(({ json }) => json[LATE_ROWS_FIELD])).toEqual([1]);
		expect(items.filter(({ json }) => json.ficha === 'daylate')).toEqual([]);
	});
});

describe('when the look back for late rows fails', () => {
	it('the poll still emits its new fichas, says so in the log, and tries again in 15 minutes', async () => {
		const fichas = Array.from({ length: 40 }, (_, i) => {
			const data = at('09:55:00') + i * MINUTE;
			return { ficha: String(data), data, writtenAt: data };
		});
		let lookBacks = 0;
		const { items, warnings } = await pollEachMinute(fichas, at('10:00:00'), at('10:30:00'), {
			workflowId: 'look-back-fails',
			// A dialer that gives up on the long read ahead the look back makes, not on the others.
			answer: (form, now) => {
				if (form.get('ate')! <= digits(now + 3_600_000)) return dialer(fichas, () => now)(form);
				lookBacks += 1;
				return { status: 'error', error: 'timeout' };
			},
		});
		expect(items.map(({ json }) => json.ficha)).toEqual(
			fichas.filter(({ data }) => data <= at('10:30:00')).map(({ ficha }) => ficha),
		);
		// At the activation (10:00), 10:15 and 10:30.
		expect(lookBacks).toBe(3);
		expect(
			warnings.filter((line) => line.startsWith('Could not read the report back')),
		).toHaveLength(3);
	});
});

describe('under n8n poll scheduling that hands every poll a copy of the static data', () => {
	it('still names and counts the ficha written too late on a busy report', async () => {
		// A ficha a minute, and one dated 10:00 that the dialer writes at 10:25 (Overlap Window 10 min).
		const fichas = [
			...Array.from({ length: 70 }, (_, i) => ({
				ficha: String(i),
				data: at('09:50:30') + i * MINUTE,
				writtenAt: at('09:50:30') + i * MINUTE,
			})),
			late,
		];
		const { items, warnings } = await pollEachMinute(fichas, at('09:51:00'), at('11:00:00'), {
			workflowId: 'copied-static-data',
			copyStaticData: true,
		});
		expect(warnings.filter((line) => line.includes('late'))).not.toEqual([]);
		expect(
			items.filter(({ json }) => LATE_ROWS_FIELD in json).map(({ json }) => json[LATE_ROWS_FIELD]),
		).toEqual([1]);
	});
});

describe('a ficha the dialer re-dates when it is saved again', () => {
	it('emitted, then re-dated by a save written later than the Overlap Window, is never named or counted as late, the next day either (found: named and counted a day later)', async () => {
		const day = 24 * 60 * MINUTE;
		// A ficha an hour, on time, so a count would show on an item.
		const hourly = Array.from({ length: 28 }, (_, hour) => ({
			ficha: `h${hour}`,
			data: at('09:45:00') + hour * 60 * MINUTE,
			writtenAt: at('09:45:00') + hour * 60 * MINUTE,
		}));
		// Ficha 42, filled at 10:00 and emitted; saved again at 10:30, which the dialer writes
		// (moving its data to 10:30) at 10:50, 20 minutes past the Overlap Window.
		const ficha42 = (now: number) =>
			now < at('10:50:00')
				? { ficha: '42', data: at('10:00:00'), writtenAt: at('10:00:00') }
				: { ficha: '42', data: at('10:30:00'), writtenAt: at('10:50:00') };
		const answer = (form: URLSearchParams, now: number) =>
			dialer([...hourly, ficha42(now)], () => now)(form);
		// A poll every 5 minutes for 27 hours.
		const { warnings, items } = await pollEachMinute([], at('09:51:00'), at('12:51:00') + day, {
			answer,
			stepMs: 5 * MINUTE,
		});
		expect(items.filter(({ json }) => json.ficha === '42').map(({ json }) => json.status)).toEqual([
			'Pendente',
		]);
		expect(warnings).toEqual([]);
		expect(items.filter(({ json }) => LATE_ROWS_FIELD in json)).toEqual([]);
	});
});
