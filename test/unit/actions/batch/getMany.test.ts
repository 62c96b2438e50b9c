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

	const lotes = Array.from({ length: 10 }, (_, id) => ({ id, descricao: `L${id}` }));
	const limited = (limit: unknown) =>
		runNode({
			parameters: { resource: 'batch', operation: 'getMany', returnAll: false, limit, filters: {} },
			responses: [{ body: { data: { lotes } } }],
		});

	// An expression hands a Limit read from a sheet or a form over as text: n8n does not convert it.
	it.each([3, '3', ' 3 '])('limits the list to %p when Return All is off', async (limit) => {
		const { items } = await limited(limit);
		expect(items).toHaveLength(3);
	});

	it('keeps to Limit when Return All is given by an expression as text ("false")', async () => {
		const { items } = await runNode({
			parameters: { resource: 'batch', operation: 'getMany', returnAll: 'false', limit: 3 },
			responses: [{ body: { data: { lotes } } }],
		});
		expect(items).toHaveLength(3);
	});

	it.each([0, 2.5, '', 'three', '3 items'])('refuses a Limit of %p', async (limit) => {
		await expect(limited(limit)).rejects.toThrow(/Limit: .* is not a positive whole number/);
	});
});
