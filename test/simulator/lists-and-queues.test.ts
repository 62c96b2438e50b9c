/** Batches, teams and queues: listing, creating a queue and moving a batch to it. */
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi } from './helpers';

let sim: DialerSimulator;
let bare: DialerSimulator;

beforeAll(async () => {
	[sim, bare] = await Promise.all([
		startSimulator(),
		startSimulator({ envelope: 'bare', idsAsStrings: true }),
	]);
});
afterAll(() => Promise.all([sim?.close(), bare?.close()]));

const validQueue = {
	descricao: 'Campanha Natal',
	operacao: 'Operação Vendas',
	tipo_discagem: 'PRE',
	overdial: 'N',
	max_overdial: '2',
	num_canais: '30',
	canal_dialer: '1',
	adicionar_ddd_local: 'Y',
	operadora: '0',
};

describe('getLotesAtivos', () => {
	it('lists every active batch with id, description and queue under data.lotes', async () => {
		const answer = await callApi(sim, 'getLotesAtivos');
		expect(answer.status).toBe(200);
		expect(answer.contentType).toMatch(/^application\/json/);
		const { lotes } = answer.json().data;
		expect(lotes).toHaveLength(sim.data.batches.filter((batch) => batch.ativo).length);
		expect(lotes[0]).toEqual({
			id: expect.any(Number),
			descricao: expect.any(String),
			fila_id: expect.any(Number),
			fila: expect.any(String),
		});
	});

	it('filters by queue id or by queue description', async () => {
		const queue = sim.data.queues.find((candidate) => candidate.descricao === 'Cobrança Power')!;
		const byId = (await callApi(sim, 'getLotesAtivos', { fila: String(queue.id) })).json().data
			.lotes;
		const byName = (await callApi(sim, 'getLotesAtivos', { fila: 'cobrança power' })).json().data
			.lotes;
		expect(byId.length).toBeGreaterThan(0);
		expect(byName).toEqual(byId);
		expect(byId.every((lote: { fila: string }) => lote.fila === 'Cobrança Power')).toBe(true);
	});

	it('refuses an unknown queue with an HTTP 200 error body', async () => {
		const answer = await callApi(sim, 'getLotesAtivos', { fila: 'Fila Fantasma' });
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({
			status: 'error',
			message: 'Fila não encontrada: Fila Fantasma',
		});
	});

	it('in bare mode drops the data wrapper and quotes ids', async () => {
		const body = (await callApi(bare, 'getLotesAtivos')).json();
		expect(body.data).toBeUndefined();
		expect(body.lotes[0].id).toEqual(expect.any(String));
	});
});

describe('getTime', () => {
	it('lists all teams under data.times', async () => {
		const { times } = (await callApi(sim, 'getTime')).json().data;
		expect(times).toHaveLength(sim.data.teams.length);
		expect(times[0]).toEqual({
			id: 11,
			nome: 'Cobrança Manhã',
			operacao_id: 1,
			operacao: 'Operação Cobrança',
		});
	});

	it('with user lists only the teams of that agent (login or id)', async () => {
		const agent = sim.data.agents.find((candidate) => candidate.teamIds.length === 2)!;
		const byLogin = (await callApi(sim, 'getTime', { user: agent.login })).json().data.times;
		const byId = (await callApi(sim, 'getTime', { user: String(agent.id) })).json().data.times;
		expect(byLogin.map((team: { id: number }) => team.id)).toEqual(agent.teamIds);
		expect(byId).toEqual(byLogin);
	});

	it('refuses an unknown user with an HTTP 200 error body', async () => {
		expect((await callApi(sim, 'getTime', { user: 'ninguem' })).json()).toEqual({
			status: 'error',
			message: 'Agente não encontrado: ninguem',
		});
	});

	it('in bare mode answers { times } with string ids', async () => {
		const body = (await callApi(bare, 'getTime')).json();
		expect(body.times[0].id).toBe('11');
	});
});

