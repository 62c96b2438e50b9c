import type { IDataObject } from 'n8n-workflow';

import { router } from '../../../../nodes/Dialer/actions/router';
import { customPeriod, fakeExecuteFunctions, runNode } from '../../support/executeFunctions';

const TIME = '21/11/2026 10:00:01';
const call = (
	destino: string,
	status: string,
	tempo_fila: string | number,
	agente = '',
): IDataObject => ({
	data_hora: TIME,
	origem: '(11) 91234-5678',
	roteamento: 'SAC 0800',
	tipo_destino: 'FILA',
	destino,
	status,
	tempo_fila,
	agente,
});

async function summary(operation: string, parameters: IDataObject, body: unknown) {
	const { items, sent } = await runNode({
		parameters: {
			resource: 'report',
			operation,
			...customPeriod,
			output: 'summary',
			...parameters,
		},
		responses: [{ body }],
	});
	expect(sent).toHaveLength(1);
	expect(items).toHaveLength(1);
	return items[0].json;
}

describe('Report → Get Inbound Calls, Output: Summary', () => {
	const rows = [
		call('Fila SAC', 'AT', 5, 'ana.souza'),
		call('Fila SAC', 'AT', 20, 'ana.souza'),
		call('Fila SAC', 'AT', '45', 'bruno.lima'),
		call('Fila SAC', 'AB', 90),
		call('Fila Vendas', 'RA', 30),
		call('Fila Vendas', 'XY', ''),
		call('', 'AT', 0, 'bruno.lima'),
	];

	it('gives offered, answered, service level and waits per destination and in total', async () => {
		const json = await summary(
			'getInboundCalls',
			{ groupBy: 'destination', serviceLevelSeconds: 20, filters: {} },
			{ data: { resultado: rows } },
		);
		expect(json).toMatchObject({
			de: '20261101000000',
			ate: '20261121235959',
			serviceLevelSeconds: 20,
			groupField: 'destino',
		});
		expect(json.total).toEqual({
			offered: 7,
			answered: 4,
			notAnswered: 3,
			answeredPercent: 57.1,
			answeredWithinServiceLevel: 3,
			serviceLevelPercent: 42.9,
			// The blank wait is no wait: 190 seconds over 6 calls.
			averageWaitSeconds: 31.7,
			longestWaitSeconds: 90,
			statuses: { AB: 1, AT: 4, RA: 1, XY: 1 },
		});
		expect(
			(json.groups as IDataObject[]).map(({ name, offered, answered }) => ({
				name,
				offered,
				answered,
			})),
		).toEqual([
			{ name: '(blank)', offered: 1, answered: 1 },
			{ name: 'Fila SAC', offered: 4, answered: 3 },
			{ name: 'Fila Vendas', offered: 2, answered: 0 },
		]);
		expect((json.groups as IDataObject[])[2]).toMatchObject({
			serviceLevelPercent: 0,
			averageWaitSeconds: 30,
			statuses: { RA: 1, XY: 1 },
		});
	});

	it('groups by agent, and counts a wait equal to the service level as within it', async () => {
		const json = await summary(
			'getInboundCalls',
			{ groupBy: 'agent', serviceLevelSeconds: 45, filters: {} },
			{ data: { resultado: rows } },
		);
		expect((json.total as IDataObject).answeredWithinServiceLevel).toBe(4);
		expect((json.groups as IDataObject[]).map((group) => [group.name, group.answered])).toEqual([
			['(blank)', 0],
			['ana.souza', 2],
			['bruno.lima', 2],
		]);
	});

	it.each([{ resultado: null, total: 0 }, { resultado: [] }, []])(
		'summarises a day without calls as zero calls, without percentages: %j',
		async (answer) => {
			const json = await summary(
				'getInboundCalls',
				{ groupBy: 'none', serviceLevelSeconds: 20, filters: {} },
				{ data: answer },
			);
			expect(json.groups).toEqual([]);
			expect(json.groupField).toBeNull();
			expect(json.total).toEqual({
				offered: 0,
				answered: 0,
				notAnswered: 0,
				answeredPercent: null,
				answeredWithinServiceLevel: 0,
				serviceLevelPercent: null,
				averageWaitSeconds: null,
				longestWaitSeconds: null,
				statuses: {},
			});
		},
	);

	it('reads waits written as durations (00:00:20, 1:05), as call times are elsewhere', async () => {
		const json = await summary(
			'getInboundCalls',
			{ groupBy: 'none', serviceLevelSeconds: 20, filters: {} },
			{ data: { resultado: [call('F', 'AT', '00:00:20'), call('F', 'AT', '1:05')] } },
		);
		expect(json.total).toMatchObject({
			answeredWithinServiceLevel: 1,
			averageWaitSeconds: 42.5,
			longestWaitSeconds: 65,
		});
	});

	it('takes a service level an expression gives as text ("20")', async () => {
		const json = await summary(
			'getInboundCalls',
			{ groupBy: 'none', serviceLevelSeconds: ' 20 ', filters: {} },
			{ data: { resultado: [call('F', 'AT', 20), call('F', 'AT', 21)] } },
		);
		expect(json).toMatchObject({ serviceLevelSeconds: 20 });
		expect(json.total).toMatchObject({ answeredWithinServiceLevel: 1 });
	});

	it.each([-1, Number.NaN, '', 'vinte'])(
		'refuses a service level of %p before sending',
		async (seconds) => {
			const real = fakeExecuteFunctions({
				parameters: {
					resource: 'report',
					operation: 'getInboundCalls',
					...customPeriod,
					output: 'summary',
					groupBy: 'destination',
					serviceLevelSeconds: seconds,
					filters: {},
				},
			});
			await expect(router.call(real.context)).rejects.toThrow(/Service Level \(Seconds\)/);
			expect(real.sent).toHaveLength(0);
		},
	);
});

