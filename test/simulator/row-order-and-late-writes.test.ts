/**
 * A dialer that lists report rows in any order and writes them after the time they carry, and the
 * rows a report trigger must tell apart: withheld-number calls alike but for the agent, a call
 * classified twice, a ficha whose status changes.
 */
import {
	startSimulator,
	type ArrivedRow,
	type DialerSimulator,
	type RowArrival,
} from '../../harness/simulator';
import { fakeClock } from '../support/clock';
import { brazilianTime, compact, lastMinutes, reportRows as rowsOf, type Loose } from './helpers';

// Tests that move the dialer's clock themselves (fakeClock) give it back after.
afterEach(() => jest.useRealTimers());

/** Each report with fields that select the rows `arrival` adds to it. */
function reports(sim: DialerSimulator) {
	const [agent, otherAgent] = [sim.data.agents[2], sim.data.agents[3]];
	const route = sim.data.inboundRoutes[0];
	return [
		{ arrival: { report: 'getFP1', form: 41 }, fields: { form: '41' } },
		{ arrival: { report: 'getRQ4', agent: agent.id }, fields: { agente: String(agent.id) } },
		{
			arrival: { report: 'getHC2', agent: otherAgent.id },
			fields: { tipo_entidade: 'A', ramal_agente: otherAgent.login },
		},
		{ arrival: { report: 'getRE2', route: route.id }, fields: { rotaEntrada: String(route.id) } },
	] as Array<{ arrival: RowArrival; fields: Record<string, string> }>;
}

describe('rows listed in a shuffled order', () => {
	let sim: DialerSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ fichas: 20, calls: 20, rowOrder: 'shuffled' });
	});
	afterAll(() => sim?.close());

	it('lists the same rows of every report in another order from one answer to the next', async () => {
		for (const { arrival, fields } of reports(sim)) {
			sim.rows.add({ ...arrival, count: 8, at: Date.now() - 60_000, stepMs: 1000 });
			const orders = new Set<string>();
			const contents = new Set<string>();
			for (let read = 0; read < 6; read++) {
				const rows = await rowsOf(sim, arrival.report, { ...fields, ...lastMinutes(5) });
				expect(rows).toHaveLength(8);
				orders.add(JSON.stringify(rows));
				contents.add(JSON.stringify(rows.map((row) => JSON.stringify(row)).sort()));
			}
			// 8 rows: six reads in one order would happen once in 40,320^5.
			expect(orders.size).toBeGreaterThan(1);
			expect(contents.size).toBe(1);
		}
	});
});

it('lists rows in the order they were written by default, the same in every answer', async () => {
	const sim = await startSimulator({ fichas: 20, calls: 20 });
	try {
		const added = sim.rows.add({ report: 'getFP1', form: 41, count: 6, at: Date.now() - 60_000 });
		const reads = [
			await rowsOf(sim, 'getFP1', { form: '41', ...lastMinutes(5) }),
			await rowsOf(sim, 'getFP1', { form: '41', ...lastMinutes(5) }),
		];
		for (const rows of reads)
			expect(rows.map((row) => row.ficha)).toEqual(added.map((row) => String(row.id)));
	} finally {
		await sim.close();
	}
});

