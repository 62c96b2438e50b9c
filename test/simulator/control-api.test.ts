/** The control API under /__simulator/, as the demo script and benchmarks drive it from another process. */
import { request } from 'undici';
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi, eventually, startReceiver, type Loose, type Receiver } from './helpers';

let sim: DialerSimulator;
let receiver: Receiver;

beforeAll(async () => {
	[sim, receiver] = await Promise.all([startSimulator(), startReceiver()]);
});
afterAll(() => Promise.all([sim?.close(), receiver?.close()]));

/** No token: the control API is a loopback test tool. */
async function control(
	method: 'GET' | 'POST' | 'DELETE',
	path: string,
	body?: unknown,
): Promise<{ status: number; body: Loose }> {
	const response = await request(`${sim.baseUrl}/__simulator/${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	});
	expect(response.headers['content-type']).toMatch(/^application\/json/);
	return { status: response.statusCode, body: await response.body.json() };
}

it('reports health with the addresses', async () => {
	expect((await control('GET', 'health')).body).toEqual({
		status: 'ok',
		baseUrl: sim.baseUrl,
		apiUrl: sim.apiUrl,
		pathSegment: 'ipbox',
	});
});

it('lists and clears the recorded API requests (control calls are not recorded)', async () => {
	await callApi(sim, 'getTime', {}, { authorization: 'Basic sim-token-0123456789' });
	const listed = (await control('GET', 'requests')).body.requests;
	expect(listed.at(-1)).toMatchObject({
		operation: 'getTime',
		headers: { authorization: 'Basic sim-token-0123456789' },
	});
	expect(listed.every((recorded: Loose) => !recorded.path.startsWith('/__simulator'))).toBe(true);
	await control('DELETE', 'requests');
	expect(sim.requests).toHaveLength(0);
});

it('adds faults (one or a list) and clears them', async () => {
	expect(
		(
			await control('POST', 'faults', [
				{ kind: 'status', status: 503, operation: 'getTime' },
				{ kind: 'latency', latencyMs: 1 },
			])
		).body,
	).toEqual({ active: 2 });
	expect((await callApi(sim, 'getTime')).status).toBe(503);
	await control('DELETE', 'faults');
	expect((await callApi(sim, 'getTime')).status).toBe(200);
	expect((await control('POST', 'faults', { kind: 'nope' })).status).toBe(400);
});

it('registers a webhook, emits one event to it and lists the delivery', async () => {
	const { id } = (
		await control('POST', 'webhooks', { url: receiver.url, secret: 'x', events: ['agente.busy'] })
	).body;
	expect(id).toEqual(expect.any(String));
	const event = { estado: 'busy', t: 1, evento: 'agente.busy', usuario_id: 101, udate: 1 };
	const emitted = (await control('POST', 'events', event)).body.deliveries;
	expect(emitted).toEqual([
		expect.objectContaining({ receiverId: id, status: 200, secretSent: true, event }),
	]);
	expect((await control('GET', 'deliveries')).body.deliveries).toContainEqual(emitted[0]);
	expect((await control('DELETE', `webhooks/${id}`)).status).toBe(200);
	expect((await control('DELETE', `webhooks/${id}`)).status).toBe(404);
});

it('emits a generated burst with bounded concurrency and summarises the deliveries', async () => {
	await control('POST', 'webhooks', { url: receiver.url });
	const before = receiver.calls.length;
	const { body } = await control('POST', 'events', {
		count: 40,
		concurrency: 8,
		kinds: ['agente.pause_in', 'agente.login'],
	});
	expect(body.deliveries).toHaveLength(40);
	expect(body.summary).toMatchObject({ events: 40, deliveries: 40, succeeded: 40, failed: 0 });
	expect(body.summary.p95Ms).toBeGreaterThanOrEqual(body.summary.p50Ms);
	const kinds = new Set(receiver.calls.slice(before).map((call) => call.body.evento));
	expect(kinds).toEqual(new Set(['agente.pause_in', 'agente.login']));
	expect(
		(await control('POST', 'events', { count: 1, concurrency: 1, kinds: ['agente.dance'] })).status,
	).toBe(400);
	await control('DELETE', 'webhooks');
});

it('starts and stops the shift, and shows the agents states', async () => {
	expect((await control('POST', 'shift/start', { eventsPerSecond: 100 })).body).toEqual({
		running: true,
	});
	await eventually(() => sim.shift.events.length >= 10);
	const stopped = (await control('POST', 'shift/stop')).body;
	expect(stopped.running).toBe(false);
	expect(stopped.events).toBeGreaterThanOrEqual(10);
	const state = (await control('GET', 'state')).body;
	expect(state.counts).toMatchObject({ agents: 32, fichas: 300, calls: 300 });
	expect(state.shift).toEqual({ running: false, events: stopped.events });
	expect(state.agents.map((agent: Loose) => agent.estado)).toEqual(
		sim.data.agents.map((agent) => agent.estado),
	);
});

it('answers an unknown route with 404 and a body that is not JSON with 400', async () => {
	expect((await control('GET', 'nothing')).status).toBe(404);
	expect((await control('POST', 'faults', '{not json')).status).toBe(400);
});
