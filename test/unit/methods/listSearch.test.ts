import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { searchBatches, searchTeams } from '../../../nodes/Dialer/methods/listSearch';
import { fakeExecuteFunctions, type FakeResponse } from '../support/executeFunctions';

/** The editor's list search: no item, no node options, only the credential. */
function listSearch(responses: FakeResponse[]) {
	const { context, sent } = fakeExecuteFunctions({ parameters: {}, responses });
	return { context: context as unknown as ILoadOptionsFunctions, sent };
}

describe('batch picker', () => {
	const lotes = [
		{ id: 12, descricao: 'Lote Novembro' },
		{ id: '3', descricao: 'Lote Agosto' },
		{ codigo: 'X9', nome: 'Sem ID numérico' },
		{ descricao: 'Sem ID' },
	];

	it('lists active batches by name with their ID, sorted by name, without entries lacking an ID', async () => {
		const { context, sent } = listSearch([{ body: { data: { lotes } } }]);
		const { results } = await searchBatches.call(context);
		expect(sent[0].url).toBe('https://acme.dialer.test:8607/ipbox/api/getLotesAtivos');
		expect(sent[0].form).toEqual({});
		expect(results).toEqual([
			{ name: 'Lote Agosto (3)', value: '3' },
			{ name: 'Lote Novembro (12)', value: '12' },
			{ name: 'Sem ID numérico (X9)', value: 'X9' },
		]);
	});

	it('keeps the entries whose name or ID contains the search text, ignoring case', async () => {
		const { context } = listSearch([{ body: { data: { lotes } } }]);
		const { results } = await searchBatches.call(context, '  NOVEMBRO ');
		expect(results).toEqual([{ name: 'Lote Novembro (12)', value: '12' }]);
		const byId = await searchBatches.call(
			listSearch([{ body: { data: { lotes } } }]).context,
			'(3)',
		);
		expect(byId.results).toEqual([{ name: 'Lote Agosto (3)', value: '3' }]);
	});

	it('uses the default timeout of the operation, since the editor has no Timeout option', async () => {
		const { context, sent } = listSearch([{ body: { data: { lotes: [] } } }]);
		await searchBatches.call(context);
		expect(sent[0].options.timeout).toBe(60_000);
	});
});

describe('team picker', () => {
	it('lists teams under times, named by nome, then login, then ID', async () => {
		const { context, sent } = listSearch([
			{
				body: {
					data: {
						times: [{ id: 3, nome: 'Vendas' }, { id: 5, login: 'equipe.noite' }, { id: 8 }],
					},
				},
			},
		]);
		const { results } = await searchTeams.call(context);
		expect(sent[0].url).toBe('https://acme.dialer.test:8607/ipbox/api/getTime');
		expect(results).toEqual([
			{ name: '8 (8)', value: '8' },
			{ name: 'equipe.noite (5)', value: '5' },
			{ name: 'Vendas (3)', value: '3' },
		]);
	});

	it('fails like the node does when the dialer refuses, titled with the list it loads', async () => {
		const { context } = listSearch([{ status: 401, body: '' }]);
		await expect(searchTeams.call(context)).rejects.toThrow(
			'Loading the team list failed (HTTP 401): empty answer',
		);
	});
});