describe('rows written late', () => {
	const BOUND_MS = 3000;
	let sim: DialerSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ fichas: 20, calls: 20, lateWritesMs: BOUND_MS });
	});
	afterAll(() => sim?.close());

	it('shows each row of every report only once written, within the bound after its time', async () => {
		fakeClock();
		const added = new Map<string, ArrivedRow[]>();
		for (const { arrival, fields } of reports(sim)) {
			const rows = sim.rows.add({ ...arrival, count: 12 });
			added.set(arrival.report, rows);
			for (const row of rows) {
				expect(row.visibleFrom - row.at).toBeGreaterThanOrEqual(0);
				expect(row.visibleFrom - row.at).toBeLessThanOrEqual(BOUND_MS);
			}
			// The clock stands still during the read: exactly the rows written by then.
			const shown = await rowsOf(sim, arrival.report, { ...fields, ...lastMinutes(1) });
			const written = rows.filter((row) => row.visibleFrom <= Date.now());
			expect(shown.length).toBe(written.length);
			expect(shown.length).toBeLessThan(rows.length);
		}
		jest.setSystemTime(Date.now() + BOUND_MS);
		for (const { arrival, fields } of reports(sim)) {
			const shown = await rowsOf(sim, arrival.report, { ...fields, ...lastMinutes(1) });
			expect(shown).toHaveLength(added.get(arrival.report)!.length);
		}
	}, 20_000);

	it('writes a row added to be written later no earlier than asked', () => {
		fakeClock();
		const now = Date.now();
		const [row] = sim.rows.add({ report: 'getRE2', at: now - 60_000, visibleAfterMs: 5000 });
		expect(row.visibleFrom).toBeGreaterThanOrEqual(now + 5000);
	});
});

describe('rows a report trigger must tell apart', () => {
	let sim: DialerSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ fichas: 20, calls: 20 });
	});
	afterAll(() => sim?.close());

	it('lists two calls from a withheld number through one route in one second, answered by two agents', async () => {
		const [ana, bruno] = sim.data.agents;
		const route = sim.data.inboundRoutes[1];
		const at = Math.floor(Date.now() / 1000) * 1000 - 30_000;
		const call = { report: 'getRE2', caller: 'Anônimo', route: route.id, at } as const;
		sim.rows.add({ ...call, agent: ana.id });
		sim.rows.add({ ...call, agent: bruno.id, resultado: 'Venda' });
		const rows = await rowsOf(sim, 'getRE2', { rotaEntrada: String(route.id), ...lastMinutes(2) });
		const alike = rows.filter((row) => row.origem === 'Anônimo');
		expect(alike.map((row) => row.agente)).toEqual([ana.login, bruno.login]);
		expect(new Set(alike.map((row) => `${row.data_hora} ${row.roteamento}`)).size).toBe(1);
		expect(alike[1].resultado).toBe('Venda');
	});

	it('lists a call classified again as a second row: same protocol, its own time and result', async () => {
		fakeClock();
		const agent = sim.data.agents[4];
		const at = Math.floor(Date.now() / 1000) * 1000 - 90_000;
		const [first] = sim.rows.add({ report: 'getRQ4', agent: agent.id, at, resultado: 'Retornar' });
		const [again] = sim.rows.add({
			report: 'getRQ4',
			protocolo: first.protocolo,
			at: at + 40_000,
			resultado: 'Venda',
			visibleAfterMs: 300,
		});
		expect(again).toMatchObject({ report: 'getRQ4', id: first.id, protocolo: first.protocolo });
		const fields = { agente: String(agent.id), ...lastMinutes(3) };
		const before = await rowsOf(sim, 'getRQ4', fields);
		expect(before.filter((row) => row.protocolo === first.protocolo)).toHaveLength(1);
		jest.setSystemTime(Date.now() + 300);
		const rows = (await rowsOf(sim, 'getRQ4', fields)).filter(
			(row) => row.protocolo === first.protocolo,
		);
		expect(rows.map((row) => [row.datahora, row.resultado])).toEqual([
			[brazilianTime(at), 'Retornar'],
			[brazilianTime(at + 40_000), 'Venda'],
		]);
		const call = (row: Loose) => ({ ...row, datahora: undefined, resultado: undefined });
		expect(call(rows[1])).toEqual(call(rows[0]));
		// A period that holds only the later classification lists only it.
		const later = await rowsOf(sim, 'getRQ4', {
			agente: String(agent.id),
			de: compact(new Date(at + 20_000)),
			ate: compact(new Date()),
		});
		expect(
			later.filter((row) => row.protocolo === first.protocolo).map((row) => row.resultado),
		).toEqual(['Venda']);
	});

	it('lists a ficha whose status changed once, with its new status', async () => {
		const [ficha] = sim.rows.add({ report: 'getFP1', form: 43, status: 'Pendente' });
		const fields = { form: '43', ...lastMinutes(1) };
		const before = (await rowsOf(sim, 'getFP1', fields)).filter(
			(row) => row.ficha === String(ficha.id),
		);
		expect(before.map((row) => row.status)).toEqual(['Pendente']);
		const [changed] = sim.rows.add({ report: 'getFP1', ficha: ficha.id, status: 'Finalizada' });
		expect(changed).toMatchObject({ report: 'getFP1', id: ficha.id, at: ficha.at });
		const after = (await rowsOf(sim, 'getFP1', fields)).filter(
			(row) => row.ficha === String(ficha.id),
		);
		expect(after).toEqual([{ ...before[0], status: 'Finalizada' }]);
	});

	it.each([
		[{ report: 'getRQ4', protocolo: '000' }, /No classified call with protocolo 000/],
		[{ report: 'getFP1', ficha: 999_999, status: 'Finalizada' }, /No ficha 999999/],
		[{ report: 'getFP1', ficha: 1 }, /"status"/],
	] as Array<[RowArrival, RegExp]>)('refuses %j naming the problem', (arrival, message) => {
		expect(() => sim.rows.add(arrival)).toThrow(message);
	});
});

