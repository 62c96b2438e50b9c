/** getRQ4, getHC2 and getRE2 over the seeded history, and the date rules every report shares. */
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi, lastDays, type Loose } from './helpers';

let sim: DialerSimulator;
let bare: DialerSimulator;
const week = lastDays(7);

beforeAll(async () => {
	[sim, bare] = await Promise.all([
		startSimulator({ calls: 2000 }),
		startSimulator({ envelope: 'bare' }),
	]);
});
afterAll(() => Promise.all([sim?.close(), bare?.close()]));

describe('date parameters', () => {
	it.each([
		['de blank', { de: '' }],
		['ate missing', { ate: '' }],
		['13 digits', { de: week.de.slice(0, 13) }],
		['15 digits', { de: `${week.de}0` }],
		['a dash inside', { de: '2026-11-01 00:00' }],
		['31 February', { de: '20260231000000' }],
		['month 13', { de: '20261301000000' }],
		['hour 24', { de: '20261101240000' }],
		['minute 60', { de: '20261101006000' }],
		['ate before de', { de: week.ate, ate: week.de }],
	])('are refused with 400 when %s', async (_rule, change) => {
		for (const operation of ['getRQ4', 'getRE2']) {
			const answer = await callApi(sim, operation, { ...week, ...change });
			expect(answer.status).toBe(400);
			expect(answer.json()).toEqual({ status: 'error', message: expect.any(String) });
		}
	});

	it('accept 29 February of a leap year and de equal to ate', async () => {
		expect(
			(await callApi(sim, 'getRQ4', { de: '20280229120000', ate: '20280229120000' })).status,
		).toBe(200);
	});
});

describe('getRQ4', () => {
	it('returns the classifications of the last 7 days as rows under data', async () => {
		const answer = await callApi(sim, 'getRQ4', week);
		expect(answer.status).toBe(200);
		const rows = answer.json().data;
		expect(rows.length).toBeGreaterThan(0);
		expect(Object.keys(rows[0])).toEqual([
			'datahora',
			'agente',
			'fila',
			'lote',
			'codigo',
			'cpf',
			'nome',
			'resultado',
			'duracao',
			'numero',
			'ficha_no',
			'arquivo',
			'protocolo',
			'data_agendamento',
		]);
		expect(rows[0].datahora).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
		expect(rows[0].duracao).toMatch(/^\d{2}:\d{2}:\d{2}$/);
		expect(rows.find((row: Loose) => row.arquivo !== '').arquivo.startsWith(sim.baseUrl)).toBe(
			true,
		);
		expect(rows.some((row: Loose) => row.data_agendamento !== '')).toBe(true);
	});

	it('filters by agent name, login or id alike, and by queue name', async () => {
		const agent = sim.data.agents[3];
		const byName = (await callApi(sim, 'getRQ4', { ...week, agente: agent.nome })).json().data;
		const byLogin = (await callApi(sim, 'getRQ4', { ...week, agente: agent.login })).json().data;
		const byId = (await callApi(sim, 'getRQ4', { ...week, agente: String(agent.id) })).json().data;
		expect(byName.length).toBeGreaterThan(0);
		expect(byLogin).toEqual(byName);
		expect(byId).toEqual(byName);
		expect(byName.every((row: Loose) => row.agente === agent.nome)).toBe(true);
		const queueRows = (await callApi(sim, 'getRQ4', { ...week, fila: 'Cobrança Preditivo' })).json()
			.data;
		expect(queueRows.every((row: Loose) => row.fila === 'Cobrança Preditivo')).toBe(true);
	});

	it('narrows by operation, team and batch together', async () => {
		const all = (await callApi(sim, 'getRQ4', week)).json().data;
		const narrowed = (
			await callApi(sim, 'getRQ4', {
				...week,
				operacao: 'Operação Cobrança',
				time: 'Cobrança Manhã',
				lote: '301',
			})
		).json().data;
		expect(narrowed.length).toBeLessThan(all.length);
		expect(narrowed.every((row: Loose) => row.lote === 'Cobrança Preditivo - Carteira A')).toBe(
			true,
		);
	});

	it('refuses an unknown filter value with an HTTP 200 error body', async () => {
		const answer = await callApi(sim, 'getRQ4', { ...week, time: 'Time Fantasma' });
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({
			status: 'error',
			message: 'Time não encontrado: Time Fantasma',
		});
	});

	it('in bare mode answers the array itself', async () => {
		const body = (await callApi(bare, 'getRQ4', week)).json();
		expect(Array.isArray(body)).toBe(true);
	});
});

