/**
 * Attacks on the Report Trigger's exactly-once reading (commit 2e619e2), with inputs the dialer
 * contract (shared/spec/dialer-api.md) allows: any row order, rows written late (within the
 * Overlap Window), equal rows, Max Rows per Poll cutting reads, rows without a readable time,
 * times without seconds, clock changes, numbers as number or text, key values of any JSON type.
 *
 * What one new row is (the definition these tests hold the trigger to):
 * - getFP1 (New Filled Form): a ficha, by its ficha number; a status or other change keeps it one
 *   ficha; 5, "5" and " 5 " are one ficha number.
 * - getRQ4 (New Classification Result): a classification: protocol + time + result + agent + number
 *   + prospect code; the same call classified again later with another result is a new row; rows
 *   equal in all of these are counted one by one.
 * - getRE2 (New Inbound Call): an inbound call: every field written with it except `resultado`
 *   (classified later); two withheld-number calls in one second through one route differ by
 *   agent; rows equal in all of these are counted one by one.
 * - getHC2 (New Call in History): a call, by its protocol; without one, by its other fields; a call
 *   listed first without a protocol and then with one is one call.
 * Each new row is emitted exactly once across polls, whatever order each read lists rows in.
 *
 * The dialer here is the contract's: a read lists the rows already written whose time lies within
 * de..ate (compared to the second, as the dialer knows the time, also when it writes it without
 * seconds, "not shown" leaving either open), in any order.
 */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import {
	absorbRead,
	pollReport,
	resumeState,
	startState,
	type CursorSettings,
	type CursorState,
	type ReadWindow,
} from '../../../nodes/DialerReportTrigger/cursor';
import { RULES, type Report } from '../support/reportRules';
import { rowIdentifier, rowKeys } from '../../../nodes/DialerReportTrigger/rowIdentity';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A row the dialer holds: when it happened, when it was written, how it is listed. */
interface Written {
	/** Names the truth row: copies equal in every field have ids of their own. */
	id: string;
	/** When it happened (epoch ms): the dialer's filter compares this, to the second. */
	at: number;
	/** From then on reads list it. */
	writtenAt: number;
	/** Its fields as listed from `from` on (the time text included), oldest first. */
	versions: Array<{ from: number; fields: IDataObject }>;
}

/** The contract's dialer: rows written by `now` whose time lies within de..ate, in any order. */
class Dialer {
	readonly rows: Written[] = [];
	readonly reads: ReadWindow[] = [];
	/** Which truth row each listed object stands for. */
	readonly listedAs = new WeakMap<object, string>();
	private turn = 0;

	constructor(private readonly zone: string) {}

	write(row: Written): void {
		this.rows.push(row);
	}

	reader(now: number) {
		return async (read: ReadWindow): Promise<IDataObject[]> => {
			this.reads.push(read);
			const answer = this.rows
				.filter((row) => row.writtenAt <= now)
				.filter((row) => {
					const text = DateTime.fromMillis(row.at, { zone: this.zone }).toFormat('yyyyMMddHHmmss');
					return text >= read.de && text <= read.ate;
				})
				.map((row) => {
					const { fields } = row.versions.filter((version) => version.from <= now).at(-1)!;
					const listed = { ...fields };
					this.listedAs.set(listed, row.id);
					return listed;
				});
			// Another order each read: reversed every other read.
			if (this.turn++ % 2) answer.reverse();
			return answer;
		};
	}
}

/** Polls like n8n, the state through JSON after each poll; records what each row got emitted. */
class Trigger {
	state: CursorState;
	readonly emitted: string[] = [];

	constructor(
		private readonly dialer: Dialer,
		private readonly report: Report,
		readonly settings: CursorSettings,
		start: number,
	) {
		this.state = startState(report, null, start);
	}

	async poll(now: number): Promise<string[]> {
		const identify = rowIdentifier(RULES[this.report], this.settings.zone);
		const result = await pollReport(
			this.state,
			now,
			this.settings,
			this.dialer.reader(now),
			identify,
		);
		this.state = JSON.parse(JSON.stringify(result.state)) as CursorState;
		const ids = result.emit.map((row) => this.dialer.listedAs.get(row)!);
		this.emitted.push(...ids);
		return ids;
	}

	/** Polls every `every` ms from `from` to `to`. */
	async pollEvery(from: number, to: number, every = MINUTE): Promise<void> {
		for (let now = from; now <= to; now += every) await this.poll(now);
	}

	/** How many times each truth row was emitted. */
	counts(): Record<string, number> {
		const counts: Record<string, number> = {};
		for (const id of this.emitted) counts[id] = (counts[id] ?? 0) + 1;
		return counts;
	}
}