it.each([
	[{ rowOrder: 'sideways' as never }, /rowOrder/],
	[{ lateWritesMs: -1 }, /lateWritesMs/],
])('refuses to start with %j', async (options, message) => {
	await expect(startSimulator({ fichas: 1, calls: 1, ...options })).rejects.toThrow(message);
});

describe('a ficha saved again later, as each dialer the contract allows does it', () => {
	const MINUTE = 60_000;
	/** A ficha filled 30 minutes ago, saved again with another status 10 minutes ago. */
	async function savedAgain(fichaSaves: 'fixed' | 'redated' | 'filteredBySave') {
		const sim = await startSimulator({ fichas: 20, calls: 20, fichaSaves });
		const now = Math.floor(Date.now() / 1000) * 1000;
		const [ficha] = sim.rows.add({
			report: 'getFP1',
			form: 43,
			status: 'Pendente',
			at: now - 30 * MINUTE,
		});
		sim.rows.add({
			report: 'getFP1',
			ficha: ficha.id,
			status: 'Finalizada',
			at: now - 10 * MINUTE,
		});
		const listed = async (de: number, ate: number) =>
			(
				await rowsOf(sim, 'getFP1', {
					form: '43',
					de: compact(new Date(de)),
					ate: compact(new Date(ate)),
				})
			)
				.filter((row) => row.ficha === String(ficha.id))
				.map((row) => `${row.data} ${row.status}`);
		const filled = `${brazilianTime(now - 30 * MINUTE)} Finalizada`;
		try {
			return {
				filled,
				saved: `${brazilianTime(now - 10 * MINUTE)} Finalizada`,
				atFilling: await listed(now - 31 * MINUTE, now - 29 * MINUTE),
				atSave: await listed(now - 11 * MINUTE, now - 9 * MINUTE),
			};
		} finally {
			await sim.close();
		}
	}

	it('fixed (default): keeps its data, and de/ate select it by that data', async () => {
		const { filled, atFilling, atSave } = await savedAgain('fixed');
		expect([atFilling, atSave]).toEqual([[filled], []]);
	});

	it('redated: moves its data to the save, where de/ate select it', async () => {
		const { saved, atFilling, atSave } = await savedAgain('redated');
		expect([atFilling, atSave]).toEqual([[], [saved]]);
	});

	it('filteredBySave: keeps its data, and de/ate select it by its last save', async () => {
		const { filled, atFilling, atSave } = await savedAgain('filteredBySave');
		expect([atFilling, atSave]).toEqual([[], [filled]]);
	});

	it('refuses another value', async () => {
		await expect(startSimulator({ fichaSaves: 'sometimes' as 'fixed' })).rejects.toThrow(
			/fichaSaves must be one of fixed, redated, filteredBySave/,
		);
	});
});
