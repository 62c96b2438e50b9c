import * as callHistory from '../../../nodes/shared/reports/callHistory';
import * as classificationResults from '../../../nodes/shared/reports/classificationResults';
import * as filledForms from '../../../nodes/shared/reports/filledForms';
import * as inboundCalls from '../../../nodes/shared/reports/inboundCalls';
import * as teams from '../../../nodes/Dialer/actions/team/getMany.operation';
import {
	dialerApiDownload,
	dialerApiRequest,
	encodeForm,
	operationUrl,
	unwrapEnvelope,
} from '../../../nodes/shared/transport/request';
import { callApi, fakeExecuteFunctions, TEST_CREDENTIALS } from '../support/executeFunctions';

describe('requests', () => {
	it('posts form fields to {baseUrl}/{pathSegment}/api/{operation}', async () => {
		const { result, sent } = await callApi([{ body: { data: { total: 0 } } }], {
			de: '20261121000000',
			ramal_agente: 'Operação 1',
			tipo: '',
			omitted: undefined,
		});
		await result;
		expect(sent).toHaveLength(1);
		expect(sent[0].url).toBe('https://acme.dialer.test:8607/ipbox/api/getHC2');
		expect(sent[0].method).toBe('POST');
		expect(sent[0].headers['Content-Type']).toBe('application/x-www-form-urlencoded');
		expect(sent[0].form).toEqual({ de: '20261121000000', ramal_agente: 'Operação 1' });
		expect(sent[0].options.returnFullResponse).toBe(true);
		expect(sent[0].options.ignoreHttpStatusErrors).toBe(true);
		expect(sent[0].options.skipSslCertificateValidation).toBe(false);
	});

	it('percent-encodes accents and spaces in form values', () => {
		expect(encodeForm({ operacao: 'Operação 1', vazio: '' })).toBe('operacao=Opera%C3%A7%C3%A3o+1');
	});

	it('tolerates slashes around the base URL and the path segment', () => {
		expect(operationUrl({ baseUrl: 'https://h:1', pathSegment: 'ipbox' }, 'getTime')).toBe(
			'https://h:1/ipbox/api/getTime',
		);
		expect(operationUrl({ baseUrl: 'https://h:1', pathSegment: 'a b' }, 'getTime')).toBe(
			'https://h:1/a%20b/api/getTime',
		);
	});

	it('reads the credential once for many requests of one run', async () => {
		const { context } = fakeExecuteFunctions({
			parameters: {},
			responses: [{ body: { data: [] } }],
		});
		const getCredentials = jest.spyOn(context, 'getCredentials');
		for (let i = 0; i < 5; i++) await dialerApiRequest.call(context, teams.endpoint, {}, i);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('skips TLS validation only when the credential says so', async () => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: {},
			credentials: { ...TEST_CREDENTIALS, ignoreSslIssues: true },
		});
		await dialerApiRequest.call(context, teams.endpoint, {});
		expect(sent[0].options.skipSslCertificateValidation).toBe(true);
	});
});

describe('the data envelope', () => {
	it('unwraps the payload under data', async () => {
		const { result } = await callApi([{ body: { data: { lotes: [{ id: 1 }] } } }]);
		await expect(result).resolves.toEqual({ lotes: [{ id: 1 }] });
	});

	it('tolerates its absence', async () => {
		const { result } = await callApi([{ body: { lotes: [{ id: 1 }] } }]);
		await expect(result).resolves.toEqual({ lotes: [{ id: 1 }] });
		expect(unwrapEnvelope([1, 2])).toEqual([1, 2]);
	});

	it('reads JSON served as application/vnd.api+json and with a byte order mark', async () => {
		const { result } = await callApi([
			{ body: '\uFEFF{"data":[{"ficha":"1"}]}', contentType: 'application/vnd.api+json' },
		]);
		await expect(result).resolves.toEqual([{ ficha: '1' }]);
	});
});

describe('transfer settings each operation declares', () => {
	it('streams the reports answered in one piece for a whole period, and reads other answers whole', async () => {
		for (const [endpoint, encoding] of [
			[filledForms.endpoint, 'stream'],
			[classificationResults.endpoint, 'stream'],
			[inboundCalls.endpoint, 'stream'],
			[callHistory.endpoint, 'arraybuffer'],
			[teams.endpoint, 'arraybuffer'],
		] as const) {
			const { operation } = endpoint;
			const { context, sent } = fakeExecuteFunctions({
				parameters: {},
				responses: [{ body: { data: [] } }],
			});
			await dialerApiRequest.call(context, endpoint, {}, 0);
			expect([operation, sent[0].options.encoding]).toEqual([operation, encoding]);
		}
	});
});

describe('file downloads', () => {
	it('returns the CSV bytes unchanged', async () => {
		const csv = '\uFEFFficha;data\n1;21/11/2026 10:00:00\n';
		const { context } = fakeExecuteFunctions({
			parameters: {},
			responses: [{ body: csv, contentType: 'application/vnd.api+json' }],
		});
		const file = await dialerApiDownload.call(context, filledForms.endpoint, { formato: 'csv' });
		expect(file.body.toString('utf8')).toBe(csv);
	});

	it('still reports a JSON failure answered instead of the file', async () => {
		const { context } = fakeExecuteFunctions({
			parameters: {},
			responses: [{ body: { status: 'error', message: 'Fichas de formulários diferentes' } }],
		});
		await expect(
			dialerApiDownload.call(context, filledForms.endpoint, { formato: 'csv' }),
		).rejects.toThrow('Dialer getFP1 failed (HTTP 200): Fichas de formulários diferentes');
	});
});
