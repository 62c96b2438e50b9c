import { customPeriod, picked, runNode } from '../../support/executeFunctions';

describe('Report → Get Classification Results', () => {
	it('returns classification results one item per row, with every filter', async () => {
		const rows = [
			{ agente: 'Ana', resultado: 'Venda', novo_campo: 1 },
			{ agente: 'Bia', resultado: 'Recusa' },
		];
		const { path, form, items } = await runNode({
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
});
