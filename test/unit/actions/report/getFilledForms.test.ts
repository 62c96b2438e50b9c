import { router } from '../../../../nodes/Dialer/actions/router';
import {
	customPeriod,
	fakeExecuteFunctions,
	picked,
	runNode,
	TEST_CREDENTIALS,
} from '../../support/executeFunctions';

describe('Report → Get Filled Forms', () => {
	const base = {
		resource: 'report',
		operation: 'getFilledForms',
		selectBy: 'formAndPeriod',
		form: 'Pesquisa',
		...customPeriod,
		output: 'items',
		returnAll: true,
		filters: {},
	};

	it('returns one item per ficha for a form and period', async () => {
		const { path, form, items } = await runNode({
			parameters: {
				...base,
				filters: { status: 'Finalizada', prospect: 'Ana', batch: picked('9') },
			},
			responses: [
				{
					body: { data: [{ ficha: '1', data: '21/11/2026 10:00:01', nome_p: 'x', nota_1_f: '9' }] },
					contentType: 'application/vnd.api+json',
				},
			],
		});
		expect(path).toBe('getFP1');
		expect(form).toEqual({
			form: 'Pesquisa',
			de: '20261101000000',
			ate: '20261121235959',
			lote: '9',
			status: 'Finalizada',
			prospect: 'Ana',
			formato: 'json',
		});
		expect(items.map((item) => item.json)).toEqual([
			{ ficha: '1', data: '21/11/2026 10:00:01', nome_p: 'x', nota_1_f: '9' },
		]);
	});

	it.each([{ total: 0 }, { resultado: null, total: 0 }, null, []])(
		'gives no item for an answer without fichas: %j',
		async (answer) => {
			const { items } = await runNode({
				parameters: base,
				responses: [{ body: { data: answer }, contentType: 'application/vnd.api+json' }],
			});
			expect(items).toEqual([]);
		},
	);

	it('sends ficha IDs instead of form and period', async () => {
		const { form } = await runNode({
			parameters: { ...base, selectBy: 'fichaIds', fichaIds: '5, 7-9' },
			responses: [{ body: { data: [] } }],
		});
		expect(form).toEqual({ fichaId: '5,7-9', formato: 'json' });
	});

	it('sends the report login from the credential when one is set', async () => {
		const { form } = await runNode({
			credentials: { ...TEST_CREDENTIALS, reportUser: 'supervisor', reportPassword: 'pw-secret' },
			parameters: base,
			responses: [{ body: { data: [] } }],
		});
		expect(form).toMatchObject({ user: 'supervisor', senha: 'pw-secret' });
	});

	it('reads the credential once for a run of many items: period, report login and server', async () => {
		const { context, sent } = fakeExecuteFunctions({
			credentials: { ...TEST_CREDENTIALS, reportUser: 'supervisor', reportPassword: 'pw-secret' },
			parameters: base,
			items: [{ json: {} }, { json: {} }, { json: {} }],
			responses: [{ body: { data: [] } }],
		});
		const getCredentials = jest.spyOn(context, 'getCredentials');
		await router.call(context);
		expect(sent).toHaveLength(3);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('outputs the CSV export as a binary file with a meaningful name', async () => {
		const csv = '\uFEFFficha;data;Cidade [P];Nota [1] [F]\n1;21/11/2026 10:00:00;São Paulo;9\n';
		const { form, items } = await runNode({
			parameters: {
				...base,
				form: 'Pesquisa de Satisfação',
				output: 'csvFile',
				binaryPropertyName: 'report',
			},
			responses: [{ body: csv, contentType: 'application/vnd.api+json' }],
		});
		expect(form.formato).toBe('csv');
		const fileName = 'filled-forms-pesquisa-de-satisfacao-20261101000000-20261121235959.csv';
		expect(items[0].json).toEqual({
			fileName,
			fileSize: Buffer.byteLength(csv),
			form: 'Pesquisa de Satisfação',
			de: '20261101000000',
			ate: '20261121235959',
		});
		expect(items[0].binary?.report).toMatchObject({ fileName, mimeType: 'text/csv' });
		expect(Buffer.from(items[0].binary!.report.data, 'base64').toString('utf8')).toBe(csv);
	});

	it.each([
		['as it is', ''],
		['after a byte order mark and a line break (a PHP file saved with one)', '\uFEFF\n'],
	])('fails on a CSV export the dialer refuses with a JSON message %s', async (_form, start) => {
		const refusal = `${start}{"status":"error","message":"Formulário não encontrado"}`;
		const { context } = fakeExecuteFunctions({
			parameters: { ...base, output: 'csvFile', binaryPropertyName: 'report' },
			responses: [{ body: refusal, contentType: 'application/vnd.api+json' }],
		});
		await expect(router.call(context)).rejects.toThrow(
			'Report → Get Filled Forms failed (HTTP 200): Formulário não encontrado',
		);
	});

	it('rejects malformed ficha IDs before sending', async () => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: { ...base, selectBy: 'fichaIds', fichaIds: '5,,9' },
		});
		await expect(router.call(context)).rejects.toThrow(/Ficha IDs: contains an empty entry/);
		expect(sent).toHaveLength(0);
	});
});
