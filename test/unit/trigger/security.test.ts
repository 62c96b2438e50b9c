import { NodeOperationError } from 'n8n-workflow';

import { fakeWebhookFunctions, login, SECRET, startedItems } from '../support/webhookFunctions';

const NOW = Math.floor(Date.now() / 1000);
const current = { ...login, t: NOW };

describe('publishing (and the Test URL) without a Webhook Secret', () => {
	it('fails with a message saying where to set one', async () => {
		const { listen } = fakeWebhookFunctions({ secret: '' });
		const error = await listen().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		const { message } = error as NodeOperationError;
		expect(message).toContain('no Webhook Secret');
		expect(message).toContain("dialer console's webhook settings");
		expect(message).toContain('Webhook Secret in the credential');
		expect(message).toContain('Accept Unauthenticated Deliveries');
	});

	it('succeeds when Accept Unauthenticated Deliveries is on', async () => {
		const { listen } = fakeWebhookFunctions({ secret: '', acceptUnauthenticatedDeliveries: true });
		await expect(listen()).resolves.toBe(true);
	});

	it('fails when Accept Unauthenticated Deliveries is given by an expression as text "false"', async () => {
		const { listen } = fakeWebhookFunctions({
			secret: '',
			acceptUnauthenticatedDeliveries: 'false',
		});
		await expect(listen()).rejects.toThrow('no Webhook Secret');
		const on = fakeWebhookFunctions({ secret: '', acceptUnauthenticatedDeliveries: ' TRUE ' });
		await expect(on.listen()).resolves.toBe(true);
	});

	it('succeeds with a secret, or with only a previous one', async () => {
		await expect(fakeWebhookFunctions().listen()).resolves.toBe(true);
		await expect(
			fakeWebhookFunctions({ secret: '', previousSecret: 'old' }).listen(),
		).resolves.toBe(true);
	});

	it.each([
		[{ allowedAddresses: '203.0.113.7, 10.0.0.0/33' }, 'Entry 2 of Allowed Addresses'],
		[{ agentIds: '7, Maria' }, '"Maria" is not an agent ID'],
	])('fails for options that do not read (%j)', async (options, message) => {
		const error = await fakeWebhookFunctions({ options })
			.listen()
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toContain(message);
	});
});

describe('deliveries when the credential has no secret', () => {
	it('are refused with 401 (the secret was removed after publishing), and the refusal is logged', async () => {
		const { call, written, warn } = fakeWebhookFunctions({
			body: current,
			secret: '',
			headers: { 'x-webhook-secret': undefined },
		});
		expect(await call()).toEqual({ noWebhookResponse: true });
		expect(written).toEqual({
			status: 401,
			body: { error: 'No Webhook Secret is set in n8n: deliveries are refused' },
		});
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('while the credential has no'));
	});

	it('are accepted when Accept Unauthenticated Deliveries is on', async () => {
		const { call, written } = fakeWebhookFunctions({
			body: current,
			secret: '',
			acceptUnauthenticatedDeliveries: true,
			headers: { 'x-webhook-secret': undefined },
		});
		expect(startedItems(await call())).toHaveLength(1);
		expect(written.status).toBe(200);
	});
});

describe('a rotation: Webhook Secret and Previous Webhook Secret', () => {
	it.each([
		['the new secret', 'new-secret', 200],
		['the previous secret', SECRET, 200],
		['neither', 'guess', 401],
		['no header', undefined, 401],
	])('answers %s with %s', async (_label, header, status) => {
		const { call, written } = fakeWebhookFunctions({
			body: current,
			secret: 'new-secret',
			previousSecret: SECRET,
			headers: { 'x-webhook-secret': header },
		});
		await call();
		expect(written.status).toBe(status);
	});
});

describe('Allowed Addresses', () => {
	const options = { allowedAddresses: '203.0.113.0/24, 2001:db8::/32' };

	it('answers 403 to any other address before reading the credential or the body', async () => {
		const { call, written, getCredentials, getBodyData, warn } = fakeWebhookFunctions({
			body: current,
			options,
			ip: '198.51.100.9',
		});
		expect(await call()).toEqual({ noWebhookResponse: true });
		expect(written).toEqual({ status: 403, body: { error: 'Address not allowed' } });
		expect(getCredentials).not.toHaveBeenCalled();
		expect(getBodyData).not.toHaveBeenCalled();
		// the log names neither the caller nor the list
		const [line] = warn.mock.calls[0] as [string];
		expect(line).toContain('from an address not in Allowed Addresses');
		expect(line).not.toMatch(/198\.51|203\.0|2001:db8/);
	});

	it.each(['203.0.113.40', '::ffff:203.0.113.40', '2001:db8:1::5'])(
		'lets %s in, then checks the secret as usual',
		async (ip) => {
			const accepted = fakeWebhookFunctions({ body: current, options, ip });
			expect(startedItems(await accepted.call())).toHaveLength(1);
			const wrongSecret = fakeWebhookFunctions({
				body: current,
				options,
				ip,
				headers: { 'x-webhook-secret': 'guess' },
			});
			await wrongSecret.call();
			expect(wrongSecret.written.status).toBe(401);
		},
	);

	it('refuses a caller whose address n8n cannot tell', async () => {
		const { call, written } = fakeWebhookFunctions({ body: current, options, ip: '' });
		await call();
		expect(written.status).toBe(403);
	});
});

describe('Max Event Age and Max Event Time Ahead', () => {
	const options = { maxEventAge: 300, maxEventAhead: 60 };

	it.each([
		[
			'an event 10 minutes old',
			400,
			NOW - 600,
			/^Stale delivery: its event time t is 6\d\d s before/,
		],
		[
			'an event 2 minutes ahead',
			400,
			NOW + 120,
			/^Delivery from the future: its event time t is 1\d\d s after/,
		],
		['an event 2 minutes old', 200, NOW - 120, undefined],
	])('answer %s with %s', async (_label, status, t, error) => {
		const { call, written } = fakeWebhookFunctions({ body: { ...current, t }, options });
		const result = await call();
		expect(written.status).toBe(status);
		if (error) {
			expect((written.body as { error: string }).error).toMatch(error);
			expect(result.workflowData).toBeUndefined();
		} else expect(startedItems(result)).toHaveLength(1);
	});

	it('refuse a replayed event when the limits are given by an expression as text ("300")', async () => {
		const { call, written } = fakeWebhookFunctions({
			body: { ...current, t: NOW - 600 },
			options: { maxEventAge: '300', maxEventAhead: ' 60 ' },
		});
		await call();
		expect(written.status).toBe(400);
	});

	it('also read t sent as text', async () => {
		const { call, written } = fakeWebhookFunctions({
			body: { ...current, t: String(NOW - 600) },
			options,
		});
		await call();
		expect(written.status).toBe(400);
	});

	it('are off by default: an event from 2025 still starts the workflow', async () => {
		const { call } = fakeWebhookFunctions({ body: login });
		expect(startedItems(await call())).toHaveLength(1);
	});
});
