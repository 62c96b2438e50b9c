import { DateTime } from 'luxon';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { router } from '../../nodes/Dialer/actions/router';
import {
	fakeExecuteFunctions,
	TEST_CREDENTIALS,
	type FakeContextOptions,
} from './support/executeFunctions';

async function run(options: FakeContextOptions) {
	const { context, sent } = fakeExecuteFunctions(options);
	const [items] = await router.call(context);
	return {
		items,
		sent,
		form: sent[0]?.form,
		path: sent[0]?.url.replace('https://acme.dialer.test:8607/ipbox/api/', ''),
	};
}

const picked = (value: string, mode = 'list') => ({ __rl: true, mode, value });
const customPeriod = { period: 'custom', start: '2026-11-01T00:00:00', end: '2026-11-21T23:59:59' };

describe('agent', () => {
	it('logs an agent out with user and ip', async () => {
		const { path, form, items } = await run({
			parameters: {
				resource: 'agent',
				operation: 'logout',
				agent: ' maria.souza ',
				additionalFields: { ip: '10.0.0.15' },
			},
			responses: [{ body: { status: 'success', message: 'Agente deslogado' } }],
		});
		expect(path).toBe('logout');
		expect(form).toEqual({ user: 'maria.souza', ip: '10.0.0.15' });
		expect(items).toEqual([
			{
				json: {
					success: true,
					agent: 'maria.souza',
					status: 'success',
					message: 'Agente deslogado',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('ends a pause through pauseout, without ip when none is given', async () => {
		const { path, form } = await run({
			parameters: { resource: 'agent', operation: 'endPause', agent: '101', additionalFields: {} },
		});
		expect(path).toBe('pauseout');
		expect(form).toEqual({ user: '101' });
	});
});

describe('call', () => {
	it('returns the active call of an extension', async () => {
		const call = {
			ddd: '11',
			uid: '1732-55-9',
			numero: '987654321',
			nome: 'Ana',
			codigo: 'P1',
			cpf: '1',
			lote: 'L',
			fila: 'F',
			email_p: 'a@b',
		};
		const { path, form, items } = await run({
			parameters: { resource: 'call', operation: 'getActive', extension: '1001' },
			responses: [{ body: { data: call } }],
		});
		expect(path).toBe('getLigacaoAtivaByRamal');
		expect(form).toEqual({ ramal: '1001' });
		expect(items[0].json).toEqual({ extension: '1001', active: true, ...call });
	});

	it.each([{ data: {} }, { data: null }, { data: [] }, {}])(
		'says plainly that an idle extension has no call (%j)',
		async (body) => {
			const { items } = await run({
				parameters: { resource: 'call', operation: 'getActive', extension: '1002' },
				responses: [{ body }],
			});
			expect(items[0].json).toEqual({
				extension: '1002',
				active: false,
				message: 'No active call on extension 1002',
			});
		},
	);
});

describe('queue', () => {
	const required = {
		resource: 'queue',
		operation: 'create',
		description: 'Cobrança Novembro',
		queueOperation: 'Operação Cobrança',
		dialingType: 'POW',
		overdial: true,
		maxOverdial: 3,
		channels: 30,
		dialerChannel: '2',
		addLocalAreaCode: false,
		carrier: '15',
	};

	it('creates an active queue with every field in the API form', async () => {
		const { path, form, items } = await run({
			parameters: {
				...required,
				additionalFields: {
					maxHandlingMinutes: 15,
					queueSize: 5,
					maxAgentRingSeconds: 20,
					maxQueueWaitSeconds: 30,
					integrationId: ' crm-7 ',
					dialSeconds: 40,
				},
			},
			responses: [
				{
					body: {
						status: 'success',
						data: { id: 88, descricao: 'Cobrança Novembro', operacao: 'Operação Cobrança' },
					},
				},
			],
		});
		expect(path).toBe('criarFilaAtiva');
		expect(form).toEqual({
			descricao: 'Cobrança Novembro',
			operacao: 'Operação Cobrança',
			tipo_discagem: 'POW',
			overdial: 'Y',
			max_overdial: '3',
			num_canais: '30',
			canal_dialer: '2',
			adicionar_ddd_local: 'N',
			operadora: '15',
			tempo_max_atendimento: '15',
			tamanho_fila: '5',
			tempo_max_tocando_agente: '20',
			tempo_max_fila_espera: '30',
			integracao_id: 'crm-7',
			tempo_dial: '40',
		});
		expect(items[0].json).toEqual({
			id: 88,
			descricao: 'Cobrança Novembro',
			operacao: 'Operação Cobrança',
		});
	});

	it.each([
		[{ channels: 0 }, 'Channels'],
		[{ maxOverdial: 1.5 }, 'Max Overdial'],
		[{ description: '  ' }, 'Description'],
		[{ queueOperation: '' }, 'Operation (ID or Name)'],
		[{ carrier: '' }, 'Carrier'],
		[{ dialingType: 'XYZ' }, 'Dialing Type'],
		[{ additionalFields: { queueSize: -1 } }, 'Queue Size'],
	])('rejects %j before sending, naming %s', async (override, parameter) => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: { ...required, additionalFields: {}, ...override },
		});
		const error = await router.call(context).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toContain(parameter);
		expect((error as NodeOperationError).description).toBeTruthy();
		expect(sent).toHaveLength(0);
	});
});

describe('batch', () => {
	it('lists active batches, one item each, optionally of one queue', async () => {
		const { path, form, items } = await run({
			parameters: {
				resource: 'batch',
				operation: 'getMany',
				returnAll: true,
				filters: { queue: 'Fila 1' },
			},
			responses: [
				{
					body: {
						data: {
							lotes: [
								{ id: 1, descricao: 'A' },
								{ id: '2', descricao: 'B', extra: 'x' },
							],
						},
					},
				},
			],
		});
		expect(path).toBe('getLotesAtivos');
		expect(form).toEqual({ fila: 'Fila 1' });
		expect(items.map((item) => item.json)).toEqual([
			{ id: 1, descricao: 'A' },
			{ id: '2', descricao: 'B', extra: 'x' },
		]);
	});

	it('limits the list when Return All is off', async () => {
		const lotes = Array.from({ length: 10 }, (_, id) => ({ id, descricao: `L${id}` }));
		const { items } = await run({
			parameters: {
				resource: 'batch',
				operation: 'getMany',
				returnAll: false,
				limit: 3,
				filters: {},
			},
			responses: [{ body: { data: { lotes } } }],
		});
		expect(items).toHaveLength(3);
	});

	it.each([
		[picked('42'), '42'],
		[picked('42', 'id'), '42'],
		[picked('Lote Novembro', 'name'), 'Lote Novembro'],
	])('moves a batch picked as %j to a queue', async (batch, lote) => {
		const { path, form } = await run({
			parameters: { resource: 'batch', operation: 'moveToQueue', batch, queue: '12' },
			responses: [
				{
					body: {
						status: 'success',
						data: {
							lote: { id: '42', login: 'Lote Novembro' },
							fila: { id: '12', descricao: 'F' },
						},
					},
				},
			],
		});
		expect(path).toBe('changeLoteToFila');
		expect(form).toEqual({ lote, fila: '12' });
	});
});

describe('team', () => {
	it('lists teams, all or those of one agent', async () => {
		const { path, form, items } = await run({
			parameters: {
				resource: 'team',
				operation: 'getMany',
				returnAll: true,
				filters: { agent: 'maria.souza' },
			},
			responses: [{ body: { data: { times: [{ id: 3, nome: 'Vendas' }] } } }],
		});
		expect(path).toBe('getTime');
		expect(form).toEqual({ user: 'maria.souza' });
		expect(items[0].json).toEqual({ id: 3, nome: 'Vendas' });
	});
});

describe('audio', () => {
	it('deactivates an audio by ID', async () => {
		const { path, form, items } = await run({
			parameters: { resource: 'audio', operation: 'deactivate', audioId: '7' },
			responses: [{ body: { data: { id: 7 } } }],
		});
		expect(path).toBe('desativarAudio');
		expect(form).toEqual({ id: '7' });
		expect(items[0].json).toEqual({ success: true, id: 7 });
	});
});

describe('reports', () => {
	it('sends the period in the workflow timezone', async () => {
		const { form } = await run({
			timezone: 'America/Sao_Paulo',
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				period: 'yesterday',
				returnAll: true,
				filters: {},
			},
			responses: [{ body: { data: { resultado: [] } } }],
		});
		const yesterday = DateTime.now().setZone('America/Sao_Paulo').minus({ days: 1 });
		expect(form).toEqual({
			de: `${yesterday.toFormat('yyyyMMdd')}000000`,
			ate: `${yesterday.toFormat('yyyyMMdd')}235959`,
		});
	});

	it('returns classification results one item per row, with every filter', async () => {
		const rows = [
			{ agente: 'Ana', resultado: 'Venda', novo_campo: 1 },
			{ agente: 'Bia', resultado: 'Recusa' },
		];
		const { path, form, items } = await run({
			parameters: {
				resource: 'report',
				operation: 'getClassificationResults',
				...customPeriod,
				returnAll: true,
				filters: {
					operation: '2',
					queue: 'Fila 1',
					batch: picked('9'),
					team: picked('Vendas', 'name'),
					agent: '101',
				},
			},
			responses: [{ body: { data: rows } }],
		});
		expect(path).toBe('getRQ4');
		expect(form).toEqual({
			de: '20261101000000',
			ate: '20261121235959',
			operacao: '2',
			fila: 'Fila 1',
			lote: '9',
			time: 'Vendas',
			agente: '101',
		});
		expect(items.map((item) => item.json)).toEqual(rows);
	});

	it('returns call history one item per call, each carrying the extension and range', async () => {
		const chamadas = [
			{
				horario: '2026-11-21 10:00:00',
				tipo: 'Gerada',
				numero: '(11) 9999-0000',
				duracao_segundos: 30,
				duracao: '00:00:30',
				desligada_por: '1',
				protocolo: 'P1',
			},
			{
				horario: '2026-11-21 11:00:00',
				tipo: 'Recebida',
				numero: '(11) 9999-0001',
				duracao_segundos: 60,
				duracao: '00:01:00',
				desligada_por: '2',
				protocolo: 'P2',
			},
		];
		const { path, form, items } = await run({
			parameters: {
				resource: 'report',
				operation: 'getCallHistory',
				entityType: 'RS',
				extensionOrAgent: '1001',
				...customPeriod,
				returnAll: true,
				filters: { direction: 'G' },
			},
			responses: [
				{
					body: {
						data: {
							ramal_agente: 'SIP/1001',
							de: '01/11/2026 00:00',
							ate: '21/11/2026 23:59',
							total: 2,
							chamadas,
						},
					},
				},
			],
		});
		expect(path).toBe('getHC2');
		expect(form).toEqual({
			tipo_entidade: 'RS',
			ramal_agente: '1001',
			de: '20261101000000',
			ate: '20261121235959',
			tipo: 'G',
		});
		expect(items.map((item) => item.json)).toEqual(
			chamadas.map((call) => ({
				...call,
				ramal_agente: 'SIP/1001',
				de: '01/11/2026 00:00',
				ate: '21/11/2026 23:59',
			})),
		);
	});

	it('leaves out an empty direction so both directions come back', async () => {
		const { form } = await run({
			parameters: {
				resource: 'report',
				operation: 'getCallHistory',
				entityType: 'A',
				extensionOrAgent: 'maria',
				...customPeriod,
				returnAll: true,
				filters: { direction: '' },
			},
			responses: [{ body: { data: { chamadas: [] } } }],
		});
		expect(form).not.toHaveProperty('tipo');
	});

	it('returns inbound calls from resultado', async () => {
		const { path, form, items } = await run({
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				...customPeriod,
				returnAll: true,
				filters: { inboundRoute: 'SAC', queue: '5' },
			},
			responses: [{ body: { data: { resultado: [{ origem: '1', tempo_fila: 3 }] } } }],
		});
		expect(path).toBe('getRE2');
		expect(form).toEqual({
			de: '20261101000000',
			ate: '20261121235959',
			fila: '5',
			rotaEntrada: 'SAC',
		});
		expect(items[0].json).toEqual({ origem: '1', tempo_fila: 3 });
	});

	describe('filled forms', () => {
		const base = {
			resource: 'report',
			operation: 'getFilledForms',
			selectBy: 'formAndPeriod',
			form: 'Pesquisa',
			...customPeriod,
			output: 'items',
			returnAll: true,
			filters: {},
		};

		it('returns one item per ficha for a form and period', async () => {
			const { path, form, items } = await run({
				parameters: {
					...base,
					filters: { status: 'Finalizada', prospect: 'Ana', batch: picked('9') },
				},
				responses: [
					{
						body: { data: [{ ficha: '1', nome_p: 'x', nota_1_f: '9' }] },
						contentType: 'application/vnd.api+json',
					},
				],
			});
			expect(path).toBe('getFP1');
			expect(form).toEqual({
				form: 'Pesquisa',
				de: '20261101000000',
				ate: '20261121235959',
				lote: '9',
				status: 'Finalizada',
				prospect: 'Ana',
				formato: 'json',
			});
			expect(items[0].json).toEqual({ ficha: '1', nome_p: 'x', nota_1_f: '9' });
		});

		it('sends ficha IDs instead of form and period', async () => {
			const { form } = await run({
				parameters: { ...base, selectBy: 'fichaIds', fichaIds: '5, 7-9' },
				responses: [{ body: { data: [] } }],
			});
			expect(form).toEqual({ fichaId: '5,7-9', formato: 'json' });
		});

		it('sends the report login from the credential when one is set', async () => {
			const { form } = await run({
				credentials: { ...TEST_CREDENTIALS, reportUser: 'supervisor', reportPassword: 'pw-secret' },
				parameters: base,
				responses: [{ body: { data: [] } }],
			});
			expect(form).toMatchObject({ user: 'supervisor', senha: 'pw-secret' });
		});

		it('outputs the CSV export as a binary file with a meaningful name', async () => {
			const csv = '\uFEFFficha;data;Cidade [P];Nota [1] [F]\n1;21/11/2026 10:00:00;São Paulo;9\n';
			const { form, items } = await run({
				parameters: {
					...base,
					form: 'Pesquisa de Satisfação',
					output: 'csvFile',
					binaryPropertyName: 'report',
				},
				responses: [{ body: csv, contentType: 'application/vnd.api+json' }],
			});
			expect(form.formato).toBe('csv');
			const fileName = 'filled-forms-pesquisa-de-satisfacao-20261101000000-20261121235959.csv';
			expect(items[0].json).toEqual({
				fileName,
				fileSize: Buffer.byteLength(csv),
				form: 'Pesquisa de Satisfação',
				de: '20261101000000',
				ate: '20261121235959',
			});
			expect(items[0].binary?.report).toMatchObject({ fileName, mimeType: 'text/csv' });
			expect(Buffer.from(items[0].binary!.report.data, 'base64').toString('utf8')).toBe(csv);
		});

		it('rejects malformed ficha IDs before sending', async () => {
			const { context, sent } = fakeExecuteFunctions({
				parameters: { ...base, selectBy: 'fichaIds', fichaIds: '5,,9' },
			});
			await expect(router.call(context)).rejects.toThrow(/Ficha IDs: contains an empty entry/);
			expect(sent).toHaveLength(0);
		});
	});

	it('rejects an end before the start before sending', async () => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: {
				resource: 'report',
				operation: 'getRE2',
				period: 'custom',
				start: '2026-11-21',
				end: '2026-11-20T10:00:00',
				returnAll: true,
			},
		});
		// An unknown operation is refused too; use a real one for the date check.
		await expect(router.call(context)).rejects.toThrow(/not supported/);
		const real = fakeExecuteFunctions({
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				period: 'custom',
				start: '2026-11-21',
				end: '2026-11-20T10:00:00',
				returnAll: true,
				filters: {},
			},
		});
		await expect(router.call(real.context)).rejects.toThrow(/End: .* is before Start/);
		expect(sent).toHaveLength(0);
		expect(real.sent).toHaveLength(0);
	});
});

