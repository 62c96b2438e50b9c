/**
 * The Dialer API credential's Test button: the team list (getTime) asked for with the credential's
 * server and token, and each way that can fail said in words naming where the Base URL points.
 * n8n's declarative credential test shows only the network's code when no answer comes back
 * ("ECONNREFUSED"); a node's own test function says what it likes. Every node that uses the
 * credential names this function (`testedBy`), as n8n's lint requires of a credential without a
 * `test` of its own.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { describeBody, failureMessage, withoutSecrets } from './answerBodies';
import { hintForRedirect, hintForStatus } from './errors';
import { baseUrlNamed, networkFailure, TIMED_OUT } from './networkFailures';
import { operationUrl } from './request';
import { serverOf } from './server';

/** How long Test waits for the dialer: the team list answers at once when it answers at all. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 10_000;

export const TOKEN_REJECTED =
	'The server rejected the token. Copy it again from the dialer console (API > Token) and check ' +
	'the header style.';

/**
 * What a credential test can send requests with. n8n gives a test function only its legacy
 * `request` helper (ICredentialTestFunctions), not `httpRequest`; see n8n-io/n8n#25190.
 */
export interface CredentialTestHelpers {
	request(options: object): Promise<unknown>;
}

interface LegacyResponse {
	statusCode?: number;
	headers?: IDataObject;
	body?: unknown;
}

/** The test function the nodes list under `methods.credentialTest`. */
export async function dialerApiConnection(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return await testConnection(this.helpers, credential.data ?? {});
}

export async function testConnection(
	helpers: CredentialTestHelpers,
	credentials: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const server = serverOf(credentials);
	const url = operationUrl(server, 'getTime');
	const deadline = AbortSignal.timeout(CREDENTIAL_TEST_TIMEOUT_MS);
	let response: LegacyResponse;
	try {
		response = (await helpers.request({
			method: 'POST',
			uri: url,
			headers: {
				'Content-Type': 'application/x-www-form-urlencoded',
				Accept: 'application/json',
				Authorization: server.authorization,
			},
			body: '',
			// Every answer comes back as it is, whatever its status: this function words them.
			simple: false,
			resolveWithFullResponse: true,
			// A redirect would take the token to wherever it points.
			followRedirect: false,
			followAllRedirects: false,
			// Only when off: with the option present n8n replaces a certificate error by its own
			// NodeSslError, which on 1.x drops the code that tells self-signed, expired and
			// wrong-name certificates apart.
			...(server.skipTlsValidation ? { rejectUnauthorized: false } : {}),
			timeout: CREDENTIAL_TEST_TIMEOUT_MS,
		})) as LegacyResponse;
	} catch (error) {
		return failed(unreachable(error, deadline, server.baseUrl));
	}

	const status = response.statusCode ?? 0;
	const text = textOf(response.body);
	const described = () => describeBody(text, server.secrets);
	if (status === 401 || status === 403) return failed(`${TOKEN_REJECTED} (HTTP ${status})`);
	if (status === 404) {
		return failed(
			`No dialer API at ${apiRoot(url)} (HTTP 404). Check the Base URL (with its port) and ` +
				'the Path Segment.',
		);
	}
	if (status < 200 || status > 299) {
		const location = String(response.headers?.location ?? '');
		const hint = hintForRedirect(status, location, url) ?? hintForStatus(status);
		const answer = text.trim() === '' ? '' : `: ${described()}`;
		return failed(`${apiRoot(url)} answered HTTP ${status}${answer}. ${hint}`);
	}
	let answer: unknown;
	try {
		answer = JSON.parse(text.replace(/^\uFEFF/, ''));
	} catch {
		return failed(
			`${apiRoot(url)} answered, but not as the dialer's API does ` +
				`(${text.trim() === '' ? 'an empty answer' : described()}). Check the Base URL and ` +
				'the Path Segment.',
		);
	}
	const failure = failureMessage(answer);
	if (failure !== undefined) {
		const said = withoutSecrets(failure, server.secrets);
		return failed(
			`The dialer refused the test request (getTime): ${said}. Check the token and the ` +
				'header style.',
		);
	}
	return { status: 'OK', message: 'Connection successful!' };
}

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** The API root the request went to: no query, no login (operationUrl builds neither). */
const apiRoot = (url: string) => url.replace(/\/getTime$/, '');

/** What to check when no answer came back. */
function unreachable(error: unknown, deadline: AbortSignal, baseUrl: string): string {
	const { problem, hint } = networkFailure(error, deadline, baseUrl);
	if (problem !== TIMED_OUT) return hint;
	// The node's hint also speaks of long reports and Options → Timeout, which Test has not.
	const seconds = CREDENTIAL_TEST_TIMEOUT_MS / 1000;
	return (
		`No answer within ${seconds} seconds from ${baseUrlNamed(baseUrl)}. ` +
		'Check the host, the port, whether the dialer expects https:// or http://, and a firewall ' +
		'that drops connections.'
	);
}

function textOf(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}
