/**
 * The balancer in front of two webhook processors (harness/bench/lib/front.ts) when one is down: the
 * fault harness's recommended deployment counts on a refused connection being sent to the other.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { startWebhookFront, type WebhookFront } from '../../harness/bench/lib/front';

/** A processor that answers every delivery 200 with the body it got. */
async function liveProcessor(): Promise<{ url: string; bodies: string[]; close(): void }> {
	const bodies: string[] = [];
	const server = http.createServer(async (req, res) => {
		bodies.push(Buffer.concat(await req.toArray()).toString());
		res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, bodies, close: () => server.close() };
}

/** A port nothing listens on: connections to it are refused. */
async function deadProcessor(): Promise<string> {
	const server = http.createServer().listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}

async function deliverTen(front: WebhookFront): Promise<number[]> {
	const statuses: number[] = [];
	for (let n = 0; n < 10; n++) {
		const answer = await fetch(`${front.url}/webhook/x`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ n }),
		});
		await answer.arrayBuffer();
		statuses.push(answer.status);
	}
	return statuses;
}

describe('webhook front with one of two processors down', () => {
	it('with retryRefused, sends every delivery refused by the dead one to the live one, body intact', async () => {
		const live = await liveProcessor();
		const front = await startWebhookFront({ retryRefused: true });
		front.route([await deadProcessor(), live.url]);
		try {
			expect(await deliverTen(front)).toEqual(Array(10).fill(200));
			expect(live.bodies).toEqual(Array.from({ length: 10 }, (_, n) => JSON.stringify({ n })));
		} finally {
			await front.close();
			live.close();
		}
	});

	it('without it, answers 502 for deliveries that went to the dead one', async () => {
		const live = await liveProcessor();
		const front = await startWebhookFront();
		front.route([await deadProcessor(), live.url]);
		try {
			const statuses = await deliverTen(front);
			expect(statuses).toContain(502);
			expect(live.bodies.length).toBe(statuses.filter((s) => s === 200).length);
		} finally {
			await front.close();
			live.close();
		}
	});
});
