/** What one row of each report is to the report trigger, and how it tells rows apart. */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import * as callHistory from '../../../nodes/shared/reports/callHistory';
import * as classificationResults from '../../../nodes/shared/reports/classificationResults';
import * as filledForms from '../../../nodes/shared/reports/filledForms';
import * as inboundCalls from '../../../nodes/shared/reports/inboundCalls';
import {
	canonicalValue,
	rowIdentifier,
	rowKeys,
} from '../../../nodes/DialerReportTrigger/rowIdentity';

const keyOf = (row: IDataObject, rule = callHistory.rowSource.identity) => rowKeys(row, rule).key;

const inboundCall = {
	data_hora: '25/11/2026 09:00:05',
	origem: 'Anônimo',
	roteamento: 'Central',
	prospect: 'Novo',
	tipo_destino: 'Fila',
	destino: 'Suporte',
	status: 'AT',
	tempo_fila: 12,
	tempo_atendimento: 95,
	agente: 'ana',
	resultado: '',
};
const classification = {
	datahora: '25/11/2026 09:00:05',
	agente: 'Ana',
	fila: 'Vendas',
	codigo: '881',
	numero: '11933334444',
	resultado: 'Retornar',
	protocolo: '555',
	arquivo: 'https://dialer.example/rec/555.mp3',
};
const historyCall = {
	horario: '2026-11-25 09:00:05',
	tipo: 'Recebida',
	numero: '(11) 3333-4444',
	duracao_segundos: 42,
	duracao: '00:00:42',
	desligada_por: '1',
	protocolo: '',
	ramal_agente: '1001',
	de: '25/11/2026 08:50',
	ate: '25/11/2026 09:00',
};

describe('one new row of each report', () => {
	it('New Filled Form: a ficha is one row whatever its status becomes', () => {
		const rule = filledForms.rowSource.identity;
		const ficha = { ficha: '7', data: '25/11/2026 09:00:05', agente: 'ana', status: 'Pendente' };
		expect(rowKeys(ficha, rule)).toMatchObject({ key: 'ficha:7', unique: true });
		expect(keyOf({ ...ficha, status: 'Finalizada', pontos: '3' }, rule)).toBe('ficha:7');
	});

	it('New Classification Result: a call classified again (another time, another result) is another row', () => {
		const rule = classificationResults.rowSource.identity;
		const again = { ...classification, datahora: '25/11/2026 09:00:45', resultado: 'Venda' };
		expect(rowKeys(classification, rule).unique).toBe(false);
		expect(keyOf(again, rule)).not.toBe(keyOf(classification, rule));
		// A recording link the dialer signs anew for each read changes nothing.
		expect(
			keyOf({ ...classification, arquivo: 'https://dialer.example/rec/555.mp3?t=2' }, rule),
		).toBe(keyOf(classification, rule));
	});

	it('New Inbound Call: two calls from a withheld number in one second through one route differ in who answered', () => {
		const rule = inboundCalls.rowSource.identity;
		expect(keyOf({ ...inboundCall, agente: 'bruno' }, rule)).not.toBe(keyOf(inboundCall, rule));
		// The result the agent classifies after the call is no other call.
		expect(keyOf({ ...inboundCall, resultado: 'Venda' }, rule)).toBe(keyOf(inboundCall, rule));
	});

	it('New Call in History: a call is its protocol, or what the call was while it has none; the range read is not part of it', () => {
		const rule = callHistory.rowSource.identity;
		const keyless = rowKeys(historyCall, rule);
		expect(keyless.unique).toBe(false);
		expect(keyOf({ ...historyCall, de: '25/11/2026 08:55', ate: '25/11/2026 09:05' })).toBe(
			keyless.key,
		);
		expect(keyOf({ ...historyCall, numero: '(11) 3333-4445' })).not.toBe(keyless.key);
		// With its protocol the call is that protocol, and still knows the key it had without it.
		const keyed = rowKeys({ ...historyCall, protocolo: '2026112500042' }, rule);
		expect(keyed).toMatchObject({ key: 'protocolo:2026112500042', unique: true });
		expect(keyed.keylessKey?.()).toBe(keyless.key);
	});
});

describe('values the dialer sends one way in one read and another way in the next', () => {
	it.each([
		[42, '42'],
		[0, '0'],
		[-3, '-3'],
		[12.5, '12.5'],
		[12.5, '12.50'],
		[7, '7.0'],
		['Ana', ' Ana '],
		[null, ''],
		[undefined, ''],
	])('read %j and %j as the same value', (one, other) =>
		expect(canonicalValue(one)).toBe(canonicalValue(other)),
	);

	it.each([
		[7, '007'],
		['0800', '800'],
		// Digit strings longer than a double holds keep every digit: two protocols never merge.
		['20261125000000000001', '20261125000000000002'],
		['Ana', 'ana'],
	])('keep %j and %j apart', (one, other) =>
		expect(canonicalValue(one)).not.toBe(canonicalValue(other)),
	);

	it('give a row the same key whichever way its fields come', () => {
		expect(keyOf({ ...historyCall, duracao_segundos: '42', numero: ' (11) 3333-4444 ' })).toBe(
			keyOf(historyCall),
		);
		const rule = filledForms.rowSource.identity;
		expect([5, '5', ' 5 '].map((ficha) => keyOf({ ficha }, rule))).toEqual([
			'ficha:5',
			'ficha:5',
			'ficha:5',
		]);
	});
});

it('gives each row of a poll its time, rows of the same second included', () => {
	const zone = 'America/Sao_Paulo';
	const expected = DateTime.fromISO('2026-11-23T10:00:01', { zone }).toMillis();
	const identify = rowIdentifier(filledForms.rowSource.identity, zone);
	const rows = [1, 2].map((ficha) => ({ ficha, data: '23/11/2026 10:00:01' }));
	expect(rows.map(identify)).toEqual([
		expect.objectContaining({ key: 'ficha:1', time: expected, latest: expected }),
		expect.objectContaining({ key: 'ficha:2', time: expected, latest: expected }),
	]);
	expect(identify({ ficha: 4, data: 'ontem' })).toMatchObject({
		key: 'ficha:4',
		time: undefined,
		latest: undefined,
	});
});