const zone = 'America/Sao_Paulo';
/** 09:00:00 in São Paulo on 2026-11-25 (no clock changes there since 2019). */
const nine = DateTime.fromISO('2026-11-25T09:00:00', { zone }).toMillis();
const settings: CursorSettings = { zone, overlapMs: 10 * MINUTE, maxRows: 1000 };

const wall = (at: number, format: string, z = zone) =>
	DateTime.fromMillis(at, { zone: z }).toFormat(format);
const dayFirst = (at: number) => wall(at, 'dd/MM/yyyy HH:mm:ss');
const dayFirstMinute = (at: number) => wall(at, 'dd/MM/yyyy HH:mm');
const yearFirst = (at: number) => wall(at, 'yyyy-MM-dd HH:mm:ss');
const yearFirstMinute = (at: number) => wall(at, 'yyyy-MM-dd HH:mm');

/** A call in history (getHC2) as the trigger lists it: call fields plus the envelope. */
const historyCall = (fields: IDataObject): IDataObject => ({
	tipo: 'Recebida',
	numero: '(11) 3333-4444',
	duracao_segundos: 42,
	duracao: '00:00:42',
	desligada_por: '1',
	protocolo: '',
	ramal_agente: '1001',
	de: '25/11/2026 08:50',
	ate: '25/11/2026 09:00',
	...fields,
});

const classification = (fields: IDataObject): IDataObject => ({
	agente: 'Ana',
	fila: 'Vendas',
	codigo: '881',
	numero: '11933334444',
	resultado: 'Retornar',
	protocolo: '555',
	...fields,
});

/** Writes a row that never changes. */
const once = (id: string, at: number, writtenAt: number, fields: IDataObject): Written => ({
	id,
	at,
	writtenAt,
	versions: [{ from: writtenAt, fields }],
});