describe('many items and continue on fail', () => {
	const items = Array.from({ length: 5 }, (_, i) => ({
		json: { audio: i === 2 ? 'x' : String(i + 1) },
	}));
	const parameters = {
		resource: 'audio',
		operation: 'deactivate',
		audioId: (i: number) => items[i].json.audio,
	};

	it('keeps every other item and records the error on the failing one', async () => {
		const { items: output, sent } = await run({
			items,
			continueOnFail: true,
			parameters,
			responses: [
				{ body: { data: { id: 1 } } },
				{ body: { data: { id: 2 } } },
				{ status: 500, body: { message: 'boom' } },
				{ body: { data: { id: 5 } } },
			],
		});
		expect(output).toHaveLength(5);
		expect(output.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		expect(output[2].json.error).toMatch(/Audio ID: "x" is not an ID/);
		expect(output[3].json.error).toBe('Dialer desativarAudio failed (HTTP 500): boom');
		expect(output[3].json.description).toMatch(/Retry later/);
		expect(output[4].json).toEqual({ success: true, id: 5 });
		expect(sent).toHaveLength(4);
	});

	it('stops at the first failure without continue on fail, pointing at the item', async () => {
		const { context } = fakeExecuteFunctions({
			items,
			parameters,
			responses: [{ body: { data: { id: 1 } } }],
		});
		const error = (await router
			.call(context)
			.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.context.itemIndex).toBe(2);
	});

	it('sends items one after the other by default, and up to Parallel Requests at once when set', async () => {
		const many = Array.from({ length: 12 }, (_, i) => ({ json: { audio: String(i + 1) } }));
		const audioId = (i: number) => many[i].json.audio;
		// Later items answer sooner, so order would break if output followed completion.
		const responses = many.map((_, i) => ({ body: { data: { id: i + 1 } }, delayMs: 24 - 2 * i }));

		const sequential = fakeExecuteFunctions({
			items: many,
			parameters: { resource: 'audio', operation: 'deactivate', audioId },
			responses,
		});
		const [inOrder] = await router.call(sequential.context);
		expect(sequential.load.maxInFlight).toBe(1);
		expect(inOrder.map((item) => item.json.id)).toEqual(many.map((_, i) => i + 1));

		const parallel = fakeExecuteFunctions({
			items: many,
			parameters: {
				resource: 'audio',
				operation: 'deactivate',
				audioId,
				options: { parallelRequests: 4 },
			},
			responses,
		});
		const [output] = await router.call(parallel.context);
		expect(parallel.load.maxInFlight).toBe(4);
		expect(output.map((item) => item.json.id)).toEqual(many.map((_, i) => i + 1));
		expect(output.map((item) => item.pairedItem)).toEqual(many.map((_, item) => ({ item })));
	});

	it('stops taking new items after a failure when running in parallel, and reports the first failing item', async () => {
		const many = Array.from({ length: 20 }, (_, i) => ({
			json: { audio: i === 5 || i === 3 ? 'bad' : String(i + 1) },
		}));
		const { context, sent } = fakeExecuteFunctions({
			items: many,
			parameters: {
				resource: 'audio',
				operation: 'deactivate',
				audioId: (i: number) => many[i].json.audio,
				options: { parallelRequests: 3 },
			},
			responses: [{ body: { data: { id: 1 } }, delayMs: 5 }],
		});
		const error = (await router
			.call(context)
			.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error.context.itemIndex).toBe(3);
		expect(sent.length).toBeLessThan(many.length - 2);
	});

	it('uses Options → Timeout for its requests, and the operation default without it', async () => {
		const withOption = fakeExecuteFunctions({
			parameters: {
				resource: 'audio',
				operation: 'deactivate',
				audioId: '1',
				options: { timeout: 1500 },
			},
		});
		await router.call(withOption.context);
		expect(withOption.sent[0].options.timeout).toBe(1500);
		const report = fakeExecuteFunctions({
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				period: 'today',
				returnAll: true,
				filters: {},
			},
			responses: [{ body: { data: { resultado: [] } } }],
		});
		await router.call(report.context);
		expect(report.sent[0].options.timeout).toBe(300_000);
	});

	it('keeps server errors as NodeApiError with the HTTP status', async () => {
		const { context } = fakeExecuteFunctions({
			parameters: { ...parameters, audioId: '9' },
			responses: [{ status: 503, body: '' }],
		});
		const error = (await router.call(context).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('503');
		expect(error.message).toBe('Dialer desativarAudio failed (HTTP 503): empty answer');
	});
});
