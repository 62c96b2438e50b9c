import { picked, runNode } from '../../support/executeFunctions';

describe('Batch → Move to Queue', () => {
	it.each([
		[picked('42'), '42'],
		[picked('42', 'id'), '42'],
		[picked('Lote Novembro', 'name'), 'Lote Novembro'],
	])('moves a batch picked as %j to a queue', async (batch, lote) => {
		const { path, form } = await runNode({
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
