import { NodeOperationError } from 'n8n-workflow';

import { router } from '../../../../nodes/Dialer/actions/router';
import { fakeExecuteFunctions, runNode } from '../../support/executeFunctions';

describe('Queue → Create', () => {
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
		const { path, form, items } = await runNode({
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

	it('sends an Integration ID given by an expression as a number (a CRM id)', async () => {
		const { form } = await runNode({
			parameters: { ...required, additionalFields: { integrationId: 7 } },
			responses: [{ body: { status: 'success', data: { id: 88 } } }],
		});
		expect(form.integracao_id).toBe('7');
	});

	it('sends switches given by an expression as text ("true", "FALSE") as Y and N', async () => {
		const { form } = await runNode({
			parameters: {
				...required,
				overdial: 'true',
				addLocalAreaCode: 'FALSE',
				additionalFields: {},
			},
			responses: [{ body: { status: 'success', data: { id: 88 } } }],
		});
		expect(form).toMatchObject({ overdial: 'Y', adicionar_ddd_local: 'N' });
	});

	it.each([
		[{ channels: 0 }, 'Channels'],
		[{ maxOverdial: 1.5 }, 'Max Overdial'],
		[{ description: '  ' }, 'Description'],
		[{ queueOperation: '' }, 'Operation (ID or Name)'],
		[{ carrier: '' }, 'Carrier'],
		[{ dialingType: 'XYZ' }, 'Dialing Type'],
		[{ overdial: 'Y' }, 'Overdial'],
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
