/**
 * The Dialer API credential's "Test" button, as n8n runs it for the editor, against the
 * simulator: success, and the messages users see for each way the settings can be wrong.
 */
import { randomUUID } from 'node:crypto';

import type { N8nApi } from '../../scripts/n8n/api';
import { freePort } from '../../scripts/n8n/instance';
import { startSimulator, type DialerSimulator } from '../../simulator';
import { connectN8n, registerSecret } from './setup/connection';

const REJECTED_TOKEN =
	'The server rejected the token. Copy it again from the dialer console (API > Token) and check the header style.';
const NO_API_HERE =
	'No dialer API at this address. Check the base URL (with its port) and the path segment.';

describe('Dialer API credential test', () => {
	let api: N8nApi;
	let simulator: DialerSimulator;
	let tlsSimulator: DialerSimulator;
	const token = `e2e-token-${randomUUID()}`;

	const settings = (overrides: Record<string, unknown> = {}) => ({
		baseUrl: simulator.baseUrl,
		pathSegment: simulator.pathSegment,
		token,
		authScheme: 'raw',
		...overrides,
	});

	beforeAll(async () => {
		registerSecret(token);
		api = await connectN8n();
		simulator = await startSimulator({ token });
		tlsSimulator = await startSimulator({ token, tls: true });
	});

	afterAll(async () => {
		await simulator?.close();
		await tlsSimulator?.close();
	});

	beforeEach(() => simulator.clearRequests());

	it('succeeds against the simulator', async () => {
		expect(await api.testCredentialData('dialerApi', settings())).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(simulator.requests).toEqual([
			expect.objectContaining({
				operation: 'getTime',
				method: 'POST',
				path: '/ipbox/api/getTime',
				status: 200,
			}),
		]);
	});

	// Prefixes only in the titles: the token itself must never reach the test output.
	it.each([
		['raw', ''],
		['bearer', 'Bearer '],
		['basic', 'Basic '],
	])(
		'succeeds with the %s header style, sending Authorization: %s<token>',
		async (authScheme, prefix) => {
			expect(await api.testCredentialData('dialerApi', settings({ authScheme }))).toMatchObject({
				status: 'OK',
			});
			expect(simulator.requests.map((r) => r.headers.authorization)).toEqual([`${prefix}${token}`]);
		},
	);

	it('tolerates a trailing slash on the base URL and slashes around the path segment', async () => {
		const result = await api.testCredentialData(
			'dialerApi',
			settings({ baseUrl: `${simulator.baseUrl}/`, pathSegment: ` /${simulator.pathSegment}/ ` }),
		);
		expect(result).toMatchObject({ status: 'OK' });
	});

	it('fails with a wrong token, with a clear message', async () => {
		const wrongToken = `e2e-wrong-${randomUUID()}`;
		registerSecret(wrongToken);
		expect(await api.testCredentialData('dialerApi', settings({ token: wrongToken }))).toEqual({
			status: 'Error',
			message: REJECTED_TOKEN,
		});
		// n8n 2.41 re-sends any request answered 401 once after "refreshing" the credential
		// (n8n-core request-helpers/authentication.js), even for a credential that cannot refresh.
		expect(simulator.requests.map((r) => r.status)).toEqual([401, 401]);
	});

	it('fails with a wrong path segment', async () => {
		expect(await api.testCredentialData('dialerApi', settings({ pathSegment: 'wrong' }))).toEqual({
			status: 'Error',
			message: NO_API_HERE,
		});
	});

	it('fails when the host is unreachable', async () => {
		// A port that was free a moment ago: nothing listens there.
		const closedPort = await freePort();
		const result = await api.testCredentialData(
			'dialerApi',
			settings({ baseUrl: `http://127.0.0.1:${closedPort}` }),
		);
		// n8n shows the bare network error code; the credential's rules only apply to HTTP answers.
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it('reaches the editor with its secrets blanked and the SSL switch as a real boolean', async () => {
		const webhookSecret = `e2e-webhook-${randomUUID()}`;
		registerSecret(webhookSecret);
		const credential = await api.createCredential('dialerApi', 'e2e redaction', {
			...settings({ ignoreSslIssues: true }),
			webhookSecret,
		});
		try {
			// What the editor loads when a user opens the credential.
			const form = await api.rest<{ data: Record<string, unknown> }>(
				'GET',
				`/rest/credentials/${credential.id}?includeData=true`,
			);
			expect(form.data).toMatchObject({
				baseUrl: simulator.baseUrl,
				authScheme: 'raw',
				ignoreSslIssues: true,
			});
			expect(form.data.token).toMatch(/^__n8n_BLANK_VALUE_/);
			expect(form.data.webhookSecret).toMatch(/^__n8n_BLANK_VALUE_/);
			expect(JSON.stringify(form)).not.toContain(token);
		} finally {
			await api.deleteCredential(credential.id);
		}
	});

	describe('with a self-signed certificate', () => {
		const tlsSettings = (ignoreSslIssues: boolean) =>
			settings({ baseUrl: tlsSimulator.baseUrl, ignoreSslIssues });

		it('fails while "Ignore SSL Issues" is off', async () => {
			// Like other network errors, n8n shows only the error code.
			expect(await api.testCredentialData('dialerApi', tlsSettings(false))).toEqual({
				status: 'Error',
				message: 'DEPTH_ZERO_SELF_SIGNED_CERT',
			});
		});

		it('succeeds with "Ignore SSL Issues" on', async () => {
			expect(await api.testCredentialData('dialerApi', tlsSettings(true))).toMatchObject({
				status: 'OK',
			});
		});
	});
});
