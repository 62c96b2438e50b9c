import { router } from '../../../../nodes/Dialer/actions/router';
import { attachRecordings, readFileSettings } from '../../../../nodes/shared/recordings';
import {
	customPeriod,
	fakeExecuteFunctions,
	picked,
	runNode,
} from '../../support/executeFunctions';

describe('Report → Get Classification Results', () => {
	const everyRow = {
		resource: 'report',
		operation: 'getClassificationResults',
		...customPeriod,
		returnAll: true,
		filters: {},
	};

	it('returns classification results one item per row, with every filter', async () => {
		const rows = [
			{
				datahora: '21/11/2026 10:00:01',
				protocolo: '1',
				agente: 'Ana',
				resultado: 'Venda',
				novo_campo: 1,
			},
			{ datahora: '21/11/2026 10:00:02', protocolo: '2', agente: 'Bia', resultado: 'Recusa' },
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

	it('pairs each row, repeated rows included, with the input item that asked for it', async () => {
		const row = {
			datahora: '21/11/2026 10:00:01',
			protocolo: '',
			agente: 'Ana',
			resultado: 'Venda',
		};
		const { items } = await runNode({
			items: [{ json: {} }, { json: {} }],
			parameters: everyRow,
			responses: [{ body: { data: [row, row] } }, { body: { data: [row] } }],
		});
		expect(items.map((item) => [item.json, item.pairedItem])).toEqual([
			[row, { item: 0 }],
			[row, { item: 0 }],
			[row, { item: 1 }],
		]);
	});

	it('keeps classifications the dialer sent without protocolo or without datahora', async () => {
		const rows = [
			{ datahora: '21/11/2026 10:00:01', agente: 'Ana', resultado: 'Venda' },
			{ protocolo: 'P2', agente: 'Bia', resultado: 'Recusa' },
		];
		const { items } = await runNode({
			parameters: everyRow,
			responses: [{ body: { data: rows } }],
		});
		expect(items.map((item) => item.json)).toEqual(rows);
	});

	it.each([{ resultado: null, total: 0 }, { total: 0 }, [], null])(
		'gives no item for an answer without rows: %j',
		async (answer) => {
			const { items } = await runNode({
				parameters: everyRow,
				responses: [{ body: { data: answer } }],
			});
			expect(items).toEqual([]);
		},
	);
});

describe('Report → Get Classification Results with Download Recordings', () => {
	const link = (id: string) => `https://acme.dialer.test:8607/ipbox/gravacoes/${id}.wav`;
	const rows = [
		{ datahora: '21/11/2026 10:00:01', protocolo: 'P1', arquivo: link('a') },
		{ datahora: '21/11/2026 10:00:01', protocolo: 'P2', arquivo: '' },
		{ datahora: '21/11/2026 10:00:01', protocolo: 'P3', arquivo: link('c') },
		{ datahora: '21/11/2026 10:00:01', protocolo: 'P4', arquivo: link('d') },
	];
	const audio = (id: string) => ({
		body: Buffer.from(`RIFF-${id}`),
		contentType: 'audio/wav',
		delayTurns: 20,
	});
	const withDownloads = {
		resource: 'report',
		operation: 'getClassificationResults',
		...customPeriod,
		returnAll: true,
		downloadRecordings: true,
		binaryPropertyName: 'audio',
	};
	const run = (options: { continueOnFail?: boolean } = {}) =>
		runNode({
			parameters: { ...withDownloads, maxFileSize: 200, options: { parallelRequests: 2 } },
			continueOnFail: options.continueOnFail,
			route: (url) => {
				if (url.endsWith('getRQ4')) return { body: { data: rows.map((row) => ({ ...row })) } };
				if (url === link('c')) return { status: 404, contentType: 'text/html', body: 'Not Found' };
				return audio(url.slice(-5, -4));
			},
		});

	it('puts each row’s recording in its item, two at a time, and marks rows without one', async () => {
		const { items, load } = await run({ continueOnFail: true });
		expect(items.map((item) => item.json.recordingStatus)).toEqual([
			'downloaded',
			'no recording',
			'failed',
			'downloaded',
		]);
		expect(Buffer.from(items[3].binary!.audio.data, 'base64').toString()).toBe('RIFF-d');
		expect(items[1].binary).toBeUndefined();
		expect(items[2].json.recordingError).toMatch(/recording of call P3 .* \(HTTP 404\)/);
		expect(load.maxInFlight).toBe(2);
	});

	it('drops the error of an earlier attempt from a row whose recording comes this time', async () => {
		// The Report Trigger emits a row again after n8n could not start its execution: the same
		// object, with the failure of its first download on it.
		const { context } = fakeExecuteFunctions({
			parameters: withDownloads,
			route: (url) => audio(url.slice(-5, -4)),
		});
		const again = [
			{ json: { ...rows[0], recordingStatus: 'failed', recordingError: 'HTTP 503' } },
			{ json: { ...rows[1], recordingStatus: 'failed', recordingError: 'HTTP 503' } },
		];
		await attachRecordings.call(context, again, readFileSettings(context, 0), {
			parallel: 2,
			keepFailures: true,
		});
		expect(again.map(({ json }) => [json.recordingStatus, 'recordingError' in json])).toEqual([
			['downloaded', false],
			['no recording', false],
		]);
	});

	it('fails the run on a failed download without continue on fail, naming the call', async () => {
		await expect(run()).rejects.toThrow(
			`Could not download the recording of call P3 from ${link('c')} (HTTP 404)`,
		);
	});

	it('checks the download settings before reading the report', async () => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: { ...withDownloads, binaryPropertyName: '' },
		});
		await expect(router.call(context)).rejects.toThrow(/Put Output File in Field: is empty/);
		expect(sent).toHaveLength(0);
	});
});
