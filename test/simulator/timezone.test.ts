/** A simulated dialer whose wall clock is in another zone than this process's. */
import { DateTime } from 'luxon';

import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { WallClock } from '../../harness/simulator/time';
import { callApi, type Loose } from './helpers';

let tokyo: DialerSimulator;

beforeAll(async () => {
	tokyo = await startSimulator({ fichas: 20, calls: 20, timezone: 'Asia/Tokyo' });
});
afterAll(() => tokyo?.close());

const wall = (epochMs: number, format: string) =>
	DateTime.fromMillis(epochMs, { zone: 'Asia/Tokyo' }).toFormat(format);

it('writes report times and reads de/ate on its own wall clock', async () => {
	const [ficha] = tokyo.rows.add({ report: 'getFP1', form: 41 });
	const [call] = tokyo.rows.add({ report: 'getHC2', agent: tokyo.data.agents[0].id });
	const extension = tokyo.data.extensions.find(
		(item) => item.numero === tokyo.data.agents[0].ramal,
	)!;
	const around = (at: number) => ({
		de: wall(at - 1000, 'yyyyMMddHHmmss'),
		ate: wall(at + 1000, 'yyyyMMddHHmmss'),
	});
	const fichas = (await callApi(tokyo, 'getFP1', { form: '41', ...around(ficha.at) })).json().data;
	expect(fichas.map((row: Loose) => [row.ficha, row.data])).toEqual([
		[String(ficha.id), wall(ficha.at, 'dd/MM/yyyy HH:mm:ss')],
	]);
	const history = (
		await callApi(tokyo, 'getHC2', {
			tipo_entidade: extension.tipo,
			ramal_agente: extension.numero,
			...around(call.at),
		})
	).json().data;
	expect(history.chamadas.map((row: Loose) => row.horario)).toContain(
		wall(call.at, 'yyyy-MM-dd HH:mm:ss'),
	);
	expect(history.de).toBe(wall(call.at - 1000, 'dd/MM/yyyy HH:mm'));
});

it('keeps its seeded history on its own calendar, between 08:00 and 20:00 there', () => {
	// The 20 seeded fichas: the first test adds one at the time it runs.
	const seeded = tokyo.data.fichas.slice(0, 20);
	const hours = seeded.map((ficha) => Number(wall(ficha.data, 'H')));
	expect(Math.min(...hours)).toBeGreaterThanOrEqual(8);
	expect(Math.max(...hours)).toBeLessThan(20);
	expect(tokyo.data.referenceDay).toBe(wall(Date.now(), 'yyyy-MM-dd'));
});

describe('WallClock', () => {
	const newYork = new WallClock('America/New_York');

	it('refuses a de/ate its clock skipped, and reads the hour it repeats at its first instant', () => {
		expect(newYork.parseCompactDateTime('20260308023000')).toBeUndefined();
		expect(newYork.parseCompactDateTime('20261101013000')).toBe(Date.UTC(2026, 10, 1, 5, 30));
		expect(newYork.parseCompactDateTime('20260231120000')).toBeUndefined();
		expect(newYork.parseCompactDateTime('20261121240000')).toBeUndefined();
	});

	it('formats any instant as luxon does in that zone', () => {
		for (const zone of ['Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Santiago', 'UTC']) {
			const clock = new WallClock(zone);
			for (
				let at = Date.UTC(2026, 0, 1);
				at < Date.UTC(2027, 0, 1);
				at += 17 * 3_600_000 + 77_000
			) {
				const expected = DateTime.fromMillis(at, { zone }).toFormat('yyyy-MM-dd HH:mm:ss');
				expect(clock.formatIsoLocal(at)).toBe(expected);
				expect(clock.parseCompactDateTime(expected.replace(/\D/g, ''))).toBeDefined();
			}
		}
	});

	it('refuses an unknown zone', () => {
		expect(() => new WallClock('Mars/Olympus_Mons')).toThrow(RangeError);
	});
});
