import { NodeApiError } from 'n8n-workflow';

import { describeBody, failureMessage } from '../../../nodes/shared/transport/answerBodies';
import * as callHistory from '../../../nodes/shared/reports/callHistory';
import * as filledForms from '../../../nodes/shared/reports/filledForms';
import { dialerApiRequest } from '../../../nodes/shared/transport/request';
import {
	callApi,
	fakeExecuteFunctions,
	TEST_CREDENTIALS,
	type FakeResponse,
} from '../support/executeFunctions';

const TOKEN = TEST_CREDENTIALS.token as string;

async function failure(response: FakeResponse): Promise<NodeApiError> {
	const { result } = await callApi([response]);
	const error = await result.then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

describe('errors name the operation as the node shows it and the HTTP status, and give a hint', () => {
	it('turns a 500 with a JSON message into a NodeApiError', async () => {
		const error = await failure({
			status: 500,
			body: { status: 'error', message: 'Banco indisponível' },
		});
		expect(error.message).toBe('Report → Get Call History failed (HTTP 500): Banco indisponível');
		expect(error.httpCode).toBe('500');
		expect(error.description).toMatch(/Retry later/);
	});

	it('names the API operation the call used in the description and the details', async () => {
		const error = await failure({ status: 500, body: { message: 'Banco indisponível' } });
		expect(error.description).toMatch(/Retry later.*\(API operation: getHC2\)$/);
		expect(error.errorResponse).toMatchObject({ operation: 'getHC2' });
	});

	it('titles a call no node named with the API operation', async () => {
		const { context } = fakeExecuteFunctions({ parameters: {}, responses: [{ status: 500 }] });
		const error = await dialerApiRequest
			.call(context, callHistory.endpoint, {}, 0)
			.catch((caught: Error) => caught);
		expect(String((error as Error).message)).toMatch(/^Dialer getHC2 failed \(HTTP 500\)/);
	});

	it('strips the markup of an HTML error page', async () => {
		const error = await failure({
			status: 502,
			body: '<html><head><style>p{}</style></head><body><h1>502 Bad Gateway</h1></body></html>',
		});
		expect(error.message).toBe('Report → Get Call History failed (HTTP 502): 502 Bad Gateway');
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
		const error = await failure({ body: '<html><body>Sessão expirada [login]</body></html>' });
		expect(error.message).toMatch(
			/^Report → Get Call History failed \(HTTP 200\): answer is not JSON/,
		);
	});

	it('rejects an empty 200', async () => {
		const error = await failure({ body: '' });
		expect(error.message).toBe(
			'Report → Get Call History failed (HTTP 200): empty answer instead of JSON',
		);
	});

	it('rejects a 200 whose body reports failure', async () => {
		const error = await failure({ body: { status: 'error', message: 'Fila não encontrada' } });
		expect(error.message).toBe('Report → Get Call History failed (HTTP 200): Fila não encontrada');
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
		// A failure beside an empty list is still a failure: the rows were never read.
		[{ status: 'error', message: 'Sem permissão', data: [] }, 'Sem permissão'],
		[{ status: 'erro', data: [] }, 'status "erro"'],
		[{ status: 'falha', data: { resultado: [] } }, 'status "falha"'],
		[{ status: 500, message: 'Erro interno' }, 'Erro interno'],
		[{ success: false, data: [] }, '"success": false'],
		[{ error: 1, data: [] }, '1'],
		[{ error: true }, 'true'],
		[{ error: 'Token expirado', data: [] }, 'Token expirado'],
		// An error field that says "no error" is success.
		[{ error: 0, data: [{ ficha: '1' }] }, undefined],
		[{ error: '0', message: 'OK', data: [] }, undefined],
		[{ error: false, erro: '', data: [] }, undefined],
		[{ error: null, status: 'success' }, undefined],
		[{ error: {}, data: [] }, undefined],
		[{ status: 'OK', error: 'false', data: [] }, undefined],
		// A status code sent as text, as some dialer builds send every number.
		[{ status: '200', data: [{ ficha: '1' }] }, undefined],
		[{ status: '1', data: [] }, undefined],
		[{ status: '500', data: [] }, 'status "500"'],
	])('reads %j as failure %p', (body, expected) => {
		expect(failureMessage(body)).toBe(expected);
	});

	it.each([
		['ECONNREFUSED', /connection refused/, /host and the port/],
		['ETIMEDOUT', /no answer in time/, /narrow the period/],
		['ECONNRESET', /closed by the server/, /retry later/],
		['DEPTH_ZERO_SELF_SIGNED_CERT', /TLS certificate not trusted/, /Ignore SSL Issues/],
		['ENOTFOUND', /host not found/, /Base URL/],
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

	// The credential's Base URL is https://acme.dialer.test:8607/ (TEST_CREDENTIALS).
	it.each([
		['ECONNREFUSED', 'connection refused', [/port/, /https:\/\/ or http:\/\//, /firewall/]],
		['ENOTFOUND', 'host not found', [/does not resolve/, /spelling/, /DNS/]],
		['EAI_AGAIN', 'host not found', [/does not resolve/, /DNS/]],
		['EHOSTUNREACH', 'host unreachable', [/no route/, /firewall/]],
		['ENETUNREACH', 'host unreachable', [/no route/, /VPN/]],
		['ETIMEDOUT', 'no answer in time', [/port/, /https:\/\/ or http:\/\//, /firewall/, /Timeout/]],
	])(
		'says where the Base URL points and what to check when the dialer is out of reach (%s)',
		async (code, problem, checks) => {
			const error = await failure({
				throws: Object.assign(new Error(`connect ${code}`), { code }),
			});
			expect(error.message).toContain(problem);
			expect(error.description).toContain(
				"https://acme.dialer.test:8607, the credential's Base URL",
			);
			for (const check of checks) expect(error.description).toMatch(check);
		},
	);

	// How n8n's request helper words the failures, in place of the client's message.
	const n8nSentence: Record<string, string> = {
		ECONNREFUSED: 'The service refused the connection - perhaps it is offline',
		ECONNRESET: 'The connection to the server was closed unexpectedly, perhaps it is offline.',
	};
	const clientMessage: Record<string, string> = {
		ECONNREFUSED: 'connect ECONNREFUSED 127.0.0.1:9',
		ECONNRESET: 'socket hang up',
	};
	// n8n 2.x wraps the client's error and keeps it as `cause`.
	const wrappedWithCause = (code: string) =>
		Object.assign(new Error(n8nSentence[code]), {
			cause: Object.assign(new Error(clientMessage[code]), { code }),
		});
	// n8n 1.x (observed on 1.123.81) loses the cause: only the code in `httpCode` and the
	// client's message in `messages` remain.
	const wrappedWithoutCause = (code: string) =>
		Object.assign(new Error(n8nSentence[code]), {
			cause: undefined,
			httpCode: code,
			messages: [clientMessage[code], clientMessage[code]],
		});

	it.each([
		['n8n 2.x', 'ECONNREFUSED', wrappedWithCause, /connection refused/],
		['n8n 2.x', 'ECONNRESET', wrappedWithCause, /closed by the server/],
		['n8n 1.x', 'ECONNREFUSED', wrappedWithoutCause, /connection refused/],
		['n8n 1.x', 'ECONNRESET', wrappedWithoutCause, /closed by the server/],
	])(
		'names the cause of a network error as %s wraps it (%s)',
		async (_n8n, code, wrap, problem) => {
			const error = await failure({ throws: wrap(code) });
			expect(error.message).toMatch(problem);
		},
	);

	it.each([
		['a 401 page', { status: 401, body: `Token ${TOKEN} inválido` }],
		['a 200 failure message', { body: { status: 'error', message: `Token ${TOKEN} expirado` } }],
		['a page that is not JSON', { body: `<p>Authorization: ${TOKEN}</p>` }],
	])('never shows the token when %s repeats it', async (_page, response: FakeResponse) => {
		const error = await failure(response);
		expect(error.message).toContain('…');
		expect(JSON.stringify(error) + error.message).not.toContain(TOKEN);
	});

	it.each([
		['as sent', 'S3nh4 da Ana!'],
		['as the form carried it', 'S3nh4+da+Ana%21'],
	])("never shows the report user's password when the dialer repeats it %s", async (_as, shown) => {
		const { context } = fakeExecuteFunctions({
			parameters: {},
			credentials: { ...TEST_CREDENTIALS, reportUser: 'ana', reportPassword: 'S3nh4 da Ana!' },
			responses: [{ status: 400, body: `user=ana&senha=${shown}: sem permissão` }],
		});
		const error = await dialerApiRequest
			.call(context, callHistory.endpoint, { senha: 'S3nh4 da Ana!' }, 0)
			.catch((caught: Error) => caught);
		expect(String(error)).toContain('sem permissão');
		expect(JSON.stringify(error) + String(error)).not.toMatch(/S3nh4/);
	});

	it.each([
		['a page that is not JSON', 200],
		['an error page', 401],
	])(
		'never shows part of the token when %s repeats it where the description is cut short',
		async (_page, status) => {
			// The description keeps 200 characters: the token starts before the cut and ends after it.
			const page = `<html><body><p>${'x'.repeat(190)} ${TOKEN}</p></body></html>`;
			const error = await failure({ status, body: page });
			expect(error.message).toContain('xxxx');
			expect(JSON.stringify(error) + error.message).not.toContain(TOKEN.slice(0, 8));
		},
	);

	it.each([
		['an answer read whole', callHistory.endpoint],
		['a streamed answer', filledForms.endpoint],
	])(
		'never shows part of the token a page repeats where the description of %s stops reading it',
		async (_answer, endpoint) => {
			// 64 KiB of a page are kept to describe it: a page with a long style sheet (as framework
			// error pages inline) shows its text from there, which stops inside the token.
			const head = `<html><head><style>${'p{margin:0}'.repeat(5000)}</style></head><body><p>Token `;
			const page = `${head.padEnd(64 * 1024 - 7, ' ')}${TOKEN} inválido</p></body></html>`;
			const { context } = fakeExecuteFunctions({
				parameters: {},
				responses: [{ status: 200, body: page, contentType: 'text/html' }],
			});
			const error = await dialerApiRequest
				.call(context, endpoint, {}, 0)
				.catch((caught: Error) => caught);
			expect(String(error)).toContain('answer is not JSON (Token');
			expect(JSON.stringify(error) + String(error)).not.toContain(TOKEN.slice(0, 4));
		},
	);

	it("never shows the report user's password when the dialer repeats it in a page that folds its spaces", async () => {
		const password = 'duas  palavras\tsecretas';
		const { context } = fakeExecuteFunctions({
			parameters: {},
			credentials: { ...TEST_CREDENTIALS, reportUser: 'ana', reportPassword: password },
			responses: [{ status: 403, body: `<p>senha ${password} sem permissão</p>` }],
		});
		const error = await dialerApiRequest
			.call(context, callHistory.endpoint, { senha: password }, 0)
			.catch((caught: Error) => caught);
		expect(String(error)).toContain('sem permissão');
		expect(JSON.stringify(error) + String(error)).not.toMatch(/palavras/);
	});

	it.each([
		[
			'in a failure object',
			{ body: { status: 'error', error: { user: 'ana', senha: 'Senha/"Ação"' } } },
		],
		[
			'as PHP writes it in JSON after a notice',
			{
				body: '<b>Notice</b>: undefined index {"user":"ana","senha":"Senha\\/\\"A\\u00e7\\u00e3o\\""}',
			},
		],
	])(
		"never shows the report user's password when the dialer repeats it JSON-escaped %s",
		async (_as, response: FakeResponse) => {
			const password = 'Senha/"Ação"';
			const { context } = fakeExecuteFunctions({
				parameters: {},
				credentials: { ...TEST_CREDENTIALS, reportUser: 'ana', reportPassword: password },
				responses: [response],
			});
			const error = await dialerApiRequest
				.call(context, callHistory.endpoint, { senha: password }, 0)
				.catch((caught: Error) => caught);
			expect(String(error)).toContain('ana');
			expect(JSON.stringify(error) + String(error)).not.toMatch(/Senha/);
		},
	);

	it.each([
		['as sent, markup and all', 'Senha <b>&</b> "d\'Ana"'],
		[
			'HTML-escaped, as a PHP page echoes it',
			'Senha &lt;b&gt;&amp;&lt;/b&gt; &quot;d&#039;Ana&quot;',
		],
		[
			'as PHP before 8.1 escapes it (ENT_COMPAT)',
			"Senha &lt;b&gt;&amp;&lt;/b&gt; &quot;d'Ana&quot;",
		],
		['with ENT_NOQUOTES', 'Senha &lt;b&gt;&amp;&lt;/b&gt; "d\'Ana"'],
		['with ENT_HTML5', 'Senha &lt;b&gt;&amp;&lt;/b&gt; &quot;d&apos;Ana&quot;'],
		['as other templates escape it', 'Senha &lt;b&gt;&amp;&lt;/b&gt; &#34;d&#39;Ana&#34;'],
		['as Python escapes it', 'Senha &lt;b&gt;&amp;&lt;/b&gt; &quot;d&#x27;Ana&quot;'],
	])(
		"never shows the report user's password when an HTML page repeats it %s",
		async (_as, shown) => {
			const password = 'Senha <b>&</b> "d\'Ana"';
			const { context } = fakeExecuteFunctions({
				parameters: {},
				credentials: { ...TEST_CREDENTIALS, reportUser: 'ana', reportPassword: password },
				responses: [{ status: 403, body: `<html><p>user ana, senha ${shown}: negado</p></html>` }],
			});
			const error = await dialerApiRequest
				.call(context, callHistory.endpoint, { senha: password }, 0)
				.catch((caught: Error) => caught);
			expect(String(error)).toContain('negado');
			expect(JSON.stringify(error) + String(error)).not.toMatch(/Senha|Ana&/);
		},
	);

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

describe('a description of the start of a body', () => {
	it('leaves out the start of a secret it ends with, a character the cut split included', () => {
		expect(describeBody('<p>senha A\uFFFD', ['Ação123'], true)).toBe('senha …');
		expect(describeBody('<p>token eyJhb', ['eyJhbGciOi.x.y'], true)).toBe('token …');
		// A whole body ends where it ends.
		expect(describeBody('<p>token eyJhb', ['eyJhbGciOi.x.y'])).toBe('token eyJhb');
	});
});
