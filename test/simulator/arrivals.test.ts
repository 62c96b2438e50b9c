/** Report rows that appear while the simulator runs, as the report trigger's tests drive them. */
import { request } from 'undici';
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { fakeClock } from '../support/clock';
import { brazilianTime as brazilian, lastMinutes, reportRows, type Loose } from './helpers';

let sim: DialerSimulator;

beforeAll(async () => {
	sim = await startSimulator({ fichas: 50, calls: 50 });
});
afterAll(() => sim?.close());

afterEach(() => jest.useRealTimers());

const rowsOf = (operation: string, fields: Record<string, string>) =>
	reportRows(sim, operation, fields);

it('shows a ficha filled now in getFP1 of its form, with the number it was given', async () => {
	const [added] = sim.rows.add({ report: 'getFP1', form: 41 });
	expect(added).toMatchObject({ report: 'getFP1', id: sim.data.fichas.length });
	expect(added.at % 1000).toBe(0);
	const fichas = await rowsOf('getFP1', { form: '41', ...lastMinutes(1) });
	expect(fichas.map((ficha) => ficha.ficha)).toContain(String(added.id));
	expect(fichas.find((ficha) => ficha.ficha === String(added.id)).data).toBe(brazilian(added.at));
});

it('writes a classification minutes after its call: in the history at once, in getRQ4 only later, with the call time', async () => {
	fakeClock();
	const callTime = Date.now() - 4 * 60_000;
	const agent = sim.data.agents[0];
	const [added] = sim.rows.add({
		report: 'getRQ4',
		agent: agent.login,
		at: callTime,
		visibleAfterMs: 400,
	});
	const history = await rowsOf('getHC2', {
		tipo_entidade: 'A',
		ramal_agente: agent.login,
		...lastMinutes(10),
	});
	expect(history.map((call) => call.protocolo)).toContain(added.protocolo);
	const before = await rowsOf('getRQ4', { agente: String(agent.id), ...lastMinutes(10) });
	expect(before.map((row) => row.protocolo)).not.toContain(added.protocolo);

	jest.setSystemTime(Date.now() + 450);
	const after = await rowsOf('getRQ4', { agente: String(agent.id), ...lastMinutes(10) });
	const row = after.find((candidate) => candidate.protocolo === added.protocolo);
	expect(row).toMatchObject({ agente: agent.nome, datahora: brazilian(added.at) });
	expect(row.resultado).not.toBe('');
});

it('shows an inbound call in getRE2 of its route', async () => {
	const route = sim.data.inboundRoutes[0];
	const [added] = sim.rows.add({ report: 'getRE2', route: route.descricao });
	const calls = await rowsOf('getRE2', { rotaEntrada: String(route.id), ...lastMinutes(1) });
	const inbound = sim.data.inboundCalls.find((call) => call.id === added.id)!;
	expect(calls).toContainEqual(
		expect.objectContaining({ data_hora: brazilian(added.at), roteamento: route.descricao }),
	);
	expect(inbound.rotaId).toBe(route.id);
});

it('adds a call to the history of its extension with the chosen direction, unclassified', async () => {
	const agent = sim.data.agents[3];
	const [added] = sim.rows.add({ report: 'getHC2', agent: agent.id, tipo: 'Recebida' });
	const extension = sim.data.extensions.find((candidate) => candidate.numero === agent.ramal)!;
	const calls = await rowsOf('getHC2', {
		tipo_entidade: extension.tipo,
		ramal_agente: extension.numero,
		tipo: 'R',
		...lastMinutes(1),
	});
	expect(calls).toContainEqual(
		expect.objectContaining({ protocolo: added.protocolo, tipo: 'Recebida' }),
	);
	const rq4 = await rowsOf('getRQ4', lastMinutes(1));
	expect(rq4.map((row) => row.protocolo)).not.toContain(added.protocolo);
});

it('serves a late row: written now with a time earlier than rows already served', async () => {
	const window = lastMinutes(10);
	const [recent] = sim.rows.add({ report: 'getFP1', form: 42, at: Date.now() - 60_000 });
	const served = await rowsOf('getFP1', { form: '42', ...window });
	expect(served.map((ficha) => ficha.ficha)).toContain(String(recent.id));

	const [late] = sim.rows.add({ report: 'getFP1', form: 42, at: Date.now() - 5 * 60_000 });
	expect(late.at).toBeLessThan(recent.at);
	const again = await rowsOf('getFP1', { form: '42', ...window });
	expect(again.map((ficha) => ficha.ficha)).toEqual(
		expect.arrayContaining([String(recent.id), String(late.id)]),
	);
});

it('adds several rows a step apart, or all in the same second', async () => {
	const start = Math.floor(Date.now() / 1000) * 1000 - 30_000;
	const spread = sim.rows.add({ report: 'getRE2', count: 3, at: start, stepMs: 2000 });
	expect(spread.map((row) => row.at)).toEqual([start, start + 2000, start + 4000]);
	const same = sim.rows.add({ report: 'getFP1', count: 4, at: start });
	expect(new Set(same.map((row) => row.at))).toEqual(new Set([start]));
	expect(same.map((row) => row.id)).toEqual([1, 2, 3, 4].map((n) => same[0].id + n - 1));
});

describe('through the control API', () => {
	async function postRows(body: unknown): Promise<{ status: number; body: Loose }> {
		const response = await request(`${sim.baseUrl}/__simulator/rows`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.statusCode, body: await response.body.json() };
	}

	it('adds one arrival or a list and answers with the rows', async () => {
		const answer = await postRows([
			{ report: 'getFP1', form: 'Pesquisa de Satisfação', count: 2 },
			{ report: 'getHC2', at: new Date(Date.now() - 120_000).toISOString() },
		]);
		expect(answer.status).toBe(200);
		expect(answer.body.rows.map((row: Loose) => row.report)).toEqual([
			'getFP1',
			'getFP1',
			'getHC2',
		]);
		expect(answer.body.rows[2].protocolo).toMatch(/^\d{15}$/);
	});

	it.each([
		[{ report: 'getXYZ' }, /report/],
		[{ report: 'getFP1', count: -1 }, /count/],
		[{ report: 'getFP1', at: 'yesterday-ish' }, /at/],
		[{ report: 'getFP1', form: 'Formulário Inexistente' }, /Formulário não encontrado/],
	])('refuses %j with a 400 naming the problem', async (body, message) => {
		const answer = await postRows(body);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(message);
	});
});
