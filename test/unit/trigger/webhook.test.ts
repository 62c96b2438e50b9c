import fc from 'fast-check';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DialerTrigger } from '../../../nodes/DialerTrigger/DialerTrigger.node';
import { checkPayload, isKnownEventCode } from '../../../nodes/DialerTrigger/events';

const SECRET = 'shared-secret-1';
const ALL_EVENTS = [
	'agente.login',
	'agente.logout',
	'agente.pause_in',
	'agente.pause_out',
	'agente.busy',
	'agente.ringing',
	'agente.online',
];
const login = { estado: 'online', t: 1763800000, evento: 'agente.login', usuario_id: 42 };

// The secret cache lives for the whole n8n process; a fresh credential ID per delivery
// setup keeps the tests independent of each other.
let credentialCounter = 0;

interface Delivery {
	body?: unknown;
	headers?: IDataObject;
	secret?: string;
	events?: string[];
	options?: IDataObject;
	timezone?: string;
	credentialId?: string;
}

function fakeN8n(delivery: Delivery = {}) {
	const written: { status?: number; body?: unknown } = {};
	const response = {
		status(code: number) {
			written.status = code;
			return response;
		},
		json(body: unknown) {
			written.body = body;
			return response;
		},
	};
	const getCredentials = jest.fn(async () => ({ webhookSecret: delivery.secret ?? SECRET }));
	const getBodyData = jest.fn(() => delivery.body as IDataObject);
	const parameters: IDataObject = {
		events: delivery.events ?? ALL_EVENTS,
		options: delivery.options ?? {},
	};
	const credentialId = delivery.credentialId ?? `cred-${++credentialCounter}`;
	const context = {
		getNode: () => ({
			name: 'Dialer Trigger',
			type: 'n8n-nodes-dialer.dialerTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters,
			credentials: { dialerApi: { id: credentialId, name: 'Dialer' } },
		}),
		getHeaderData: () => ({ 'x-webhook-secret': SECRET, ...delivery.headers }),
		getBodyData,
		getCredentials,
		getNodeParameter: (name: string, fallback: unknown) => parameters[name] ?? fallback,
		getTimezone: () => delivery.timezone ?? 'America/Sao_Paulo',
		getResponseObject: () => response,
		helpers: {
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	};
	const node = new DialerTrigger();
	const call = () => node.webhook.call(context as unknown as IWebhookFunctions);
	return { call, written, getCredentials, getBodyData };
}

function startedItems(result: IWebhookResponseData): IDataObject[] {
	return (result.workflowData?.[0] ?? []).map((item) => item.json);
}

describe('a delivery with the right secret and a selected event', () => {
	it('answers 200 {"received":true} itself and starts the workflow with one readable item', async () => {
		const { call, written } = fakeN8n({ body: login });
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
		const before = Date.now();
		const [item] = startedItems(await fakeN8n({ body: login, timezone: 'Asia/Kolkata' }).call());
		const receivedAt = item.receivedAt as string;
		expect(receivedAt).toMatch(/\+05:30$/);
		expect(Date.parse(receivedAt)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(receivedAt)).toBeLessThanOrEqual(Date.now());
	});
});

describe('the secret', () => {
	it.each([
		['a wrong secret', { 'x-webhook-secret': 'shared-secret-2' }],
		['a secret in another case', { 'x-webhook-secret': SECRET.toUpperCase() }],
		['a shorter secret', { 'x-webhook-secret': 'shared' }],
		['no secret header', { 'x-webhook-secret': undefined }],
	])('answers 401 to %s and starts nothing, without reading the body', async (_label, headers) => {
		const { call, written, getBodyData } = fakeN8n({ body: login, headers });
		const result = await call();
		expect(written).toEqual({ status: 401, body: { error: 'Missing or wrong X-Webhook-Secret header' } });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(getBodyData).not.toHaveBeenCalled();
	});

	it('is checked before filtering, so callers without it learn nothing about the selection', async () => {
		const { call, written } = fakeN8n({
			body: login,
			events: ['agente.busy'],
			headers: { 'x-webhook-secret': 'guess' },
		});
		await call();
		expect(written.status).toBe(401);
	});

	it('is not required when the credential has none: any delivery is accepted', async () => {
		const { call, written } = fakeN8n({ body: login, secret: '', headers: { 'x-webhook-secret': undefined } });
		const result = await call();
		expect(written.status).toBe(200);
		expect(startedItems(result)).toHaveLength(1);
	});

	it('is read from the credential once, not on every delivery', async () => {
		const credentialId = 'cred-shared';
		const calls = Array.from({ length: 30 }, () => fakeN8n({ body: login, credentialId }));
		for (const { call } of calls) await call();
		const reads = calls.reduce((sum, { getCredentials }) => sum + getCredentials.mock.calls.length, 0);
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
		['t as a string', { ...login, t: '1763800000' }, '"t"'],
		['usuario_id as a string', { ...login, usuario_id: '42' }, '"usuario_id"'],
	])('answer 400 with a short reason for %s, and start nothing', async (_label, body, reason) => {
		const { call, written } = fakeN8n({ body });
		const result = await call();
		expect(written.status).toBe(400);
		expect((written.body as { error: string }).error).toContain(reason);
		expect(result).toEqual({ noWebhookResponse: true });
	});
});

describe('deliveries this workflow does not want', () => {
	it('acknowledges an unknown evento with 200 and ignores it, so new server events break nothing', async () => {
		const { call, written } = fakeN8n({ body: { ...login, evento: 'agente.transfer' } });
		const result = await call();
		expect(written).toEqual({ status: 200, body: { received: true, ignored: 'unknown event' } });
		expect(result).toEqual({ noWebhookResponse: true });
	});

	it('acknowledges an event that is not selected and starts nothing', async () => {
		const { call, written } = fakeN8n({ body: login, events: ['agente.pause_in', 'agente.pause_out'] });
		expect(await call()).toEqual({ noWebhookResponse: true });
		expect(written).toEqual({ status: 200, body: { received: true, ignored: 'event not selected' } });
	});

	it('acknowledges an agent that is not selected and starts nothing', async () => {
		const { call, written } = fakeN8n({ body: login, options: { agentIds: '7, 8' } });
		expect(await call()).toEqual({ noWebhookResponse: true });
		expect(written).toEqual({ status: 200, body: { received: true, ignored: 'agent not selected' } });
	});

	it('starts the workflow for a selected agent', async () => {
		const { call } = fakeN8n({ body: login, options: { agentIds: '7, 42' } });
		expect(startedItems(await call())).toHaveLength(1);
	});

	it('reports a malformed Agent IDs option as a node error that says what to fix', async () => {
		const { call } = fakeN8n({ body: login, options: { agentIds: '7, Maria' } });
		const error = await call().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toContain('"Maria" is not an agent ID');
	});
});

describe('any body at all (property-based)', () => {
	const field = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
	const eventLike = fc.record(
		{
			evento: fc.oneof(fc.constantFrom(...ALL_EVENTS, 'agente.new'), field),
			estado: fc.oneof(fc.constantFrom('online', 'paused', 'busy'), field),
			t: fc.oneof(fc.nat(), field),
			usuario_id: fc.oneof(fc.nat({ max: 100 }), field),
			pausa_id: field,
			udate: field,
			durmax: field,
			durmin: field,
		},
		{ requiredKeys: [] },
	);
	const anyBody = fc.oneof(fc.anything(), eventLike);

	it('never throws, and starts the workflow only for a valid, selected event', async () => {
		await fc.assert(
			fc.asyncProperty(anyBody, fc.subarray(ALL_EVENTS), async (body, events) => {
				const { call, written } = fakeN8n({ body, events, credentialId: 'cred-property' });
				const result = await call();
				const check = checkPayload(body);
				const shouldStart = check.valid && isKnownEventCode(check.payload.evento) && events.includes(check.payload.evento);
				expect(written.status).toBe(check.valid ? 200 : 400);
				expect(result.noWebhookResponse).toBe(true);
				if (shouldStart) {
					expect(startedItems(result)).toHaveLength(1);
					// every original field arrives unchanged
					expect(startedItems(result)[0]).toMatchObject(body as object);
				} else {
					expect(result.workflowData).toBeUndefined();
				}
			}),
			{ numRuns: 500 },
		);
	});
});

describe('the cost of one delivery', () => {
	it('is a fraction of a millisecond of node work once the secret is cached', async () => {
		const credentialId = 'cred-cost';
		const deliveries = Array.from({ length: 2000 }, (_, seq) => fakeN8n({ body: { ...login, seq }, credentialId }));
		await deliveries[0].call();
		const started = performance.now();
		for (const { call } of deliveries.slice(1)) await call();
		const meanMs = (performance.now() - started) / (deliveries.length - 1);
		console.log(`node work per accepted delivery: ${(meanMs * 1000).toFixed(0)} µs`);
		expect(meanMs).toBeLessThan(1);
	});
});
