/** Webhook delivery as the contract states it: JSON POST, secret header only when set, event subsets, one attempt, a timeout. */
import { startSimulator, type AgentEvent, type DialerSimulator } from '../../harness/simulator';
import { eventually, startReceiver, type Receiver } from './helpers';

let sim: DialerSimulator;
const receivers: Receiver[] = [];

beforeAll(async () => {
	// A short timeout keeps the silent-receiver specification fast; the default stays the contract's 5 s.
	sim = await startSimulator({ webhookTimeoutMs: 300 });
});
afterEach(() => sim.webhooks.clear());
afterAll(() => Promise.all([sim?.close(), ...receivers.map((receiver) => receiver.close())]));

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
	const started = await startReceiver(answer);
	receivers.push(started);
	return started;
}

const loginEvent = (): AgentEvent => ({
	estado: 'online',
	t: Math.floor(Date.now() / 1000),
	evento: 'agente.login',
	usuario_id: 101,
});

it('posts the event as JSON with Content-Type application/json', async () => {
	const target = await receiver();
	sim.webhooks.register({ url: target.url });
	const event = loginEvent();
	const [delivery] = await sim.webhooks.emit(event);
	expect(delivery).toMatchObject({ status: 200, secretSent: false, event, ms: expect.any(Number) });
	expect(target.calls).toHaveLength(1);
	expect(target.calls[0].headers['content-type']).toBe('application/json');
	expect(target.calls[0].body).toEqual(event);
});

it('sends X-Webhook-Secret with exactly the configured value, and only when one is configured', async () => {
	const withSecret = await receiver();
	const withoutSecret = await receiver();
	sim.webhooks.register({ url: withSecret.url, secret: 's3cr3t: with spaces' });
	sim.webhooks.register({ url: withoutSecret.url });
	const deliveries = await sim.webhooks.emit(loginEvent());
	expect(deliveries.map((delivery) => delivery.secretSent).sort()).toEqual([false, true]);
	expect(withSecret.calls[0].headers['x-webhook-secret']).toBe('s3cr3t: with spaces');
	expect(withoutSecret.calls[0].headers).not.toHaveProperty('x-webhook-secret');
});

it('sends every number of the payload as text to a receiver registered with numbersAsText', async () => {
	const asText = await receiver();
	sim.webhooks.register({ url: asText.url, numbersAsText: true });
	const pause = { ...loginEvent(), evento: 'agente.pause_in', pausa_id: 3, udate: 1, durmax: 0 };
	await sim.webhooks.emit(pause);
	expect(asText.calls[0].body).toEqual({
		...pause,
		t: String(pause.t),
		usuario_id: '101',
		pausa_id: '3',
		udate: '1',
		durmax: '0',
	});
});

it('delivers only the subscribed events to a receiver registered for a subset', async () => {
	const subset = await receiver();
	const id = sim.webhooks.register({ url: subset.url, events: ['agente.logout'] });
	await sim.webhooks.emit(loginEvent());
	await sim.webhooks.emit({ ...loginEvent(), evento: 'agente.logout', estado: 'offline' });
	expect(subset.calls.map((call) => call.body.evento)).toEqual(['agente.logout']);
	sim.webhooks.unregister(id);
	expect(
		await sim.webhooks.emit({ ...loginEvent(), evento: 'agente.logout', estado: 'offline' }),
	).toEqual([]);
});

it('makes exactly one attempt when the receiver fails, and records its status', async () => {
	const failing = await receiver(() => ({ status: 503 }));
	sim.webhooks.register({ url: failing.url });
	const [delivery] = await sim.webhooks.emit(loginEvent());
	await sim.webhooks.settled();
	expect(delivery.status).toBe(503);
	expect(failing.calls).toHaveLength(1);
	expect(sim.webhooks.deliveries.filter((d) => d.receiverId === delivery.receiverId)).toEqual([
		delivery,
	]);
});

it('gives up on a receiver slower than the timeout, records a timeout and does not retry', async () => {
	const silent = await receiver(() => ({ hold: true }));
	sim.webhooks.register({ url: silent.url });
	const [delivery] = await sim.webhooks.emit(loginEvent());
	expect(delivery.error).toBe('timeout');
	expect(delivery.status).toBeUndefined();
	await sim.webhooks.settled();
	// The simulator let go of the call unanswered, and every attempt is recorded: this one only.
	await eventually(() => silent.calls[0]?.outcome !== 'pending');
	expect(silent.calls.map((call) => call.outcome)).toEqual(['dropped by the sender']);
	expect(sim.webhooks.deliveries.filter((d) => d.receiverId === delivery.receiverId)).toEqual([
		delivery,
	]);
});

it('records a receiver that cannot be reached as an error', async () => {
	const gone = await receiver();
	await gone.close();
	sim.webhooks.register({ url: gone.url });
	const [delivery] = await sim.webhooks.emit(loginEvent());
	expect(delivery.status).toBeUndefined();
	expect(delivery.error).toEqual(expect.any(String));
	expect(sim.webhooks.deliveries).toContain(delivery);
});

it('refuses to register a URL that is not http(s)', () => {
	expect(() => sim.webhooks.register({ url: 'ftp://example.test/hook' })).toThrow(/http/);
});

it('uses the contract timeout of 5 s by default', async () => {
	const { contractTimeoutMs } = await import('../../harness/simulator/webhooks');
	expect(contractTimeoutMs).toBe(5000);
});