describe('bugs: rows emitted twice or never', () => {
	it.each([
		['false', false],
		['true', true],
		['an empty list []', []],
		['an empty object {}', {}],
	])(
		'New Call in History: two different calls whose protocol the dialer sends as %s are two calls, both emitted',
		async (_, protocolo) => {
			const dialer = new Dialer(zone);
			const trigger = new Trigger(dialer, 'getHC2', settings, nine);
			const at = nine + 5 * SECOND;
			dialer.write(once('a', at, at, historyCall({ horario: yearFirst(at), protocolo })));
			const later = nine + 30 * SECOND;
			dialer.write(
				once(
					'b',
					later,
					later,
					historyCall({ horario: yearFirst(later), numero: '(11) 5555-0000', protocolo }),
				),
			);
			await trigger.pollEvery(nine + 10 * SECOND, nine + 5 * MINUTE);
			expect(trigger.counts()).toEqual({ a: 1, b: 1 });
		},
	);

	it('New Filled Form: a ficha number sent as false for two fichas does not make them one ficha', async () => {
		// Not a ficha number: the fichas are told apart by what they were written with.
		const rule = RULES.getFP1;
		const ana = { ficha: false, data: '25/11/2026 09:00:05', agente: 'ana', codigo: '1' };
		const bruno = { ...ana, agente: 'bruno', codigo: '2' };
		expect(rowKeys(ana, rule).key).not.toBe(rowKeys(bruno, rule).key);
	});

	it('New Call in History: a call emitted without its protocol, then listed with it beside a new call the same in all other fields, gets one more emission, not two', async () => {
		// X is emitted without a protocol. Then the dialer lists X with protocol P1 and a second call
		// Y of the same second, number, duration and hang-up code, with P2, written late. One new call
		// (Y): the trigger emits both P1 and P2, so X reaches the workflow twice.
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getHC2', settings, nine);
		const at = nine + 5 * SECOND;
		const fields = historyCall({ horario: yearFirst(at) });
		dialer.write({
			id: 'x',
			at,
			writtenAt: at,
			versions: [
				{ from: at, fields },
				{ from: nine + 40 * SECOND, fields: { ...fields, protocolo: '2026112500001' } },
			],
		});
		dialer.write(once('y', at, nine + 40 * SECOND, { ...fields, protocolo: '2026112500002' }));
		await trigger.pollEvery(nine + 10 * SECOND, nine + 5 * MINUTE, 30 * SECOND);
		expect(trigger.emitted).toHaveLength(2);
		expect(trigger.counts().x).toBe(1);
	});

	it('New Call in History: two calls the same in every field, one emitted without its protocol while Max Rows per Poll held the other back, both later with protocols: two emissions in all, not three', async () => {
		// Found by model.test.ts with PROPERTY_RUNS_SCALE=5 (getHC2, UTC, Max Rows 2, restarts).
		// X and Y are equal calls of one second. The first poll lists another call Z, X already with
		// P1 and Y without a protocol; Max Rows per Poll = 2 lets Z and Y through. The next lists X
		// (P1) and Y (P2): one copy without a protocol was emitted, two come with one, and the
		// trigger emits both.
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getHC2', { ...settings, maxRows: 2 }, nine);
		const at = nine + 5 * SECOND;
		const fields = historyCall({ horario: yearFirst(at) });
		const z = nine + 2 * SECOND;
		dialer.write(once('z', z, z, historyCall({ horario: yearFirst(z), numero: '(11) 5555-0000' })));
		dialer.write({
			id: 'x',
			at,
			writtenAt: at,
			versions: [
				{ from: at, fields },
				{ from: nine + 20 * SECOND, fields: { ...fields, protocolo: '2026112500001' } },
			],
		});
		dialer.write({
			id: 'y',
			at,
			writtenAt: nine + 20 * SECOND,
			versions: [
				{ from: nine + 20 * SECOND, fields },
				{ from: nine + 40 * SECOND, fields: { ...fields, protocolo: '2026112500002' } },
			],
		});
		await trigger.pollEvery(nine + 30 * SECOND, nine + 10 * MINUTE, 20 * SECOND);
		expect(trigger.counts().z).toBe(1);
		// X and Y are equal but for the protocol: which an item is cannot be told, only how many.
		expect(trigger.emitted.filter((id) => id !== 'z')).toHaveLength(2);
	});

	it('New Classification Result: in a dialer writing times without seconds, a third classification the same as two others, written late, is emitted', async () => {
		// Three classifications equal in every field in the minute 09:00 (at :10, :50 and :55; the
		// last written 9 min 45 s late, within the 10-min Overlap Window). A read from 09:00:30 lists
		// the second and third only; the trigger counts them against the two it remembers for
		// "09:00" and emits nothing, and then the minute leaves the reads: the third is never emitted.
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getRQ4', settings, nine);
		const row = classification({ datahora: dayFirstMinute(nine) });
		dialer.write(once('first', nine + 10 * SECOND, nine + 10 * SECOND, row));
		dialer.write(once('second', nine + 50 * SECOND, nine + 50 * SECOND, row));
		dialer.write(once('third', nine + 55 * SECOND, nine + 10 * MINUTE + 40 * SECOND, row));
		for (const offset of [20, 60, 630, 645, 660, 690]) await trigger.poll(nine + offset * SECOND);
		await trigger.pollEvery(nine + 12 * MINUTE, nine + 30 * MINUTE);
		// Copies equal in every field: which of them an emitted item is cannot be told, only how many.
		expect(trigger.emitted).toHaveLength(3);
	});

	it('New Call in History: in a dialer writing times without seconds, a new call with a protocol, the same in all other fields as an earlier call without one, is emitted', async () => {
		// X (09:00:10) has no protocol and is emitted. Y (09:00:50, written late) is another call of
		// that minute with protocol P. A read from 09:00:30 lists Y but not X: the trigger takes Y
		// for X having got its protocol and never emits it.
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getHC2', settings, nine);
		const fields = historyCall({ horario: yearFirstMinute(nine) });
		dialer.write(once('x', nine + 10 * SECOND, nine + 10 * SECOND, fields));
		dialer.write(
			once('y', nine + 50 * SECOND, nine + 10 * MINUTE + 40 * SECOND, {
				...fields,
				protocolo: '2026112500002',
			}),
		);
		for (const offset of [20, 630, 645, 660, 690]) await trigger.poll(nine + offset * SECOND);
		await trigger.pollEvery(nine + 12 * MINUTE, nine + 30 * MINUTE);
		expect(trigger.counts()).toEqual({ x: 1, y: 1 });
	});

	it('New Filled Form: fichas without a readable date, left over by Max Rows per Poll while catching up, are emitted on later polls', async () => {
		// After a 3-hour outage the first catch-up read (an hour) lists three fichas whose date the
		// dialer leaves empty (their time, as the dialer knows it, is 09:05-09:15). Max Rows per
		// Poll = 1: one is emitted and the cursor moves to the end of the read, so the other two are
		// never read again.
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getFP1', { ...settings, maxRows: 1 }, nine);
		for (const n of [1, 2, 3]) {
			const at = nine + 5 * n * MINUTE;
			dialer.write(once(`ficha${n}`, at, at, { ficha: String(n), data: '', agente: 'ana' }));
		}
		await trigger.pollEvery(nine + 3 * HOUR, nine + 4 * HOUR);
		expect(trigger.counts()).toEqual({ ficha1: 1, ficha2: 1, ficha3: 1 });
	});
});

