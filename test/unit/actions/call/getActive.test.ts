import { runNode } from '../../support/executeFunctions';

describe('Call → Get Active', () => {
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
		const { path, form, items } = await runNode({
			parameters: { resource: 'call', operation: 'getActive', extension: '1001' },
			responses: [{ body: { data: call } }],
		});
		expect(path).toBe('getLigacaoAtivaByRamal');
		expect(form).toEqual({ ramal: '1001' });
		expect(items[0].json).toEqual({ extension: '1001', active: true, ...call });
	});

	it.each([
		{ data: {} },
		{ data: null },
		{ data: [] },
		{},
		// PHP's answer when its query finds no row, and a row of empty fields.
		{ data: false },
		{ data: { ddd: '', uid: '', numero: '', nome: null } },
	])('says plainly that an idle extension has no call (%j)', async (body) => {
		const { items } = await runNode({
			parameters: { resource: 'call', operation: 'getActive', extension: '1002' },
			responses: [{ body }],
		});
		expect(items[0].json).toEqual({
			extension: '1002',
			active: false,
			message: 'No active call on extension 1002',
		});
	});
});
