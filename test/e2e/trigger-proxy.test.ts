/**
 * Allowed Addresses behind a reverse proxy: which client address n8n gives the Dialer Trigger
 * with and without N8N_PROXY_HOPS. Everything stays on loopback, with three addresses of it: the
 * dialer sends from 127.0.0.3, the proxy (which appends the caller to X-Forwarded-For, as nginx's
 * $proxy_add_x_forwarded_for does) forwards from 127.0.0.2. The n8n with N8N_PROXY_HOPS listens
 * on ::ffff:127.0.0.1, an IPv6 socket as n8n's default '::' is, so it sees a direct IPv4 caller
 * as ::ffff:127.0.0.3; the shared e2e n8n listens on 127.0.0.1 and sees 127.0.0.3.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

import type { N8nApi } from '../../harness/n8n/api';
import { createTriggerFlow } from '../../harness/n8n/dialer';
import { startN8n, type N8nInstance } from '../../harness/n8n/instance';
import { connectN8n, readConnection, registerSecret } from './setup/connection';
import { event, post } from './support/triggerWorkflows';

const SECRET = `e2e-proxy-secret-${randomUUID()}`;
const DIALER = '127.0.0.3';
const PROXY = '127.0.0.2';

jest.setTimeout(240_000);

/** A reverse proxy on 127.0.0.1 to `target`'s origin, connecting from PROXY. */
async function startProxy(
	target: string,
): Promise<{ url: (hookUrl: string) => string; close(): Promise<void> }> {
	const upstream = new Agent({ localAddress: PROXY });
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const caller = req.socket.remoteAddress ?? '';
			const forwarded = req.headers['x-forwarded-for'];
			const headers = {
				...req.headers,
				host: new URL(target).host,
				'x-forwarded-for': forwarded ? `${String(forwarded)}, ${caller}` : caller,
			};
			request(`${target}${req.url ?? ''}`, {
				method: 'POST',
				headers,
				body: Buffer.concat(chunks),
				dispatcher: upstream,
			})
				.then(async (answer) => {
					res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
					res.end(await answer.body.text());
				})
				.catch(() => {
					res.writeHead(502);
					res.end();
				});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: (hookUrl) => hookUrl.replace(new URL(hookUrl).origin, `http://127.0.0.1:${port}`),
		close: async () => {
			await new Promise((resolve) => server.close(resolve));
			await upstream.close();
		},
	};
}

describe('Allowed Addresses behind a reverse proxy', () => {
	const dialer = new Agent({ localAddress: DIALER });
	const cleanups: Array<() => Promise<unknown>> = [];
	let hopsN8n: N8nInstance;

	beforeAll(async () => {
		registerSecret(SECRET);
		hopsN8n = await startN8n({
			purpose: 'proxy-hops',
			version: readConnection().n8nVersion,
			env: { N8N_PROXY_HOPS: '1', N8N_LISTEN_ADDRESS: '::ffff:127.0.0.1' },
		});
		cleanups.push(() => hopsN8n.stop());
	});

	afterAll(async () => {
		for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
		await dialer.close();
	});

	/** The production URL of a trigger on `api`'s n8n allowing the addresses `allowed`. */
	async function hookAllowing(api: N8nApi, allowed: string): Promise<string> {
		const credential = await api.createCredential(
			'dialerApi',
			`Dialer proxy ${randomUUID().slice(0, 8)}`,
			{
				baseUrl: 'http://127.0.0.1:9',
				pathSegment: 'ipbox',
				token: 'unused',
				authScheme: 'raw',
				ignoreSslIssues: false,
				webhookSecret: SECRET,
				previousWebhookSecret: '',
				reportUser: '',
				reportPassword: '',
			},
		);
		const { workflow, url } = await createTriggerFlow(api, {
			name: 'e2e proxy',
			credential,
			events: ['agente.login'],
			triggerOptions: { allowedAddresses: allowed },
			timezone: 'UTC',
		});
		cleanups.push(async () => {
			await api.deactivateWorkflow(workflow.id);
			await api.deleteWorkflow(workflow.id);
			await api.deleteCredential(credential.id);
		});
		return url;
	}

	/** The status the dialer's delivery gets, sent to `url` (with `spoofed` in X-Forwarded-For). */
	async function deliver(url: string, spoofed?: string): Promise<number> {
		const answer = await post(
			url,
			JSON.stringify(event('agente.login', 4)),
			{
				'content-type': 'application/json',
				'x-webhook-secret': SECRET,
				...(spoofed ? { 'x-forwarded-for': spoofed } : {}),
			},
			dialer,
		);
		return answer.status;
	}

	/** `deliver` through the proxy in front of the hook's n8n. */
	async function throughProxy(url: string, spoofed?: string): Promise<number> {
		const proxy = await startProxy(new URL(url).origin);
		try {
			return await deliver(proxy.url(url), spoofed);
		} finally {
			await proxy.close();
		}
	}

	describe('with N8N_PROXY_HOPS=1 (n8n trusts the proxy in front of it)', () => {
		it("sees the dialer's address: a trigger allowing it accepts, one allowing only the proxy refuses", async () => {
			expect(await throughProxy(await hookAllowing(hopsN8n.api, DIALER))).toBe(200);
			expect(await throughProxy(await hookAllowing(hopsN8n.api, PROXY))).toBe(403);
		});

		it('takes only the entry the proxy added: an address the caller wrote into X-Forwarded-For is not believed', async () => {
			const url = await hookAllowing(hopsN8n.api, '127.0.0.5');
			expect(await throughProxy(url, '127.0.0.5')).toBe(403);
		});

		it('lets in a dialer sending directly, which n8n sees as ::ffff:127.0.0.3, when 127.0.0.3 is allowed', async () => {
			expect(await deliver(await hookAllowing(hopsN8n.api, DIALER))).toBe(200);
		});
	});

	describe("without N8N_PROXY_HOPS (n8n's default)", () => {
		it("sees the proxy's address for every delivery: allowing the dialer refuses it, allowing the proxy lets anyone through it in", async () => {
			const api = await connectN8n();
			expect(await throughProxy(await hookAllowing(api, DIALER))).toBe(403);
			expect(await throughProxy(await hookAllowing(api, PROXY))).toBe(200);
		});
	});
});