describe('performance of a read (absorbRead)', () => {
	const read: ReadWindow = { from: nine, to: nine + HOUR, de: '', ate: '' };
	const wide: CursorSettings = { ...settings, maxRows: 1_000_000 };
	const rule = RULES.getHC2;
	const call = (n: number, protocolo: string) =>
		historyCall({
			horario: yearFirst(nine + (n % 3600) * SECOND),
			numero: `(11) 3${String(n).padStart(4, '0')}-4444`,
			protocolo,
		});
	const keyless = Array.from({ length: 10_000 }, (_, n) => call(n, ''));
	const keyed = Array.from({ length: 10_000 }, (_, n) => call(n, String(2026112500000 + n)));

	/** Median CPU ms of `runs` runs. */
	function cpuMs(run: () => void, runs = 5): number {
		run();
		const times: number[] = [];
		for (let i = 0; i < runs; i++) {
			const before = process.cpuUsage();
			run();
			const used = process.cpuUsage(before);
			times.push((used.user + used.system) / 1000);
		}
		return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
	}

	it('10,000 calls that came without a protocol and now come with one take about as long as 10,000 new calls, not many times longer', () => {
		const empty = startState('newCallInHistory', null, nine);
		const fresh = cpuMs(() =>
			absorbRead(empty, read, keyless, rowIdentifier(rule, zone), 1e6, wide),
		);
		const remembered = absorbRead(empty, read, keyless, rowIdentifier(rule, zone), 1e6, wide).state;
		const outcome = absorbRead(remembered, read, keyed, rowIdentifier(rule, zone), 1e6, wide);
		expect(outcome.emit).toHaveLength(0);
		const claimed = cpuMs(
			() => absorbRead(remembered, read, keyed, rowIdentifier(rule, zone), 1e6, wide),
			3,
		);
		console.log(
			`10,000 new keyless calls: ${fresh.toFixed(0)} ms CPU; 10,000 claimed: ${claimed.toFixed(0)} ms CPU`,
		);
		expect(claimed).toBeLessThan(3 * fresh);
	});
});