describe('Report → Get Classification Results, Output: Summary', () => {
	it('counts classifications by result per agent, naming each result as it comes', async () => {
		const row = (agente: string, resultado: string) => ({
			datahora: TIME,
			agente,
			fila: 'Cobrança Preditivo',
			resultado,
			protocolo: `${agente}-${resultado}-${Math.random()}`,
		});
		const json = await summary(
			'getClassificationResults',
			{ groupBy: 'agent', filters: {} },
			{
				data: [
					row('Ana Souza', 'Venda'),
					row('Ana Souza', 'Venda'),
					row('Ana Souza', ''),
					row('Bruno Lima', 'Recusa'),
				],
			},
		);
		expect(json.total).toEqual({
			classifications: 4,
			results: { '(blank)': 1, Recusa: 1, Venda: 2 },
		});
		expect(json.groups).toEqual([
			{ name: 'Ana Souza', classifications: 3, results: { '(blank)': 1, Venda: 2 } },
			{ name: 'Bruno Lima', classifications: 1, results: { Recusa: 1 } },
		]);
	});
});

describe('Report → Get Filled Forms, Output: Summary', () => {
	it('counts the fichas of a form by status per team', async () => {
		const ficha = (ficha: string, time: string, status: string) => ({
			ficha,
			data: TIME,
			agente: 'ana.souza',
			time,
			status,
		});
		const { items, form } = await runNode({
			parameters: {
				resource: 'report',
				operation: 'getFilledForms',
				selectBy: 'formAndPeriod',
				form: 'Pesquisa',
				...customPeriod,
				output: 'summary',
				groupBy: 'team',
				filters: {},
			},
			responses: [
				{
					body: {
						data: [
							ficha('1', 'Manhã', 'Finalizada'),
							ficha('2', 'Manhã', 'Pendente'),
							ficha('3', 'Tarde', 'Finalizada'),
						],
					},
				},
			],
		});
		expect(form).toMatchObject({ form: 'Pesquisa', formato: 'json' });
		expect(items.map((item) => item.json)).toEqual([
			{
				de: '20261101000000',
				ate: '20261121235959',
				form: 'Pesquisa',
				groupField: 'time',
				total: { fichas: 3, statuses: { Finalizada: 2, Pendente: 1 } },
				groups: [
					{ name: 'Manhã', fichas: 2, statuses: { Finalizada: 1, Pendente: 1 } },
					{ name: 'Tarde', fichas: 1, statuses: { Finalizada: 1 } },
				],
			},
		]);
	});
});
