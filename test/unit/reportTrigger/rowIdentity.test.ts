/** How the report trigger tells rows apart and reads their times. */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import * as callHistory from '../../../nodes/Dialer/actions/report/getCallHistory.operation';
import {
	rowIdentifier,
	rowInstants,
	rowKeys,
	rowTime,
} from '../../../nodes/DialerReportTrigger/rowIdentity';

const keyOf = (...args: Parameters<typeof rowKeys>) => rowKeys(...args).key;

describe('row keys', () => {
	it('use the ficha number or the protocol when the report has one', () => {
		expect(keyOf({ ficha: '1203', nome: 'Ana' }, { keyField: 'ficha', timeField: 'data' })).toBe(
			'ficha:1203',
		);
		expect(
			keyOf(
				{ protocolo: '202611230000042', resultado: 'Venda' },
				{ keyField: 'protocolo', timeField: 'datahora' },
			),
		).toBe('protocolo:202611230000042');
	});

	it('keep the same key when the rest of the row changes (a ficha whose status is edited is not new)', () => {
		const rule = { keyField: 'ficha', timeField: 'data' };
		expect(keyOf({ ficha: '7', status: 'Pendente' }, rule)).toBe(
			keyOf({ ficha: '7', status: 'Finalizada' }, rule),
		);
	});

	it('fall back to a digest of the row, the same whatever the order of its fields', () => {
		const rule = { timeField: 'data_hora' };
		const row = { data_hora: '23/11/2026 10:00:01', origem: '(11) 91234-5678', tempo_fila: 12 };
		const key = keyOf(row, rule);
		expect(key).toMatch(/^row-sha256:[A-Za-z0-9_-]{22}$/);
		expect(
			keyOf({ tempo_fila: 12, origem: '(11) 91234-5678', data_hora: '23/11/2026 10:00:01' }, rule),
		).toBe(key);
		expect(keyOf({ ...row, tempo_fila: 13 }, rule)).not.toBe(key);
	});

	it('digest only the fields fixed when the row was written, so a later classification or another read range is the same row', () => {
		const rule = {
			keyField: 'protocolo',
			digestFields: ['horario', 'numero'],
			timeField: 'horario',
		};
		const call = { horario: '2026-11-23 10:00:01', protocolo: '', numero: '(11) 3333-4444' };
		expect(keyOf({ ...call, de: '23/11/2026 09:50', ate: '23/11/2026 10:00' }, rule)).toBe(
			keyOf({ ...call, de: '23/11/2026 09:55', ate: '23/11/2026 10:05' }, rule),
		);
		expect(keyOf({ ...call, resultado: 'Venda' }, rule)).toBe(keyOf(call, rule));
		expect(keyOf({ ...call, numero: '(11) 3333-4445' }, rule)).not.toBe(keyOf(call, rule));
	});

	it('give a keyless row sent with a number in one poll and the same number as text in the next one key', () => {
		const rule = { digestFields: ['horario', 'numero', 'duracao_segundos'], timeField: 'horario' };
		const call = { horario: '2026-11-25 09:00:05', numero: '(11) 3333-4444' };
		for (const [number, text] of [
			[42, '42'],
			[0, '0'],
			[-3, '-3'],
			[12.5, '12.5'],
		] as const) {
			expect(keyOf({ ...call, duracao_segundos: number }, rule)).toBe(
				keyOf({ ...call, duracao_segundos: text }, rule),
			);
		}
		// Every field when the report names none, those inside lists and objects too.
		const whole = { timeField: 'data_hora' };
		const row = { data_hora: '25/11/2026 09:00:05', tempo_fila: 12, extra: { ids: [1, 2] } };
		expect(keyOf(row, whole)).toBe(
			keyOf({ ...row, tempo_fila: '12', extra: { ids: ['1', '2'] } }, whole),
		);
	});

	it('keep text that names a number another way ("007", "7.0") apart from it: distinct rows are never merged', () => {
		const rule = { digestFields: ['horario', 'codigo'], timeField: 'horario' };
		const keys = [7, '7', '007', '7.0'].map((codigo) =>
			keyOf({ horario: '2026-11-25 09:00:05', codigo }, rule),
		);
		expect(new Set(keys).size).toBe(3);
	});

	it('keep across the update what a running trigger remembers: the keys earlier versions gave a row, whichever way it sends its numbers', () => {
		const call = {
			horario: '2026-11-25 09:00:05',
			tipo: 'Recebida',
			numero: '(11) 3333-4444',
			duracao_segundos: '42',
			protocolo: '',
			ramal_agente: '1001',
		};
		const rule = callHistory.rowSource.identity;
		// The keys versions before 2026-11-27 gave this call with its duration as text and as a number.
		const former = (row: IDataObject) => rowKeys(row, rule).formerKeys?.() ?? [];
		expect(keyOf(call, rule)).toBe('row-sha256:NUYg6WknxjkC9oYipmMSy4');
		expect(keyOf({ ...call, duracao_segundos: 42 }, rule)).toBe(
			'row-sha256:NUYg6WknxjkC9oYipmMSy4',
		);
		const then = ['sha256:NUYg6WknxjkC9oYipmMSy4', 'sha256:6fQpNVsCBIEXhCGEUymVfR'];
		expect(former({ ...call, duracao_segundos: 42 })).toEqual(expect.arrayContaining(then));
		// Since the update the dialer may send as text what it sent as a number then.
		expect(former(call)).toEqual(expect.arrayContaining(then));
		// A row without numbers had one key then; a row remembered by its key field has no other.
		const text = { ...call, duracao_segundos: 'x', ramal_agente: 'SIP/1001' };
		expect(former(text)).toEqual([keyOf(text, rule).replace(/^row-/, '')]);
		expect(rowKeys({ ...call, protocolo: '7' }, rule)).toEqual({ key: 'protocolo:7' });
	});

	it('read a key field sent as 5, "5" or " 5 " as one row', () => {
		const rule = { keyField: 'ficha', timeField: 'data' };
		expect([5, '5', ' 5 '].map((ficha) => keyOf({ ficha }, rule))).toEqual([
			'ficha:5',
			'ficha:5',
			'ficha:5',
		]);
	});
});

