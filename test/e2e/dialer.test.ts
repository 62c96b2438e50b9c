/**
 * The Dialer node inside a real n8n against the dialer simulator: for every operation, the exact
 * request the simulator received and the items n8n produced (checked against the simulator's own
 * answer to the same request), then the error paths, continue on fail and the header styles.
 */
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';

import type { RecordedRequest } from '../../simulator/types';
import { registerSecret } from './setup/connection';
import { DialerRunner, type Json, type RunOptions } from './support/dialerRunner';

const TIMEZONE = 'America/Sao_Paulo';

let dialer: DialerRunner;
const run = (parameters: Json, options?: RunOptions) => dialer.run(parameters, options);
const direct = (operation: string, fields: Record<string, string>) =>
	dialer.direct(operation, fields);
const createCredential = (overrides?: Json) => dialer.createCredential(overrides);

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

let sim: DialerRunner['sim'];
let TOKEN: string;

beforeAll(async () => {
	dialer = await DialerRunner.start({ timezone: TIMEZONE });
	sim = dialer.sim;
	TOKEN = dialer.token;
});

afterAll(async () => {
	await dialer?.close();
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

	it('Report → Get Filled Forms by ficha IDs, as a CSV file that Extract from File reads', async () => {
		const fichas = sim.data.fichas.filter((f) => f.formId === sim.data.forms[0].id).slice(0, 4);
		const ids = `${fichas[0].id},${fichas[1].id}, ${fichas[2].id}-${fichas[2].id}`;
		const { items, requests } = await run(
			{
				resource: 'report',
				operation: 'getFilledForms',
				selectBy: 'fichaIds',
				fichaIds: ids,
				output: 'csvFile',
				binaryPropertyName: 'data',
				filters: {},
			},
			{
				after: [
					{
						name: 'Extract from File',
						type: 'n8n-nodes-base.extractFromFile',
						typeVersion: 1.1,
						parameters: {
							operation: 'csv',
							binaryPropertyName: 'data',
							options: { delimiter: ';' },
						},
					},
				],
			},
		);
		expect(only(requests, 'getFP1').fields).toEqual({
			fichaId: `${fichas[0].id},${fichas[1].id},${fichas[2].id}-${fichas[2].id}`,
			formato: 'csv',
		});
		expect(items).toHaveLength(3);
		const columns = Object.keys(items[0]);
		expect(columns.some((c) => c.endsWith('[F]'))).toBe(true);
		expect(columns.some((c) => c.endsWith('[P]'))).toBe(true);
	});

	it('Report → Get Filled Forms sends the report login from the credential', async () => {
		// A distinctive password, so the run's secret scan can tell a leak from an ordinary word.
		const reportUser = {
			login: sim.data.reportUsers[0].login,
			senha: `e2e-report-password-${randomUUID()}`,
		};
		registerSecret(reportUser.senha);
		const withLogin = await createCredential({
			reportUser: reportUser.login,
			reportPassword: reportUser.senha,
		});
		const { requests } = await run(
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

describe('errors', () => {
	async function failedRun(parameters: Json, expected: RegExp): Promise<void> {
		const { status, error } = await run(parameters);
		expect(status).toBeGreaterThanOrEqual(500);
		expect(error).toMatch(expected);
		expect(error).not.toContain(TOKEN);
	}

	afterEach(() => sim.faults.clear());

	it('a server error stops the workflow with the operation and HTTP status', async () => {
		sim.faults.add({ operation: 'getTime', kind: 'status', status: 503 });
		await failedRun(
			{ resource: 'team', operation: 'getMany', returnAll: true, filters: {} },
			/Team → Get Many failed \(HTTP 503\)/,
		);
	});

	it('a 200 whose body reports failure is an error too', async () => {
		sim.faults.add({ operation: 'getTime', kind: 'errorBody' });
		await failedRun(
			{ resource: 'team', operation: 'getMany', returnAll: true, filters: {} },
			/Team → Get Many failed \(HTTP 200\)/,
		);
	});

	it('an unknown queue answered as failure by the dialer names the operation', async () => {
		await failedRun(
			{
				resource: 'batch',
				operation: 'moveToQueue',
				batch: { __rl: true, mode: 'id', value: String(sim.data.batches[0].id) },
				queue: 'Fila que não existe',
			},
			/Batch → Move to Queue failed/,
		);
	});

	it('invalid input fails before any request, naming the parameter', async () => {
		const { status, requests, error } = await run({
			resource: 'report',
			operation: 'getFilledForms',
			selectBy: 'fichaIds',
			fichaIds: '10,,12',
			output: 'items',
			returnAll: true,
			filters: {},
		});
		expect(status).toBeGreaterThanOrEqual(500);
		expect(requests).toHaveLength(0);
		expect(error).toMatch(/Ficha IDs: contains an empty entry/);
		expect(error).toMatch(/Use IDs separated by commas/);
	});

	it('continue on fail keeps every other item and records the error on the failing ones', async () => {
		const audios = sim.data.audios.filter((a) => a.ativo).slice(0, 3);
		const input = [
			{ id: String(audios[0].id) },
			{ id: 'not-a-number' },
			{ id: String(audios[1].id) },
			{ id: String(audios[0].id) },
			{ id: String(audios[2].id) },
		];
		const { items, requests } = await run(
			{ resource: 'audio', operation: 'deactivate', audioId: '={{ $json.id }}' },
			{ items: input, continueOnFail: true },
		);
		expect(requests).toHaveLength(4);
		expect(items).toHaveLength(5);
		expect(items[0]).toEqual({ success: true, id: audios[0].id });
		expect(items[1].error).toMatch(/Audio ID: "not-a-number" is not an ID/);
		expect(items[2]).toEqual({ success: true, id: audios[1].id });
		// The same audio twice: the dialer refuses the second deactivation.
		expect(items[3].error).toMatch(/Audio → Deactivate failed \(HTTP 200\)/);
		expect(items[4]).toEqual({ success: true, id: audios[2].id });
	});
});

describe('the three Authorization header styles', () => {
	it.each([
		['raw', ''],
		['bearer', 'Bearer '],
		['basic', 'Basic '],
	])('%s sends Authorization: %s<token>', async (authScheme, prefix) => {
		const styled = await createCredential({ authScheme });
		const { items, requests } = await run(
			{ resource: 'batch', operation: 'getMany', returnAll: false, limit: 2, filters: {} },
			{ credential: styled },
		);
		expect(requests).toHaveLength(1);
		expect(requests[0].headers.authorization).toBe(`${prefix}${TOKEN}`);
		expect(items).toHaveLength(2);
	});
});

describe('pickers load batches and teams from the dialer, as the editor does', () => {
	async function search(
		methodName: string,
		filter?: string,
	): Promise<Array<{ name: string; value: string }>> {
		const { results } = await dialer.api.rest<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/rest/dynamic-node-parameters/resource-locator-results',
			{
				methodName,
				filter,
				path: 'parameters.batch',
				nodeTypeAndVersion: { name: 'n8n-nodes-dialer.dialer', version: 1 },
				currentNodeParameters: { resource: 'batch', operation: 'moveToQueue' },
				credentials: { dialerApi: { id: dialer.credential.id, name: dialer.credential.name } },
			},
		);
		return results;
	}

	it('lists every active batch by name with its ID as the value', async () => {
		const active = sim.data.batches.filter((b) => b.ativo);
		const results = await search('searchBatches');
		expect(results.map((r) => r.value).sort()).toEqual(active.map((b) => String(b.id)).sort());
		const first = active[0];
		expect(results).toContainEqual({
			name: `${first.descricao} (${first.id})`,
			value: String(first.id),
		});
	});

	it('narrows the team list to what the user types', async () => {
		const team = sim.data.teams[0];
		const typed = team.nome.slice(0, 4).toUpperCase();
		const results = await search('searchTeams', typed);
		expect(results.length).toBeGreaterThan(0);
		expect(results).toContainEqual({ name: `${team.nome} (${team.id})`, value: String(team.id) });
		for (const result of results) expect(result.name.toLowerCase()).toContain(typed.toLowerCase());
	});
});