describe('attacks that held', () => {
	it('New Filled Form: a ficha number sent as 5, then "5", then " 5 " is one ficha, in any order, with its status changing', async () => {
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getFP1', settings, nine);
		const at = nine + 5 * SECOND;
		const base = { data: dayFirst(at), agente: 'ana', codigo: '7', status: 'Pendente' };
		dialer.write({
			id: 'five',
			at,
			writtenAt: at,
			versions: [
				{ from: at, fields: { ...base, ficha: 5 } },
				{ from: nine + 40 * SECOND, fields: { ...base, ficha: '5', status: 'Finalizada' } },
				{ from: nine + 70 * SECOND, fields: { ...base, ficha: ' 5 ', status: 'Finalizada' } },
			],
		});
		await trigger.pollEvery(nine + 10 * SECOND, nine + 20 * MINUTE, 15 * SECOND);
		expect(trigger.counts()).toEqual({ five: 1 });
	});

	it('12.5 and "12.50", 42 and "42", null, "" and missing read alike in what tells rows apart', () => {
		const rule = RULES.getRE2;
		const call = {
			data_hora: '25/11/2026 09:00:05',
			origem: 'Anônimo',
			roteamento: 'Central',
			prospect: 'Novo',
			tipo_destino: 'Fila',
			destino: 'Suporte',
			status: 'AT',
			tempo_fila: 12.5,
			tempo_atendimento: 42,
			agente: null,
		};
		const key = rowKeys(call, rule).key;
		expect(rowKeys({ ...call, tempo_fila: '12.50', tempo_atendimento: '42' }, rule).key).toBe(key);
		expect(rowKeys({ ...call, agente: '' }, rule).key).toBe(key);
		const missing: IDataObject = { ...call };
		delete missing.agente;
		expect(rowKeys(missing, rule).key).toBe(key);
		// Leading zeros name another value ("007" is a code).
		expect(rowKeys({ ...call, tempo_atendimento: '042' }, rule).key).not.toBe(key);
	});

	it('a digest key never meets a key-field key', () => {
		const rule = RULES.getHC2;
		const keyless = rowKeys(historyCall({ horario: '2026-11-25 09:00:05' }), rule);
		const keyed = rowKeys(historyCall({ horario: '2026-11-25 09:00:05', protocolo: '9' }), rule);
		expect(keyless.key).not.toContain(':');
		expect(keyed.key).toBe('protocolo:9');
		expect(keyed.keylessKey?.()).toBe(keyless.key);
	});

	it('New Inbound Call: many equal calls written at different times within the Overlap Window, Max Rows per Poll = 1, any order: each emitted once', async () => {
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getRE2', { ...settings, maxRows: 1 }, nine);
		const at = nine + 5 * SECOND;
		const call = {
			data_hora: dayFirst(at),
			origem: 'Anônimo',
			roteamento: 'Central',
			prospect: 'Novo',
			tipo_destino: 'Fila',
			destino: 'Suporte',
			status: 'AT',
			tempo_fila: 4,
			tempo_atendimento: 80,
			agente: 'ana',
			resultado: '',
		};
		for (let n = 0; n < 8; n++) {
			dialer.write(
				once(`c${n}`, at, at + n * 70 * SECOND, n % 2 ? { ...call, tempo_fila: '4' } : call),
			);
		}
		await trigger.pollEvery(nine + 10 * SECOND, nine + 40 * MINUTE, 20 * SECOND);
		// Copies equal in every field: which of them an emitted item is cannot be told, only how many.
		expect(trigger.emitted).toHaveLength(8);
	});

	it('New Classification Result: equal classifications at 01:30 before and after clocks go back (New York), Max Rows per Poll = 1: each emitted once', async () => {
		const york = 'America/New_York';
		const dialer = new Dialer(york);
		const first = DateTime.fromISO('2026-11-01T01:30:00-04:00').toMillis();
		const second = first + HOUR;
		expect(wall(first, 'HH:mm', york)).toBe(wall(second, 'HH:mm', york));
		const row = classification({ datahora: wall(first, 'dd/MM/yyyy HH:mm:ss', york) });
		dialer.write(once('edt1', first, first, row));
		dialer.write(once('edt2', first, first + 3 * MINUTE, row));
		dialer.write(once('est1', second, second, row));
		dialer.write(once('est2', second, second + 5 * MINUTE, row));
		const trigger = new Trigger(
			dialer,
			'getRQ4',
			{ zone: york, overlapMs: 10 * MINUTE, maxRows: 1 },
			first - 10 * MINUTE,
		);
		await trigger.pollEvery(first - 5 * MINUTE, second + 3 * HOUR, 30 * SECOND);
		expect(trigger.emitted).toHaveLength(4);
	});

	it('New Filled Form: fichas without a readable date (empty, missing, another format) are emitted once over many polls when Max Rows per Poll does not cut', async () => {
		const dialer = new Dialer(zone);
		const trigger = new Trigger(dialer, 'getFP1', settings, nine);
		const dates: Array<string | undefined> = [
			'',
			undefined,
			'25-11-2026 09:07',
			'2026/11/25 09:09:00',
		];
		for (const [n, data] of dates.entries()) {
			const at = nine + (n + 1) * 2 * MINUTE;
			const fields: IDataObject = { ficha: String(n), agente: 'ana' };
			if (data !== undefined) fields.data = data;
			dialer.write(once(`ficha${n}`, at, at + 3 * MINUTE, fields));
		}
		await trigger.pollEvery(nine + 30 * SECOND, nine + 40 * MINUTE, 30 * SECOND);
		expect(trigger.counts()).toEqual({ ficha0: 1, ficha1: 1, ficha2: 1, ficha3: 1 });
	});

	it('state saved as JSON goes on; a state of another event or a broken one starts over', () => {
		const state = startState('newCallInHistory', null, nine);
		const outcome = absorbRead(
			state,
			{ from: nine, to: nine + MINUTE, de: '', ate: '' },
			[historyCall({ horario: yearFirst(nine + 5 * SECOND) })],
			rowIdentifier(RULES.getHC2, zone),
			10,
			settings,
		);
		const stored = JSON.parse(JSON.stringify(outcome.state)) as unknown;
		expect(resumeState(stored, 'newCallInHistory', null, nine + 2 * MINUTE, 10 * MINUTE)).toEqual(
			outcome.state,
		);
		expect(resumeState(stored, 'newInboundCall', null, nine + 2 * MINUTE, 10 * MINUTE)).toEqual(
			startState('newInboundCall', null, nine + 2 * MINUTE - 10 * MINUTE),
		);
		for (const broken of [
			null,
			'x',
			{ ...outcome.state, seen: { 1: 'k' } },
			{ ...outcome.state, cursor: 'x' },
		]) {
			expect(resumeState(broken, 'newCallInHistory', null, nine, MINUTE).seen).toEqual({});
		}
	});
});
