import { NodeApiError } from 'n8n-workflow';

import {
	dialerApiDownload,
	dialerApiRequest,
	encodeForm,
	failureMessage,
	operationUrl,
	unwrapEnvelope,
} from '../../nodes/Dialer/transport';
import {
	fakeExecuteFunctions,
	TEST_CREDENTIALS,
	type FakeResponse,
} from './support/executeFunctions';

async function call(responses: FakeResponse[], fields: Record<string, string | undefined> = {}) {
	const { context, sent } = fakeExecuteFunctions({ parameters: {}, responses });
	const result = dialerApiRequest.call(context, 'getHC2', fields, 3);
	return { result, sent };
}

async function failure(response: FakeResponse): Promise<NodeApiError> {
	const { result } = await call([response]);
	const error = await result.then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

describe('requests', () => {
	it('posts form fields to {baseUrl}/{pathSegment}/api/{operation}', async () => {
		const { result, sent } = await call([{ body: { data: { total: 0 } } }], {
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
		for (let i = 0; i < 5; i++) await dialerApiRequest.call(context, 'getTime', {}, i);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('skips TLS validation only when the credential says so', async () => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: {},
			credentials: { ...TEST_CREDENTIALS, ignoreSslIssues: true },
		});
		await dialerApiRequest.call(context, 'getTime', {});
		expect(sent[0].options.skipSslCertificateValidation).toBe(true);
	});
});

describe('the data envelope', () => {
	it('unwraps the payload under data', async () => {
		const { result } = await call([{ body: { data: { lotes: [{ id: 1 }] } } }]);
		await expect(result).resolves.toEqual({ lotes: [{ id: 1 }] });
	});

	it('tolerates its absence', async () => {
		const { result } = await call([{ body: { lotes: [{ id: 1 }] } }]);
		await expect(result).resolves.toEqual({ lotes: [{ id: 1 }] });
		expect(unwrapEnvelope([1, 2])).toEqual([1, 2]);
	});

	it('reads JSON served as application/vnd.api+json and with a byte order mark', async () => {
		const { result } = await call([
			{ body: '\uFEFF{"data":[{"ficha":"1"}]}', contentType: 'application/vnd.api+json' },
		]);
		await expect(result).resolves.toEqual([{ ficha: '1' }]);
	});
});

describe('errors name the operation and the HTTP status, and give a hint', () => {
	it('turns a 500 with a JSON message into a NodeApiError', async () => {
		const error = await failure({
			status: 500,
			body: { status: 'error', message: 'Banco indisponível' },
		});
		expect(error.message).toBe('Dialer getHC2 failed (HTTP 500): Banco indisponível');
		expect(error.httpCode).toBe('500');
		expect(error.description).toMatch(/Retry later/);
	});

	it('strips the markup of an HTML error page', async () => {
		const error = await failure({
			status: 502,
			body: '<html><head><style>p{}</style></head><body><h1>502 Bad Gateway</h1></body></html>',
		});
		expect(error.message).toBe('Dialer getHC2 failed (HTTP 502): 502 Bad Gateway');
	});

	it.each([
		[401, /token/],
		[404, /path segment/],
		[429, /limiting/],
	])('explains HTTP %i', async (status, hint) => {
		const error = await failure({ status, body: '' });
		expect(error.message).toContain(`(HTTP ${status})`);
		expect(error.description).toMatch(hint);
	});

	it('rejects a 200 whose body is not JSON', async () => {
		const error = await failure({ body: '{"data":[{"ficha":"1"' });
		expect(error.message).toMatch(/^Dialer getHC2 failed \(HTTP 200\): answer is not JSON/);
	});

	it('rejects an empty 200', async () => {
		const error = await failure({ body: '' });
		expect(error.message).toBe('Dialer getHC2 failed (HTTP 200): empty answer instead of JSON');
	});

	it('rejects a 200 whose body reports failure', async () => {
		const error = await failure({ body: { status: 'error', message: 'Fila não encontrada' } });
		expect(error.message).toBe('Dialer getHC2 failed (HTTP 200): Fila não encontrada');
	});

	it.each([
		[{ status: 'success', data: { id: 1 } }, undefined],
		[{ status: 'error', message: 'x' }, 'x'],
		[{ status: 'fail' }, 'status "fail"'],
		[{ success: false, mensagem: 'sem permissão' }, 'sem permissão'],
		[{ erro: 'Ficha de formulários diferentes' }, 'Ficha de formulários diferentes'],
		[{ error: { code: 7 } }, '{"code":7}'],
		// A bare record with its own status field is data, not a failure.
		[{ codigo: '1', nome: 'Ana', status: 'ATIVO', uid: 'a-b-c' }, undefined],
		[[{ status: 'error' }], undefined],
	])('reads %j as failure %p', (body, expected) => {
		expect(failureMessage(body)).toBe(expected);
	});

	it.each([
		['ECONNREFUSED', /connection refused/, /host and the port/],
		['ETIMEDOUT', /no answer in time/, /Narrow the report period/],
		['ECONNRESET', /closed by the server/, /Retry later/],
		['DEPTH_ZERO_SELF_SIGNED_CERT', /TLS certificate not trusted/, /Ignore SSL Issues/],
		['ENOTFOUND', /host not found/, /base URL/],
	])('maps a network error %s without an HTTP status', async (code, problem, hint) => {
		const thrown = Object.assign(new Error(`request failed ${code}`), {
			code,
			config: { headers: { Authorization: TEST_CREDENTIALS.token } },
		});
		const error = await failure({ throws: thrown });
		expect(error.message).toMatch(problem);
		expect(error.message).not.toMatch(/HTTP/);
		expect(error.description).toMatch(hint);
	});

	it('never carries the token, even when the HTTP client error did', async () => {
		const thrown = Object.assign(new Error('connect ECONNREFUSED'), {
			code: 'ECONNREFUSED',
			config: { headers: { Authorization: TEST_CREDENTIALS.token } },
		});
		const error = await failure({ throws: thrown });
		expect(
			JSON.stringify({ ...error, message: error.message, description: error.description }),
		).not.toContain(TEST_CREDENTIALS.token as string);
	});
});

describe('answers that arrive in pieces', () => {
	async function report(response: FakeResponse, parameters: Record<string, unknown> = {}) {
		const { context, sent } = fakeExecuteFunctions({ parameters, responses: [response] });
		const result = await dialerApiRequest
			.call(context, 'getFP1', {}, 0)
			.catch((caught: unknown) => caught);
		return { result, sent };
	}

	it('streams the reports answered in one piece for a whole period, and reads other answers whole', async () => {
		for (const [operation, encoding] of [
			['getFP1', 'stream'],
			['getRQ4', 'stream'],
			['getRE2', 'stream'],
			['getHC2', 'arraybuffer'],
			['getTime', 'arraybuffer'],
		] as const) {
			const { context, sent } = fakeExecuteFunctions({
				parameters: {},
				responses: [{ body: { data: [] } }],
			});
			await dialerApiRequest.call(context, operation, {}, 0);
			expect([operation, sent[0].options.encoding]).toEqual([operation, encoding]);
		}
	});

	it('reads a 20,000-row report cut into small chunks, inside rows and accented letters, as sent', async () => {
		const rows = Array.from({ length: 20_000 }, (_, i) => ({
			id: i,
			cliente: `João Conceição ${i}`,
			nota: 'diz "sim"\\ok',
		}));
		const { result } = await report({ body: { data: rows } });
		expect(result).toEqual(rows);
	});

	it('turns a connection closed halfway through the body into an error with the HTTP status', async () => {
		const reset = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
		const { result } = await report({
			body: { data: Array(500).fill({ a: 1 }) },
			breaksOff: reset,
		});
		expect(result).toBeInstanceOf(NodeApiError);
		expect((result as NodeApiError).message).toBe(
			'Dialer getFP1 failed (HTTP 200): connection closed by the server',
		);
	});

	it('gives up on a body that stalls once the Timeout option has passed', async () => {
		const { result } = await report(
			{ body: { data: Array(500).fill({ a: 1 }) }, breaksOff: 'stall' },
			{ options: { timeout: 200 } },
		);
		expect(result).toBeInstanceOf(NodeApiError);
		expect((result as NodeApiError).message).toBe(
			'Dialer getFP1 failed (HTTP 200): no answer in time',
		);
		expect((result as NodeApiError).description).toMatch(/Narrow the report period/);
	});

	it('stops reading when the execution is stopped', async () => {
		const stop = new AbortController();
		const { context } = fakeExecuteFunctions({
			parameters: {},
			cancelSignal: stop.signal,
			responses: [{ body: { data: Array(500).fill({ a: 1 }) }, breaksOff: 'stall' }],
		});
		const reading = dialerApiRequest.call(context, 'getFP1', {}, 0);
		setTimeout(() => stop.abort(), 50);
		await expect(reading).rejects.toThrow(NodeApiError);
	});
});

describe('file downloads', () => {
	it('returns the CSV bytes unchanged', async () => {
		const csv = '\uFEFFficha;data\n1;21/11/2026 10:00:00\n';
		const { context } = fakeExecuteFunctions({
			parameters: {},
			responses: [{ body: csv, contentType: 'application/vnd.api+json' }],
		});
		const file = await dialerApiDownload.call(context, 'getFP1', { formato: 'csv' });
		expect(file.body.toString('utf8')).toBe(csv);
	});

	it('still reports a JSON failure answered instead of the file', async () => {
		const { context } = fakeExecuteFunctions({
			parameters: {},
			responses: [{ body: { status: 'error', message: 'Fichas de formulários diferentes' } }],
		});
		await expect(dialerApiDownload.call(context, 'getFP1', { formato: 'csv' })).rejects.toThrow(
			'Dialer getFP1 failed (HTTP 200): Fichas de formulários diferentes',
		);
	});
});
