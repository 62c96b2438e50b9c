import { NodeOperationError } from 'n8n-workflow';

import { fakeWebhookFunctions, login, SECRET, startedItems } from '../support/webhookFunctions';

// Tests that need n8n's clock to stand still fake it; none lets it leak into the next.
afterEach(() => jest.useRealTimers());

describe('a delivery with the right secret and a selected event', () => {
	it('answers 200 {"received":true} itself and starts the workflow with one readable item', async () => {
		const { call, written } = fakeWebhookFunctions({ body: login });
		const result = await call();
		expect(written).toEqual({ status: 200, body: { received: true } });
		// n8n must not answer again: the node already did, before n8n creates the execution
		expect(result.noWebhookResponse).toBe(true);
		expect(startedItems(result)).toEqual([
			expect.objectContaining({
				...login,
				event: 'agente.login',
				state: 'online',
				agentId: 42,
				eventTime: '2025-11-22T05:26:40.000-03:00',
			}),
		]);
	});

	it('stamps the time it was received, in the workflow timezone', async () => {
		jest.useFakeTimers({ now: Date.parse('2025-11-22T08:26:41.250Z') });
		const [item] = startedItems(
			await fakeWebhookFunctions({ body: login, timezone: 'Asia/Kolkata' }).call(),
		);
		expect(item.receivedAt).toBe('2025-11-22T13:56:41.250+05:30');
	});
});

describe('the secret', () => {
	it.each([
		['a wrong secret', { 'x-webhook-secret': 'shared-secret-2' }],
		['a secret in another case', { 'x-webhook-secret': SECRET.toUpperCase() }],
		['a shorter secret', { 'x-webhook-secret': 'shared' }],
		['no secret header', { 'x-webhook-secret': undefined }],
	])('answers 401 to %s and starts nothing, without reading the body', async (_label, headers) => {
		const { call, written, getBodyData } = fakeWebhookFunctions({ body: login, headers });
		const result = await call();
		expect(written).toEqual({
			status: 401,
			body: { error: 'Missing or wrong X-Webhook-Secret header' },
		});
		expect(result).toEqual({ noWebhookResponse: true });
		expect(getBodyData).not.toHaveBeenCalled();
	});

	it('is checked before filtering, so callers without it learn nothing about the selection', async () => {
		const { call, written } = fakeWebhookFunctions({
			body: login,
			events: ['agente.busy'],
			headers: { 'x-webhook-secret': 'guess' },
		});
		await call();
		expect(written.status).toBe(401);
	});

	it('is read from the credential once, not on every delivery', async () => {
		const credentialId = 'cred-shared';
		const calls = Array.from({ length: 30 }, () =>
			fakeWebhookFunctions({ body: login, credentialId }),
		);
		for (const { call } of calls) await call();
		const reads = calls.reduce(
			(sum, { getCredentials }) => sum + getCredentials.mock.calls.length,
			0,
		);
		expect(reads).toBe(1);
	});
});

describe('malformed deliveries', () => {
	it.each([
		['an empty body', undefined, 'body must be a JSON object'],
		['a text body', 'hello', 'body must be a JSON object'],
		['an array', [login], 'body must be a JSON object'],
		['null', null, 'body must be a JSON object'],
		['no evento', { ...login, evento: undefined }, '"evento"'],
		['a numeric estado', { ...login, estado: 3 }, '"estado"'],
		['t in words', { ...login, t: 'now' }, '"t" must be a Unix time in whole seconds'],
		['usuario_id as a login', { ...login, usuario_id: 'ana.souza' }, '"usuario_id"'],
		[
			'a pause limit that is not a number',
			{ ...login, evento: 'agente.pause_in', durmax: '15 min' },
			'"durmax" must be seconds',
		],
	])('answer 400 with a short reason for %s, and start nothing', async (_label, body, reason) => {
		const { call, written } = fakeWebhookFunctions({ body });
		const result = await call();
		expect(written.status).toBe(400);
		expect((written.body as { error: string }).error).toContain(reason);
		expect(result).toEqual({ noWebhookResponse: true });
	});
});

