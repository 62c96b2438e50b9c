import { DateTime } from 'luxon';

import { router } from '../../../../nodes/Dialer/actions/router';
import { customPeriod, fakeExecuteFunctions, runNode } from '../../support/executeFunctions';

const TIME = '21/11/2026 10:00:01';

describe('Report → Get Inbound Calls', () => {
	it('sends the period in the workflow timezone', async () => {
		const { form } = await runNode({
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

	it('returns inbound calls from resultado', async () => {
		const { path, form, items } = await runNode({
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				...customPeriod,
				returnAll: true,
				filters: { inboundRoute: 'SAC', queue: '5' },
			},
			responses: [
				{ body: { data: { resultado: [{ data_hora: TIME, origem: '1', tempo_fila: 3 }] } } },
			],
		});
		expect(path).toBe('getRE2');
		expect(form).toEqual({
			de: '20261101000000',
			ate: '20261121235959',
			fila: '5',
			rotaEntrada: 'SAC',
		});
		expect(items.map((item) => item.json)).toEqual([
			{ data_hora: TIME, origem: '1', tempo_fila: 3 },
		]);
	});

	it('rejects an end before the start before sending', async () => {
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
		expect(real.sent).toHaveLength(0);
	});

	it.each([
		{ resultado: null, total: 0 },
		{ resultado: [], total: 0 },
		{ total: 0 },
		{ resultado: [{ total: 0 }] },
	])('gives no item for an answer without calls: %j', async (answer) => {
		const { items } = await runNode({
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				...customPeriod,
				returnAll: true,
				filters: {},
			},
			responses: [{ body: { data: answer } }],
		});
		expect(items).toEqual([]);
	});

	it('keeps a call the dialer sent without data_hora, as an item and in the summary', async () => {
		const call = { data_hora: TIME, origem: '11 5555-0001', roteamento: 'SAC', status: 'AT' };
		const { origem, roteamento, status } = call;
		const untimed = { origem, roteamento, status, tempo_fila: 5 };
		const run = (more: Record<string, unknown>) =>
			runNode({
				parameters: {
					resource: 'report',
					operation: 'getInboundCalls',
					...customPeriod,
					returnAll: true,
					filters: {},
					...more,
				},
				responses: [{ body: { data: { resultado: [untimed, { ...call, tempo_fila: 30 }] } } }],
			});
		const { items } = await run({});
		expect(items.map((item) => item.json.origem)).toEqual([origem, origem]);
		const summary = await run({ output: 'summary', groupBy: 'none', serviceLevelSeconds: 20 });
		expect(summary.items[0].json.total).toMatchObject({
			offered: 2,
			answered: 2,
			answeredWithinServiceLevel: 1,
		});
	});
});