describe('getHC2', () => {
	const busiestExtension = () => {
		const counts = new Map<string, number>();
		for (const call of sim.data.calls) counts.set(call.ramal, (counts.get(call.ramal) ?? 0) + 1);
		return [...counts].sort((a, b) => b[1] - a[1])[0][0];
	};

	it('returns the history of an extension with its type/number label', async () => {
		const ramal = busiestExtension();
		const extension = sim.data.extensions.find((candidate) => candidate.numero === ramal)!;
		const month = lastDays(30);
		const answer = await callApi(sim, 'getHC2', {
			...month,
			tipo_entidade: extension.tipo,
			ramal_agente: ramal,
		});
		const data = answer.json().data;
		const technology = { RS: 'SIP', RP: 'PJSIP', RI: 'IAX', RK: 'KHOMP' }[extension.tipo];
		expect(data.ramal_agente).toBe(`${technology}/${ramal}`);
		expect(data.de).toMatch(/^\d{2}\/\d{2}\/\d{4} 00:00$/);
		expect(data.ate).toMatch(/^\d{2}\/\d{2}\/\d{4} 23:59$/);
		expect(data.total).toBe(data.chamadas.length);
		expect(data.total).toBeGreaterThan(0);
		expect(data.chamadas[0]).toEqual({
			horario: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			tipo: expect.stringMatching(/^(Gerada|Recebida)$/),
			numero: expect.stringMatching(/^\(\d{2}\) \d{4,5}-\d{4}$/),
			duracao_segundos: expect.any(Number),
			duracao: expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/),
			desligada_por: expect.any(String),
			protocolo: expect.any(String),
		});
	});

	it.each(['RS', 'RP', 'RI', 'RK'])('knows extensions of type %s', async (tipo) => {
		const extension = sim.data.extensions.find((candidate) => candidate.tipo === tipo)!;
		const answer = await callApi(sim, 'getHC2', {
			...week,
			tipo_entidade: tipo,
			ramal_agente: extension.numero,
		});
		expect(answer.json().data.ramal_agente).toMatch(new RegExp(`/${extension.numero}$`));
	});

	it('returns an agent history by login or id, labelled with the login', async () => {
		const agent = sim.data.agents[0];
		const month = lastDays(30);
		const byId = (
			await callApi(sim, 'getHC2', { ...month, tipo_entidade: 'A', ramal_agente: String(agent.id) })
		).json().data;
		const byLogin = (
			await callApi(sim, 'getHC2', { ...month, tipo_entidade: 'A', ramal_agente: agent.login })
		).json().data;
		expect(byId.ramal_agente).toBe(agent.login);
		expect(byLogin).toEqual(byId);
		const today = new Date();
		const since = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 30).getTime();
		const expected = sim.data.calls.filter(
			(call) => call.agentId === agent.id && call.horario >= since,
		).length;
		expect(byId.total).toBe(expected);
	});

	it('splits generated (G) and received (R) calls; empty tipo returns both', async () => {
		const query = { ...lastDays(60), tipo_entidade: 'A', ramal_agente: sim.data.agents[1].login };
		const both = (await callApi(sim, 'getHC2', { ...query, tipo: '' })).json().data;
		const generated = (await callApi(sim, 'getHC2', { ...query, tipo: 'G' })).json().data;
		const received = (await callApi(sim, 'getHC2', { ...query, tipo: 'R' })).json().data;
		expect(generated.chamadas.every((call: Loose) => call.tipo === 'Gerada')).toBe(true);
		expect(received.chamadas.every((call: Loose) => call.tipo === 'Recebida')).toBe(true);
		expect(generated.total + received.total).toBe(both.total);
		expect(generated.total).toBeGreaterThan(0);
		expect(received.total).toBeGreaterThan(0);
	});

	it.each([
		['tipo_entidade outside RS/RP/RI/RK/A', { tipo_entidade: 'RX', ramal_agente: '1001' }],
		['tipo_entidade missing', { ramal_agente: '1001' }],
		['ramal_agente missing', { tipo_entidade: 'RS' }],
		['tipo outside G/R', { tipo_entidade: 'RS', ramal_agente: '1001', tipo: 'X' }],
		['a non-numeric extension', { tipo_entidade: 'RS', ramal_agente: 'SIP/1001' }],
	])('answers 400 for %s', async (_rule, fields) => {
		expect((await callApi(sim, 'getHC2', { ...week, ...fields })).status).toBe(400);
	});

	it.each([
		[
			'an unknown extension',
			{ tipo_entidade: 'RS', ramal_agente: '1999' },
			'Ramal não encontrado: 1999',
		],
		[
			'an extension of another type',
			{ tipo_entidade: 'RK', ramal_agente: '1001' },
			'Ramal 1001 não é do tipo RK',
		],
		[
			'an unknown agent',
			{ tipo_entidade: 'A', ramal_agente: 'ninguem' },
			'Agente não encontrado: ninguem',
		],
	])('refuses %s with an HTTP 200 error body', async (_case, fields, message) => {
		const answer = await callApi(sim, 'getHC2', { ...week, ...fields });
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({ status: 'error', message });
	});

	it('in bare mode answers the envelope fields at the top level', async () => {
		const body = (
			await callApi(bare, 'getHC2', { ...week, tipo_entidade: 'RS', ramal_agente: '1001' })
		).json();
		expect(body).toMatchObject({
			ramal_agente: 'SIP/1001',
			total: expect.any(Number),
			chamadas: expect.any(Array),
		});
	});
});

