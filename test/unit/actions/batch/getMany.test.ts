import { runNode } from '../../support/executeFunctions';

describe('Batch → Get Many', () => {
	it('lists active batches, one item each, optionally of one queue', async () => {
		const { path, form, items } = await runNode({
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
		const { items } = await runNode({
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
});