describe('row times', () => {
	const zone = 'America/Sao_Paulo';
	const expected = DateTime.fromISO('2026-11-23T10:00:01', { zone }).toMillis();

	it.each([
		'23/11/2026 10:00:01',
		'2026-11-23 10:00:01',
		' 23/11/2026 10:00:01 ',
		'2026-11-23T10:00:01',
	])('reads %j as wall-clock time in the workflow timezone', (text) =>
		expect(rowTime(text, zone)).toBe(expected),
	);

	it.each([undefined, '', 'ontem', '31/02/2026 10:00:00', 42])('has no time for %j', (value) =>
		expect(rowTime(value, zone)).toBeUndefined(),
	);

	it('reads minutes-only times (dd/mm/yyyy hh:mm) as the start of that minute', () =>
		expect(rowTime('23/11/2026 10:00', zone)).toBe(expected - 1000));

	it('reads a minutes-only time as its whole minute', () =>
		expect(rowInstants('23/11/2026 10:00', zone)).toEqual({
			earliest: expected - 1000,
			latest: expected + 58_000,
		}));

	it.each(['America/New_York', 'America/Santiago', 'Australia/Sydney', 'Pacific/Auckland'])(
		'reads every quarter hour of both DST change days in %s as every instant it can name',
		(dstZone) => {
			const changes = [3, 4, 9, 10, 11].flatMap((month) =>
				Array.from({ length: 31 }, (_, day) =>
					DateTime.fromObject({ year: 2026, month, day: day + 1 }, { zone: dstZone }),
				).filter((date) => date.isValid && date.offset !== date.plus({ days: 1 }).offset),
			);
			expect(changes).toHaveLength(2);
			let ambiguous = 0;
			for (const change of changes) {
				const day = DateTime.fromISO(change.toISODate()!, { zone: 'UTC' }).minus({ days: 1 });
				for (let minutes = 0; minutes < 72 * 60; minutes += 15) {
					const wall = day.plus({ minutes, seconds: 7 });
					const text = wall.toFormat('dd/MM/yyyy HH:mm:ss');
					// Every offset the zone uses that day, kept where it gives back the same text.
					const offsets = [change.offset, change.plus({ days: 1 }).offset];
					const readings = offsets.map((offset) => wall.toMillis() - offset * 60_000);
					const named = readings.filter(
						(instant) =>
							DateTime.fromMillis(instant, { zone: dstZone }).toFormat('dd/MM/yyyy HH:mm:ss') ===
							text,
					);
					const instants = named.length > 0 ? named : readings;
					if (new Set(named).size === 2) ambiguous++;
					const yearFirst = wall.toFormat('yyyy-MM-dd HH:mm:ss');
					const range = { earliest: Math.min(...instants), latest: Math.max(...instants) };
					expect([rowInstants(text, dstZone), rowInstants(yearFirst, dstZone)]).toEqual([
						range,
						range,
					]);
				}
			}
			// The four quarter hours of the hour that happens twice are read both ways.
			expect(ambiguous).toBe(4);
		},
	);

	it('gives each row of a poll its time, rows of the same second included', () => {
		const identify = rowIdentifier({ keyField: 'ficha', timeField: 'data' }, zone);
		const rows = [1, 2, 3].map((ficha) => ({ ficha, data: '23/11/2026 10:00:01' }));
		expect(rows.map(identify)).toEqual([
			{ key: 'ficha:1', time: expected, latest: expected },
			{ key: 'ficha:2', time: expected, latest: expected },
			{ key: 'ficha:3', time: expected, latest: expected },
		]);
		expect(identify({ ficha: 4, data: 'ontem' })).toEqual({
			key: 'ficha:4',
			time: undefined,
			latest: undefined,
		});
	});
});
