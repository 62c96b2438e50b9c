/**
 * The load balancer in front of several queue-mode webhook processors: the dialer posts to one
 * URL. A node:http server on 127.0.0.1 that hands each request to undici's BalancedPool (weighted
 * round robin over the upstreams; an upstream that fails loses weight), and answers with what the
 * processor answered. When the client gives up (the dialer's 5 s), the request to the processor
 * is aborted too, as a proxy closing its upstream connection would. With `retryRefused`, a request
 * whose connection a processor refused (it was never sent) is sent again, up to twice per
 * processor, so it reaches a live one, as nginx does by default
 * (`proxy_next_upstream error`, also for POST since nothing was sent).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';

import { BalancedPool } from 'undici';

export interface WebhookFront {
	/** Where the dialer posts, e.g. http://127.0.0.1:41234. */
	url: string;
	/** Adds the processors' base URLs (they are known only once started). */
	route(upstreams: string[]): void;
	close(): Promise<void>;
}

/** Headers of one connection, not of the request: each hop sets its own. */
const HOP_BY_HOP = new Set([
	'connection',
	'keep-alive',
	'transfer-encoding',
	'upgrade',
	'host',
	'proxy-connection',
]);

function endToEnd(
	headers: http.IncomingHttpHeaders | Record<string, string | string[] | undefined>,
) {
	return Object.fromEntries(
		Object.entries(headers).filter(
			(entry): entry is [string, string | string[]] =>
				entry[1] !== undefined && !HOP_BY_HOP.has(entry[0].toLowerCase()),
		),
	);
}

/** The processor's port was closed: the request never reached it. */
function wasRefused(error: unknown): boolean {
	return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
}

export async function startWebhookFront(
	options: { retryRefused?: boolean } = {},
): Promise<WebhookFront> {
	const pool = new BalancedPool([]);
	let upstreamCount = 0;
	const server = http.createServer((req, res) => {
		const gaveUp = new AbortController();
		res.on('close', () => {
			if (!res.writableFinished) gaveUp.abort();
		});
		void (async () => {
			try {
				const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
				// Kept to be sent again; webhook deliveries are small.
				const body =
					hasBody && options.retryRefused ? Buffer.concat(await req.toArray()) : undefined;
				const send = () =>
					pool.request({
						method: req.method as 'POST',
						path: req.url ?? '/',
						headers: endToEnd(req.headers),
						body: hasBody ? (body ?? req) : undefined,
						signal: gaveUp.signal,
					});
				let answer = await send().catch((error: unknown) => ({ error }));
				for (let tries = 1; 'error' in answer && tries < upstreamCount * 2; tries++) {
					if (!options.retryRefused || !wasRefused(answer.error)) break;
					answer = await send().catch((error: unknown) => ({ error }));
				}
				if ('error' in answer) throw answer.error;
				res.writeHead(answer.statusCode, endToEnd(answer.headers));
				await pipeline(answer.body, res);
			} catch (error) {
				if (gaveUp.signal.aborted) return;
				if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
				res.end(`webhook front: ${(error as Error).message}`);
			}
		})();
	});
	server.keepAliveTimeout = 60_000;
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		route: (upstreams) => {
			for (const upstream of upstreams) pool.addUpstream(upstream);
			upstreamCount += upstreams.length;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await pool.close();
		},
	};
}