describe('criarFilaAtiva', () => {
	it('creates the queue and answers status success with id, description and operation name', async () => {
		const answer = await callApi(sim, 'criarFilaAtiva', { ...validQueue, operacao: 'Operação 1' });
		expect(answer.status).toBe(200);
		const body = answer.json();
		expect(body).toEqual({
			status: 'success',
			data: { id: expect.any(Number), descricao: 'Campanha Natal', operacao: 'Operação 1' },
		});
		const stored = sim.data.queues.find((queue) => queue.id === body.data.id)!;
		expect(stored).toMatchObject({
			descricao: 'Campanha Natal',
			direcao: 'ativa',
			tipoDiscagem: 'PRE',
		});
		// The contract's defaults are stored when the optional fields are not sent.
		expect(stored.config).toMatchObject({
			tempo_max_atendimento: 10,
			tamanho_fila: 1,
			tempo_max_tocando_agente: 0,
			tempo_max_fila_espera: 1,
			num_canais: 30,
		});
	});

	it('accepts the operation by id and stores optional settings sent', async () => {
		const body = (
			await callApi(sim, 'criarFilaAtiva', {
				...validQueue,
				descricao: 'Fila Por Id',
				operacao: '2',
				tamanho_fila: '5',
				integracao_id: 'crm-7',
			})
		).json();
		expect(body.data.operacao).toBe('Operação Vendas');
		expect(sim.data.queues.find((queue) => queue.id === body.data.id)!.config).toMatchObject({
			tamanho_fila: 5,
			integracao_id: 'crm-7',
		});
	});

	it('keeps the success wrapper in bare mode (the contract fixes it) with a string id', async () => {
		const body = (await callApi(bare, 'criarFilaAtiva', validQueue)).json();
		expect(body).toEqual({
			status: 'success',
			data: { id: expect.any(String), descricao: 'Campanha Natal', operacao: 'Operação Vendas' },
		});
	});

	it('refuses an unknown operation with an HTTP 200 error body', async () => {
		const answer = await callApi(sim, 'criarFilaAtiva', {
			...validQueue,
			descricao: 'Outra',
			operacao: 'Operação Inexistente',
		});
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({
			status: 'error',
			message: 'Operação não encontrada: Operação Inexistente',
		});
	});

	it('answers a duplicate description with 409', async () => {
		await callApi(sim, 'criarFilaAtiva', { ...validQueue, descricao: 'Duplicada' });
		const answer = await callApi(sim, 'criarFilaAtiva', { ...validQueue, descricao: 'duplicada' });
		expect(answer.status).toBe(409);
		expect(answer.json().status).toBe('error');
	});

	it.each([
		['descricao missing', { descricao: '' }, 'descricao'],
		['operacao blank', { operacao: '   ' }, 'operacao'],
		['tipo_discagem outside PRE/POW/PRV/MSG/SGL', { tipo_discagem: 'XYZ' }, 'tipo_discagem'],
		['tipo_discagem in lower case', { tipo_discagem: 'pre' }, 'tipo_discagem'],
		['overdial not Y/N', { overdial: 'S' }, 'overdial'],
		['adicionar_ddd_local not Y/N', { adicionar_ddd_local: 'yes' }, 'adicionar_ddd_local'],
		['num_canais not numeric', { num_canais: 'dez' }, 'num_canais'],
		['max_overdial negative', { max_overdial: '-1' }, 'max_overdial'],
		['an optional number not numeric', { tamanho_fila: '1.5' }, 'tamanho_fila'],
	])('answers 400 when %s', async (_rule, change, field) => {
		const answer = await callApi(sim, 'criarFilaAtiva', {
			...validQueue,
			descricao: 'Inválida',
			...change,
		});
		expect(answer.status).toBe(400);
		expect(answer.json()).toEqual({ status: 'error', message: expect.stringContaining(field) });
	});
});

describe('changeLoteToFila', () => {
	it('moves a batch to a newly created queue, which then lists it', async () => {
		await callApi(sim, 'criarFilaAtiva', { ...validQueue, descricao: 'Destino Novo' });
		const batch = sim.data.batches.find((candidate) => candidate.ativo)!;
		const answer = await callApi(sim, 'changeLoteToFila', {
			lote: batch.descricao,
			fila: 'Destino Novo',
		});
		expect(answer.status).toBe(200);
		const queueId = sim.data.queues.find((queue) => queue.descricao === 'Destino Novo')!.id;
		expect(answer.json()).toEqual({
			status: 'success',
			data: {
				lote: { id: String(batch.id), login: batch.descricao },
				fila: { id: String(queueId), descricao: 'Destino Novo' },
			},
		});
		const listed = (await callApi(sim, 'getLotesAtivos', { fila: 'Destino Novo' })).json().data
			.lotes;
		expect(listed.map((lote: { id: number }) => lote.id)).toEqual([batch.id]);
	});

	it('accepts ids for both and answers string ids even when other ids are numbers', async () => {
		const body = (await callApi(sim, 'changeLoteToFila', { lote: '302', fila: '22' })).json();
		expect(body.data.lote.id).toBe('302');
		expect(body.data.fila.id).toBe('22');
		expect(sim.data.batches.find((batch) => batch.id === 302)!.filaId).toBe(22);
	});

	it.each([
		['an unknown batch', { lote: 'Lote X', fila: '22' }, 'Lote não encontrado: Lote X'],
		['an unknown queue', { lote: '302', fila: '999' }, 'Fila não encontrada: 999'],
		[
			'an inbound queue',
			{ lote: '302', fila: 'SAC Receptivo' },
			'A fila SAC Receptivo não é uma fila ativa',
		],
	])('refuses %s with an HTTP 200 error body', async (_case, fields, message) => {
		const answer = await callApi(sim, 'changeLoteToFila', fields);
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({ status: 'error', message });
	});

	it('answers 400 when a field is missing', async () => {
		expect((await callApi(sim, 'changeLoteToFila', { lote: '302' })).status).toBe(400);
	});
});