describe('getRE2', () => {
	it('returns each inbound call of the period under data.resultado', async () => {
		const rows = (await callApi(sim, 'getRE2', week)).json().data.resultado;
		expect(rows.length).toBeGreaterThan(0);
		expect(rows[0]).toEqual({
			data_hora: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/),
			origem: expect.stringMatching(/^\(\d{2}\) /),
			roteamento: expect.any(String),
			prospect: expect.stringMatching(/^(Novo|Existente)$/),
			tipo_destino: expect.any(String),
			destino: expect.any(String),
			status: expect.stringMatching(/^(AT|RA|AB)$/),
			tempo_fila: expect.any(Number),
			tempo_atendimento: expect.any(Number),
			agente: expect.any(String),
			resultado: expect.any(String),
		});
	});

	it('filters by queue description and by inbound route id or description', async () => {
		const byQueue = (await callApi(sim, 'getRE2', { ...week, fila: 'SAC Receptivo' })).json().data
			.resultado;
		expect(byQueue.length).toBeGreaterThan(0);
		expect(byQueue.every((row: Loose) => row.destino === 'SAC Receptivo')).toBe(true);
		const byRouteName = (
			await callApi(sim, 'getRE2', { ...week, rotaEntrada: 'URA Principal' })
		).json().data.resultado;
		const byRouteId = (await callApi(sim, 'getRE2', { ...week, rotaEntrada: '71' })).json().data
			.resultado;
		expect(byRouteName).toEqual(byRouteId);
		expect(byRouteName.every((row: Loose) => row.roteamento === 'URA Principal')).toBe(true);
	});

	it('refuses an unknown route with an HTTP 200 error body', async () => {
		expect((await callApi(sim, 'getRE2', { ...week, rotaEntrada: 'Rota X' })).json()).toEqual({
			status: 'error',
			message: 'Rota de entrada não encontrada: Rota X',
		});
	});

	it('in bare mode answers { resultado }', async () => {
		expect((await callApi(bare, 'getRE2', week)).json().resultado).toEqual(expect.any(Array));
	});
});
