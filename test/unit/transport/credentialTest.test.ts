/**
 * What the Dialer API credential's Test button says, for each answer and each way no answer
 * comes back; the request it sends. n8n runs it with a legacy request helper, faked here.
 */
import type { INodeType } from 'n8n-workflow';

import { Dialer } from '../../../nodes/Dialer/Dialer.node';
import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { DialerTrigger } from '../../../nodes/DialerTrigger/DialerTrigger.node';
import {
	dialerApiConnection,
	testConnection,
	TOKEN_REJECTED,
} from '../../../nodes/shared/transport/credentialTest';
import { TEST_CREDENTIALS } from '../support/executeFunctions';

const TOKEN = TEST_CREDENTIALS.token as string;
// TEST_CREDENTIALS' Base URL, as every message names it.
const AT = "https://acme.dialer.test:8607, the credential's Base URL";

type Answer = { statusCode: number; body?: unknown; headers?: Record<string, string> };

/** A legacy request helper that answers `answer` or throws `thrown`, and keeps what it was sent. */
function helpers(outcome: { answer?: Answer; thrown?: unknown }) {
	const sent: Array<Record<string, unknown>> = [];
	return {
		sent,
		request: async (options: object) => {
			sent.push(options as Record<string, unknown>);
			if (outcome.thrown !== undefined) throw outcome.thrown;
			return outcome.answer;
		},
	};
}

async function testWith(
	outcome: { answer?: Answer; thrown?: unknown },
	credentials = TEST_CREDENTIALS,
) {
	const fake = helpers(outcome);
	const result = await testConnection(fake, credentials);
	// The token is never part of what Test shows.
	expect(result.message).not.toContain(TOKEN);
	return { result, sent: fake.sent };
}

const networkError = (code: string, message = `connect ${code}`) =>
	Object.assign(new Error(message), { code });

