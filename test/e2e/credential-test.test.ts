/**
 * The Dialer API credential's "Test" button, as n8n runs it for the editor, against the
 * simulator: success, and the messages users see for each way the settings can be wrong. n8n runs
 * the package's own test function (the nodes' `testedBy`), so the words are the package's on both
 * n8n lines.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';

import type { N8nApi } from '../../harness/n8n/api';
import { freePort } from '../../harness/n8n/instance';
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { connectN8n, registerSecret } from './setup/connection';

const REJECTED_TOKEN =
	'The server rejected the token. Copy it again from the dialer console (API > Token) and check ' +
	'the header style. (HTTP 401)';
const noApiAt = (root: string) =>
	`No dialer API at ${root} (HTTP 404). Check the Base URL (with its port) and the Path Segment.`;
/** How every message about a failed connection names where the Base URL points. */
const at = (origin: string) => `${origin}, the credential's Base URL`;

/** A server on 127.0.0.1 that accepts connections and never answers. */
async function silentServer(): Promise<{ origin: string; close(): Promise<void> }> {
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		origin: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

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
		// One request: the test function sends it itself (n8n's own request test re-sent a 401).
		expect(simulator.requests.map((r) => r.status)).toEqual([401]);
	});

	it('fails with a wrong path segment, naming the address it tried', async () => {
		expect(await api.testCredentialData('dialerApi', settings({ pathSegment: 'wrong' }))).toEqual({
			status: 'Error',
			message: noApiAt(`${simulator.baseUrl}/wrong/api`),
		});
	});

	it('says nothing accepts connections at a wrong port, and what to check', async () => {
		// A port that was free a moment ago: nothing listens there.
		const origin = `http://127.0.0.1:${await freePort()}`;
		const result = await api.testCredentialData('dialerApi', settings({ baseUrl: origin }));
		expect(result).toEqual({
			status: 'Error',
			message:
				`Nothing accepts connections at ${at(origin)}. Check the host and the port (each ` +
				'tenant may have its own), whether the dialer expects https:// or http://, and that ' +
				'the dialer is running and a firewall lets n8n in.',
		});
	});

	it('says a host name does not resolve', async () => {
		// .invalid never resolves (RFC 6761): the resolver answers at once, nothing leaves the machine.
		const origin = 'http://dialer.invalid:8607';
		const result = await api.testCredentialData('dialerApi', settings({ baseUrl: origin }));
		expect(result).toEqual({
			status: 'Error',
			message:
				`The host name does not resolve from n8n's machine (${at(origin)}). Check its ` +
				"spelling and the DNS (or VPN) n8n's machine uses; use the dialer's IP address if it " +
				'has no name.',
		});
	});

	it('says no answer came in time from a server that never answers', async () => {
		const silent = await silentServer();
		try {
			const result = await api.testCredentialData(
				'dialerApi',
				settings({ baseUrl: silent.origin }),
			);
			expect(result).toEqual({
				status: 'Error',
				message:
					`No answer within 10 seconds from ${at(silent.origin)}. Check the host, the port, ` +
					'whether the dialer expects https:// or http://, and a firewall that drops connections.',
			});
		} finally {
			await silent.close();
		}
	});

	it('says https:// reached a port without TLS', async () => {
		const origin = simulator.baseUrl.replace(/^http:/, 'https:');
		const result = await api.testCredentialData('dialerApi', settings({ baseUrl: origin }));
		expect(result).toEqual({
			status: 'Error',
			message:
				`Nothing speaks TLS (https://) at ${at(origin)}. Check whether the dialer expects ` +
				'http:// there, or https:// on another port.',
		});
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

		it('fails while "Ignore SSL Issues" is off, saying what to switch on', async () => {
			expect(await api.testCredentialData('dialerApi', tlsSettings(false))).toEqual({
				status: 'Error',
				message:
					`The dialer's TLS certificate (at ${at(tlsSimulator.baseUrl)}) is self-signed or ` +
					"signed by an authority n8n's machine does not trust. For an on-premise dialer with " +
					'its own certificate, turn on "Ignore SSL Issues (Insecure)" in the credential, or ' +
					'give n8n the authority that signed it (NODE_EXTRA_CA_CERTS).',
			});
		});

		it('says http:// to a TLS port had the connection closed, and to check the scheme', async () => {
			const origin = tlsSimulator.baseUrl.replace(/^https:/, 'http:');
			const result = await api.testCredentialData('dialerApi', settings({ baseUrl: origin }));
			expect(result).toEqual({
				status: 'Error',
				message:
					`The connection was closed before an answer came from ${at(origin)}. If that ` +
					'happens every time, check whether the dialer expects https:// or http:// at that ' +
					'port; otherwise retry later, and check a proxy or firewall in between.',
			});
		});

		it('succeeds with "Ignore SSL Issues" on', async () => {
			expect(await api.testCredentialData('dialerApi', tlsSettings(true))).toMatchObject({
				status: 'OK',
			});
		});
	});
});