describe('deliveries this workflow does not want', () => {
	it('acknowledges an unknown evento with 200 and ignores it, so new server events break nothing', async () => {
		const { call, written } = fakeWebhookFunctions({
			body: { ...login, evento: 'agente.transfer' },
		});
		const result = await call();
		expect(written).toEqual({ status: 200, body: { received: true, ignored: 'unknown event' } });
		expect(result).toEqual({ noWebhookResponse: true });
	});

	it('acknowledges an event that is not selected and starts nothing', async () => {
		const { call, written } = fakeWebhookFunctions({
			body: login,
			events: ['agente.pause_in', 'agente.pause_out'],
		});
		expect(await call()).toEqual({ noWebhookResponse: true });
		expect(written).toEqual({
			status: 200,
			body: { received: true, ignored: 'event not selected' },
		});
	});

	it('acknowledges an agent that is not selected and starts nothing', async () => {
		const { call, written } = fakeWebhookFunctions({ body: login, options: { agentIds: '7, 8' } });
		expect(await call()).toEqual({ noWebhookResponse: true });
		expect(written).toEqual({
			status: 200,
			body: { received: true, ignored: 'agent not selected' },
		});
	});

	it('starts the workflow for a selected agent', async () => {
		const { call } = fakeWebhookFunctions({ body: login, options: { agentIds: '7, 42' } });
		expect(startedItems(await call())).toHaveLength(1);
	});

	it('reports a malformed Agent IDs option as a node error that says what to fix', async () => {
		const { call } = fakeWebhookFunctions({ body: login, options: { agentIds: '7, Maria' } });
		const error = await call().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toContain('"Maria" is not an agent ID');
	});
});

describe('the cost of one delivery', () => {
	// Reading the credential is what costs n8n's main thread (its expression isolate, about 20 ms
	// a read): within the cache's time it happens once, however many deliveries come.
	it('reads the credential once for many deliveries, then checks each with a digest', async () => {
		// n8n's clock stands still: all of them come within the cache's time, however slow the machine.
		jest.useFakeTimers({ now: 1_763_800_000_000 });
		const credentialId = 'cred-cost';
		const deliveries = Array.from({ length: 200 }, (_, seq) =>
			fakeWebhookFunctions({ body: { ...login, seq }, credentialId }),
		);
		const started = [];
		for (const { call } of deliveries) started.push(...startedItems(await call()));
		expect(started.map((item) => item.seq)).toEqual(deliveries.map((_, seq) => seq));
		const reads = deliveries.map(({ getCredentials }) => getCredentials.mock.calls.length);
		expect(reads).toEqual([1, ...Array(deliveries.length - 1).fill(0)]);
	});
});

describe('a dialer whose clock is off', () => {
	it("names the skew once in n8n's log and on every item, and gives the maximum on n8n's clock", async () => {
		const credentialId = 'cred-skewed-clock';
		const behindSeconds = 3 * 3600;
		// n8n's clock stands still: the offset is then exact, not 1 s more when a second turns.
		const now = 1_763_800_000;
		jest.useFakeTimers({ now: now * 1000 + 400 });
		const pause = {
			estado: 'paused',
			evento: 'agente.pause_in',
			usuario_id: 42,
			pausa_id: 1,
			t: now - behindSeconds,
			udate: now - behindSeconds,
			durmax: 600,
		};
		const deliveries = [0, 1].map(() =>
			fakeWebhookFunctions({ body: pause, credentialId, timezone: 'UTC' }),
		);
		const items = [];
		for (const { call } of deliveries) items.push(...startedItems(await call()));
		expect(items).toHaveLength(2);
		const warnings = deliveries.flatMap(({ warn }) => warn.mock.calls.map(([line]) => line));
		expect(warnings).toEqual([expect.stringContaining("10800 s behind n8n's")]);
		for (const item of items) {
			expect(item.dialerClockOffsetSeconds).toBe(behindSeconds);
			expect(item.warnings).toEqual([expect.stringContaining('10800 s behind')]);
			expect(
				Date.parse((item.n8nClock as { maxDurationReachedAt: string }).maxDurationReachedAt),
			).toBe((now + 600) * 1000);
		}
	});
});
