/**
 * The Dialer node in n8n's engine, in this process (support/inProcessN8n.ts), against the dialer
 * simulator: for every operation, the exact request the simulator received and the items n8n
 * passed on (checked against the simulator's own answer to the same request), the report login
 * and the three Authorization header styles. The editor's pickers and n8n's own nodes reading the
 * node's files stay in test/e2e/dialer.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';

import type { RecordedRequest } from '../../../harness/simulator/types';
import { InProcessN8n, type InProcessRunOptions, type Json } from '../support/inProcessN8n';

const TIMEZONE = 'America/Sao_Paulo';

let n8n: InProcessN8n;
const run = (parameters: Json, options?: InProcessRunOptions) => n8n.run(parameters, options);
const direct = (operation: string, fields: Record<string, string>) => n8n.direct(operation, fields);

function only(requests: RecordedRequest[], operation: string): RecordedRequest {
	expect(requests.map((r) => r.operation)).toEqual([operation]);
	const [sent] = requests;
	expect(sent.method).toBe('POST');
	expect(sent.path).toBe(`/${sim.pathSegment}/api/${operation}`);
	expect(sent.contentType).toBe('application/x-www-form-urlencoded');
	expect(sent.headers.authorization).toBe(TOKEN);
	return sent;
}

const yesterday = () => DateTime.now().setZone(TIMEZONE).minus({ days: 1 }).toFormat('yyyyMMdd');
const last30 = () => ({
	de: `${DateTime.now().setZone(TIMEZONE).minus({ days: 29 }).toFormat('yyyyMMdd')}000000`,
	ate: `${DateTime.now().setZone(TIMEZONE).toFormat('yyyyMMdd')}235959`,
});

let sim: InProcessN8n['sim'];
let TOKEN: string;

beforeAll(async () => {
	n8n = await InProcessN8n.start({ timezone: TIMEZONE });
	sim = n8n.sim;
	TOKEN = n8n.token;
});

afterAll(async () => {
	await n8n?.close();
});

describe('every operation sends the contract request and outputs the right items', () => {
	it('Agent → Log Out logs the agent out and returns the new state', async () => {
		const agent = sim.data.agents.find((a) => a.estado !== 'offline')!;
		const { items, requests } = await run({
			resource: 'agent',
			operation: 'logout',
			agent: agent.login,
			additionalFields: { ip: '10.1.2.3' },
		});
		expect(only(requests, 'logout').fields).toEqual({ user: agent.login, ip: '10.1.2.3' });
		expect(items).toEqual([
			expect.objectContaining({
				success: true,
				agent: agent.login,
				login: agent.login,
				estado: 'offline',
			}),
		]);
		expect(sim.data.agents.find((a) => a.id === agent.id)!.estado).toBe('offline');
	});

	it('Agent → End Pause takes a paused agent out of pause (pauseout)', async () => {
		const agent = sim.data.agents.find((a) => a.estado === 'paused')!;
		const { items, requests } = await run({
			resource: 'agent',
			operation: 'endPause',
			agent: agent.login,
			additionalFields: {},
		});
		expect(only(requests, 'pauseout').fields).toEqual({ user: agent.login });
		expect(items[0]).toMatchObject({ success: true, agent: agent.login });
		expect(['online', 'busy']).toContain(items[0].estado);
	});

	it('Call → Get Active returns the call on an extension', async () => {
		const active = sim.data.activeCalls[0];
		const { items, requests } = await run({
			resource: 'call',
			operation: 'getActive',
			extension: active.ramal,
		});
		expect(only(requests, 'getLigacaoAtivaByRamal').fields).toEqual({ ramal: active.ramal });
		expect(items).toEqual([
			{
				extension: active.ramal,
				active: true,
				...((await direct('getLigacaoAtivaByRamal', { ramal: active.ramal })) as Json),
			},
		]);
		expect(items[0].uid).toBe(active.uid);
	});

	it('Call → Get Active says plainly when the extension has no call', async () => {
		const idle = sim.data.extensions.find(
			(e) => !sim.data.activeCalls.some((c) => c.ramal === e.numero),
		)!;
		const { items } = await run({
			resource: 'call',
			operation: 'getActive',
			extension: idle.numero,
		});
		expect(items).toEqual([
			{
				extension: idle.numero,
				active: false,
				message: `No active call on extension ${idle.numero}`,
			},
		]);
	});

	it('Queue → Create creates an active queue that exists afterwards', async () => {
		const operation = sim.data.operations[0];
		const { items, requests } = await run({
			resource: 'queue',
			operation: 'create',
			description: 'Fila e2e Novembro',
			queueOperation: operation.nome,
			dialingType: 'PRV',
			overdial: true,
			maxOverdial: 2,
			channels: 10,
			dialerChannel: '1',
			addLocalAreaCode: true,
			carrier: '15',
			additionalFields: { queueSize: 4, maxHandlingMinutes: 12 },
		});
		expect(only(requests, 'criarFilaAtiva').fields).toEqual({
			descricao: 'Fila e2e Novembro',
			operacao: operation.nome,
			tipo_discagem: 'PRV',
			overdial: 'Y',
			max_overdial: '2',
			num_canais: '10',
			canal_dialer: '1',
			adicionar_ddd_local: 'Y',
			operadora: '15',
			tamanho_fila: '4',
			tempo_max_atendimento: '12',
		});
		expect(items).toEqual([
			{ id: expect.any(Number), descricao: 'Fila e2e Novembro', operacao: operation.nome },
		]);
		expect(
			sim.data.queues.some((q) => q.id === items[0].id && q.descricao === 'Fila e2e Novembro'),
		).toBe(true);
	});

	it('Batch → Get Many lists active batches, one item each', async () => {
		const { items, requests } = await run({
			resource: 'batch',
			operation: 'getMany',
			returnAll: true,
			filters: {},
		});
		expect(only(requests, 'getLotesAtivos').fields).toEqual({});
		expect(items).toEqual(((await direct('getLotesAtivos', {})) as { lotes: Json[] }).lotes);
		expect(items.length).toBeGreaterThan(1);
	});

	it('Batch → Move to Queue moves a batch picked from the list to another queue', async () => {
		const batch = sim.data.batches.find((b) => b.ativo)!;
		const target = sim.data.queues.find((q) => q.direcao === 'ativa' && q.id !== batch.filaId)!;
		const { items, requests } = await run({
			resource: 'batch',
			operation: 'moveToQueue',
			batch: { __rl: true, mode: 'list', value: String(batch.id) },
			queue: target.descricao,
		});
		expect(only(requests, 'changeLoteToFila').fields).toEqual({
			lote: String(batch.id),
			fila: target.descricao,
		});
		expect(items).toEqual([
			{
				lote: { id: String(batch.id), login: batch.descricao },
				fila: { id: String(target.id), descricao: target.descricao },
			},
		]);
		expect(sim.data.batches.find((b) => b.id === batch.id)!.filaId).toBe(target.id);
	});

	it('Team → Get Many lists the teams of one agent', async () => {
		const agent = sim.data.agents[0];
		const { items, requests } = await run({
			resource: 'team',
			operation: 'getMany',
			returnAll: true,
			filters: { agent: agent.login },
		});
		expect(only(requests, 'getTime').fields).toEqual({ user: agent.login });
		expect(items).toEqual(
			((await direct('getTime', { user: agent.login })) as { times: Json[] }).times,
		);
		expect(items.length).toBe(agent.teamIds.length);
	});

	it('Audio → Deactivate deactivates an audio', async () => {
		const audio = sim.data.audios.find((a) => a.ativo)!;
		const { items, requests } = await run({
			resource: 'audio',
			operation: 'deactivate',
			audioId: String(audio.id),
		});
		expect(only(requests, 'desativarAudio').fields).toEqual({ id: String(audio.id) });
		expect(items).toEqual([{ success: true, id: audio.id }]);
		expect(sim.data.audios.find((a) => a.id === audio.id)!.ativo).toBe(false);
	});

	it('Report → Get Filled Forms returns one item per ficha of yesterday, in the workflow timezone', async () => {
		const form = sim.data.forms[0];
		const { items, requests } = await run({
			resource: 'report',
			operation: 'getFilledForms',
			selectBy: 'formAndPeriod',
			form: form.nome,
			period: 'yesterday',
			output: 'items',
			returnAll: true,
			filters: {},
		});
		const day = yesterday();
		const fields = only(requests, 'getFP1').fields;
		expect(fields).toEqual({
			form: form.nome,
			de: `${day}000000`,
			ate: `${day}235959`,
			formato: 'json',
		});
		expect(items).toEqual(await direct('getFP1', fields));
		expect(items.length).toBeGreaterThan(0);
		expect(Object.keys(items[0]).some((key) => key.endsWith('_f'))).toBe(true);
	});

	it('Report → Get Filled Forms sends the report login from the credential, and n8n keeps none of it', async () => {
		// A distinctive password, so a leak cannot be taken for an ordinary word.
		const reportUser = {
			login: sim.data.reportUsers[0].login,
			senha: `in-process-report-password-${randomUUID()}`,
		};
		const withLogin = n8n.createCredential({
			reportUser: reportUser.login,
			reportPassword: reportUser.senha,
		});
		const { requests, execution } = await run(
			{
				resource: 'report',
				operation: 'getFilledForms',
				selectBy: 'formAndPeriod',
				form: String(sim.data.forms[0].id),
				period: 'last7Days',
				output: 'items',
				returnAll: false,
				limit: 5,
				filters: {},
			},
			{ credential: withLogin },
		);
		expect(only(requests, 'getFP1').fields).toMatchObject({
			user: reportUser.login,
			senha: reportUser.senha,
		});
		// What n8n saves of the run: its items, errors and the nodes' parameters.
		expect(JSON.stringify(execution)).not.toContain(reportUser.senha);
		expect(JSON.stringify(execution)).not.toContain(TOKEN);
	});

	it('Report → Get Classification Results returns one item per row, with filters', async () => {
		const team = sim.data.teams[0];
		const { items, requests } = await run({
			resource: 'report',
			operation: 'getClassificationResults',
			period: 'last30Days',
			returnAll: true,
			filters: { team: { __rl: true, mode: 'id', value: String(team.id) } },
		});
		const fields = only(requests, 'getRQ4').fields;
		expect(fields).toEqual({ ...last30(), time: String(team.id) });
		expect(items).toEqual(await direct('getRQ4', fields));
		expect(items.length).toBeGreaterThan(0);
	});

	it('Report → Get Call History returns one item per call, carrying the extension and range', async () => {
		const call = sim.data.calls[0];
		const { items, requests } = await run({
			resource: 'report',
			operation: 'getCallHistory',
			entityType: sim.data.extensions.find((e) => e.numero === call.ramal)!.tipo,
			extensionOrAgent: call.ramal,
			period: 'last30Days',
			returnAll: true,
			filters: {},
		});
		const fields = only(requests, 'getHC2').fields;
		const history = (await direct('getHC2', fields)) as {
			ramal_agente: string;
			de: string;
			ate: string;
			chamadas: Json[];
		};
		expect(items).toEqual(
			history.chamadas.map((c) => ({
				...c,
				ramal_agente: history.ramal_agente,
				de: history.de,
				ate: history.ate,
			})),
		);
		expect(items.length).toBeGreaterThan(0);
	});

	it('Report → Get Inbound Calls returns one item per call from a custom range', async () => {
		const { items, requests } = await run({
			resource: 'report',
			operation: 'getInboundCalls',
			period: 'custom',
			start: DateTime.now().setZone(TIMEZONE).minus({ days: 10 }).toISODate(),
			end: DateTime.now().setZone(TIMEZONE).toISODate(),
			returnAll: true,
			filters: {},
		});
		const fields = only(requests, 'getRE2').fields;
		expect(fields.de).toMatch(/^\d{8}000000$/);
		expect(fields.ate).toMatch(/^\d{8}235959$/);
		expect(items).toEqual(((await direct('getRE2', fields)) as { resultado: Json[] }).resultado);
		expect(items.length).toBeGreaterThan(0);
	});
});

describe('the three Authorization header styles', () => {
	it.each([
		['raw', ''],
		['bearer', 'Bearer '],
		['basic', 'Basic '],
	])('%s sends Authorization: %s<token>', async (authScheme, prefix) => {
		const styled = n8n.createCredential({ authScheme });
		const { items, requests } = await run(
			{ resource: 'batch', operation: 'getMany', returnAll: false, limit: 2, filters: {} },
			{ credential: styled },
		);
		expect(requests).toHaveLength(1);
		expect(requests[0].headers.authorization).toBe(`${prefix}${TOKEN}`);
		expect(items).toHaveLength(2);
	});
});
