import { runNode } from '../../support/executeFunctions';

describe('Team → Get Many', () => {
	it('lists teams, all or those of one agent', async () => {
		const { path, form, items } = await runNode({
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

	it('gives one item per team when the dialer lists the teams by name only', async () => {
		const { items } = await runNode({
			parameters: { resource: 'team', operation: 'getMany', returnAll: true, filters: {} },
			responses: [{ body: { data: { times: ['Vendas', 'Suporte'] } } }],
		});
		expect(items.map((item) => item.json)).toEqual([{ value: 'Vendas' }, { value: 'Suporte' }]);
	});

	// PHP's answer when its query finds no row is false.
	it.each([{ data: false }, { data: { times: false } }])(
		'gives no team for an agent without teams: %j',
		async (body) => {
			const { items } = await runNode({
				parameters: { resource: 'team', operation: 'getMany', returnAll: true, filters: {} },
				responses: [{ body }],
			});
			expect(items).toEqual([]);
		},
	);
});