describe('the credential Test button', () => {
	it('succeeds when the team list answers, having asked for it with the token', async () => {
		const { result, sent } = await testWith({
			answer: { statusCode: 200, body: JSON.stringify({ times: [] }) },
		});
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		// Certificates are checked: the helper's default, the option left out.
		expect(sent[0]).not.toHaveProperty('rejectUnauthorized');
		expect(sent).toEqual([
			expect.objectContaining({
				method: 'POST',
				uri: 'https://acme.dialer.test:8607/ipbox/api/getTime',
				headers: expect.objectContaining({ Authorization: TOKEN }),
				followRedirect: false,
				followAllRedirects: false,
				simple: false,
				resolveWithFullResponse: true,
			}),
		]);
	});

	it('accepts an answer the helper has parsed already', async () => {
		const { result } = await testWith({ answer: { statusCode: 200, body: { times: [] } } });
		expect(result.status).toBe('OK');
	});

	it('skips the certificate check when "Ignore SSL Issues" is on', async () => {
		const { sent } = await testWith(
			{ answer: { statusCode: 200, body: '{"times":[]}' } },
			{ ...TEST_CREDENTIALS, ignoreSslIssues: true },
		);
		expect(sent[0].rejectUnauthorized).toBe(false);
	});

	it.each([401, 403])('says the token was rejected at HTTP %i', async (statusCode) => {
		const { result } = await testWith({ answer: { statusCode, body: `Token ${TOKEN} inválido` } });
		expect(result).toEqual({ status: 'Error', message: `${TOKEN_REJECTED} (HTTP ${statusCode})` });
	});

	it('names the API address and the Path Segment at HTTP 404', async () => {
		const { result } = await testWith({ answer: { statusCode: 404, body: 'Not Found' } });
		expect(result).toEqual({
			status: 'Error',
			message:
				'No dialer API at https://acme.dialer.test:8607/ipbox/api (HTTP 404). Check the Base ' +
				'URL (with its port) and the Path Segment.',
		});
	});

	it('names where a redirect points instead of following it with the token', async () => {
		const { result } = await testWith({
			answer: { statusCode: 302, headers: { location: 'https://login.example/' } },
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/HTTP 302/);
		expect(result.message).toMatch(/redirects the API to https:\/\/login\.example/);
	});

	it('shows what an error page says, without the token it repeats', async () => {
		const { result } = await testWith({
			answer: { statusCode: 500, body: `<h1>Erro interno</h1><p>token ${TOKEN}</p>` },
		});
		expect(result.message).toMatch(/HTTP 500: Erro interno/);
		expect(result.message).toMatch(/Retry later/);
	});

	it.each([
		['a web page', '<html><body>Bem-vindo</body></html>', /\(Bem-vindo\)/],
		['an empty answer', '', /\(an empty answer\)/],
	])('says a 200 with %s is not the dialer API', async (_what, body, shown) => {
		const { result } = await testWith({ answer: { statusCode: 200, body } });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/not as the dialer's API does/);
		expect(result.message).toMatch(shown);
		expect(result.message).toMatch(/Path Segment/);
	});

	it('says the dialer refused the request when a 200 reports failure', async () => {
		const { result } = await testWith({
			answer: { statusCode: 200, body: JSON.stringify({ status: 'error', message: 'Sem acesso' }) },
		});
		expect(result).toEqual({
			status: 'Error',
			message:
				'The dialer refused the test request (getTime): Sem acesso. Check the token and the ' +
				'header style.',
		});
	});

	it.each([
		['ECONNREFUSED', networkError('ECONNREFUSED'), [/^Nothing accepts connections at/, /port/]],
		['ENOTFOUND', networkError('ENOTFOUND'), [/does not resolve/, /spelling/]],
		['EAI_AGAIN', networkError('EAI_AGAIN'), [/does not resolve/, /DNS/]],
		['EHOSTUNREACH', networkError('EHOSTUNREACH'), [/no route to/, /firewall/]],
		['ENETUNREACH', networkError('ENETUNREACH'), [/no route to/, /VPN/]],
		[
			'a timeout',
			networkError('ECONNABORTED', 'timeout of 10000ms exceeded'),
			[/^No answer within 10 seconds from/, /firewall/],
		],
		['ETIMEDOUT', networkError('ETIMEDOUT'), [/^No answer within 10 seconds/]],
		[
			'a reset',
			networkError('ECONNRESET', 'socket hang up'),
			[/was closed before an answer came/, /https:\/\/ or http:\/\//],
		],
		[
			'a self-signed certificate',
			networkError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
			[/self-signed/, /"Ignore SSL Issues \(Insecure\)"/],
		],
		[
			'an unknown authority',
			networkError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'),
			[/authority n8n's machine does not trust/, /NODE_EXTRA_CA_CERTS/],
		],
		[
			'a certificate for another name',
			networkError(
				'ERR_TLS_CERT_ALTNAME_INVALID',
				"Hostname/IP does not match certificate's altnames",
			),
			[/for another host name/, /"Ignore SSL Issues \(Insecure\)"/],
		],
		[
			'an expired certificate',
			networkError('CERT_HAS_EXPIRED', 'certificate has expired'),
			[/has expired/, /renew/],
		],
		[
			'https:// to a plain HTTP port',
			networkError('ERR_SSL_WRONG_VERSION_NUMBER', 'ssl3_get_record:wrong version number'),
			[/^Nothing speaks TLS \(https:\/\/\) at/, /expects http:\/\//],
		],
		[
			'another TLS failure',
			networkError('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'sslv3 alert handshake failure'),
			[/^The TLS \(https:\/\/\) connection failed before an answer came from/],
		],
	])('says in words what to check on %s, naming the Base URL', async (_what, thrown, checks) => {
		const { result } = await testWith({ thrown });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(AT);
		for (const check of checks) expect(result.message).toMatch(check);
		expect(result.message).not.toMatch(/^[A-Z_]+$/);
	});

	it("reads the cause of n8n's wrapped errors", async () => {
		const thrown = Object.assign(
			new Error('SSL Issue: consider using the Ignore SSL issues option'),
			{
				cause: networkError('ERR_TLS_CERT_ALTNAME_INVALID'),
			},
		);
		const { result } = await testWith({ thrown });
		expect(result.message).toMatch(/for another host name/);
	});

	it("says a certificate could not be verified when n8n's error keeps no code", async () => {
		// n8n 1.x's NodeSslError drops its cause.
		const thrown = new Error("SSL Issue: consider using the 'Ignore SSL issues' option");
		const { result } = await testWith({ thrown });
		expect(result.message).toContain(`could not verify the dialer's TLS certificate (at ${AT})`);
		expect(result.message).toMatch(/"Ignore SSL Issues \(Insecure\)"/);
	});

	it('runs as n8n calls it, with the credential under data', async () => {
		const fake = helpers({ answer: { statusCode: 200, body: '{"times":[]}' } });
		const context = { helpers: fake, logger: {} } as unknown as ThisParameterType<
			typeof dialerApiConnection
		>;
		const result = await dialerApiConnection.call(context, {
			id: '1',
			name: 'Dialer',
			type: 'dialerApi',
			data: TEST_CREDENTIALS,
		});
		expect(result.status).toBe('OK');
		expect(fake.sent).toHaveLength(1);
	});

	// n8n's lint requires it of a credential without a test of its own, and n8n uses the first
	// node it finds that names one: each must name the function it has.
	it.each([
		['Dialer', new Dialer()],
		['Dialer Trigger', new DialerTrigger()],
		['Dialer Report Trigger', new DialerReportTrigger()],
	])('is what the %s node tests the credential with', (_name, node: INodeType) => {
		const entry = node.description.credentials?.find(({ name }) => name === 'dialerApi');
		expect(entry?.testedBy).toBe('dialerApiConnection');
		expect(node.methods?.credentialTest?.dialerApiConnection).toBe(dialerApiConnection);
	});
});
