/**
 * The Dialer Trigger inside a real n8n, fed by the dialer simulator's webhook sender (one
 * attempt, 5 s timeout, secret header only when configured) and, for what a well-behaved
 * dialer never sends, by raw HTTP requests.
 */
import { randomUUID } from 'node:crypto';

import { registerSecret } from './setup/connection';
import {
	event,
	post,
	sleep,
	triggerItems,
	TriggerWorkflows,
	type TriggerWorkflow,
} from './support/triggerWorkflows';

const SECRET = `e2e-trigger-secret-${randomUUID()}`;

// Cache expiry takes longer than jest's default 5 s.
jest.setTimeout(180_000);

describe('Dialer Trigger in n8n', () => {
	let workflows: TriggerWorkflows;

	beforeAll(async () => {
		registerSecret(SECRET);
		workflows = await TriggerWorkflows.start();
	});

	afterAll(async () => {
		await workflows?.close();
	});

	describe('one workflow for login, pause and busy events of agents 42 and 43', () => {
		let hook: TriggerWorkflow;
		let executions = 0;

		beforeAll(async () => {
			const credential = await workflows.createCredential(SECRET);
			hook = await workflows.createTriggerWorkflow(credential, {
				events: ['agente.login', 'agente.pause_in', 'agente.busy'],
				options: { agentIds: '42, 43' },
			});
			workflows.simulator.webhooks.clear();
			workflows.simulator.webhooks.register({ url: hook.url, secret: SECRET });
		});

		afterAll(() => workflows.simulator.webhooks.clear());

		it('runs the workflow for a delivery with the right secret, with readable fields in the workflow timezone', async () => {
			const [delivery] = await workflows.simulator.webhooks.emit(event('agente.login', 42));
			expect(delivery.status).toBe(200);
			executions += 1;
			const [execution] = await hook.expectExecutions(executions);
			expect(triggerItems(execution)).toEqual([
				expect.objectContaining({
					event: 'agente.login',
					state: 'online',
					agentId: 42,
					eventTime: '2025-11-22T13:56:40.000+05:30',
					receivedAt: expect.stringMatching(/\+05:30$/),
					estado: 'online',
					t: 1763800000,
					evento: 'agente.login',
					usuario_id: 42,
				}),
			]);
		});

		it('answers {"received":true} as JSON, not n8n\'s default text', async () => {
			const answer = await post(
				hook.url,
				JSON.stringify(event('agente.busy', 43, { udate: 1763799990 })),
				{
					'content-type': 'application/json',
					'x-webhook-secret': SECRET,
				},
			);
			expect(answer).toMatchObject({ status: 200, body: { received: true } });
			executions += 1;
			await hook.expectExecutions(executions);
		});

		it('describes a pause with its ID, start and limits', async () => {
			await workflows.simulator.webhooks.emit(
				event('agente.pause_in', 43, { pausa_id: 5, udate: 1763799700, durmax: 900 }),
			);
			executions += 1;
			const done = await hook.expectExecutions(executions);
			const pauses = done.flatMap(triggerItems).filter((item) => item.event === 'agente.pause_in');
			expect(pauses).toEqual([
				expect.objectContaining({
					pauseId: 5,
					pauseStartedAt: '2025-11-22T13:51:40.000+05:30',
					maxDurationSeconds: 900,
					minDurationSeconds: null,
					pausa_id: 5,
					durmax: 900,
				}),
			]);
		});

		/** Agent 43's pause `pausa_id` (started 5 minutes before the event) with these limits. */
		const pause = (pausaId: number, limits: Record<string, number>) =>
			event('agente.pause_in', 43, { pausa_id: pausaId, udate: 1763799700, ...limits });

		/** The one new execution's items for pause `pausaId`. */
		async function itemsOfPause(pausaId: number) {
			executions += 1;
			const done = await hook.expectExecutions(executions);
			return done.flatMap(triggerItems).filter((item) => item.pausa_id === pausaId);
		}

		it('reads the numbers of a dialer that sends them as text, and hands them on as numbers', async () => {
			const { webhooks } = workflows.simulator;
			webhooks.clear();
			webhooks.register({ url: hook.url, secret: SECRET, numbersAsText: true });
			const sent = pause(6, { durmax: 900, durmin: 60 });
			const [delivery] = await webhooks.emit(sent);
			webhooks.clear();
			webhooks.register({ url: hook.url, secret: SECRET });
			expect(delivery.status).toBe(200);
			expect(await itemsOfPause(6)).toEqual([
				expect.objectContaining({
					agentId: 43,
					eventTime: '2025-11-22T13:56:40.000+05:30',
					pauseId: 6,
					pauseStartedAt: '2025-11-22T13:51:40.000+05:30',
					maxDurationSeconds: 900,
					maxDurationReachedAt: '2025-11-22T14:06:40.000+05:30',
					minDurationReachedAt: '2025-11-22T13:52:40.000+05:30',
					...sent,
				}),
			]);
		});

		it('gives a pause whose limits are 0 no limit moments, so nothing waits for them', async () => {
			const [delivery] = await workflows.simulator.webhooks.emit(
				pause(7, { durmax: 0, durmin: 0 }),
			);
			expect(delivery.status).toBe(200);
			expect(await itemsOfPause(7)).toEqual([
				expect.objectContaining({
					pauseStartedAt: '2025-11-22T13:51:40.000+05:30',
					maxDurationSeconds: null,
					minDurationSeconds: null,
					maxDurationReachedAt: null,
					minDurationReachedAt: null,
					durmax: 0,
				}),
			]);
		});

		it.each([
			['a wrong secret', { 'x-webhook-secret': `${SECRET}x` }],
			['the secret in another case', { 'x-webhook-secret': SECRET.toUpperCase() }],
			['no secret', {}],
		])('answers 401 to %s and runs nothing', async (_label, headers) => {
			const answer = await post(hook.url, JSON.stringify(event('agente.login', 42)), {
				'content-type': 'application/json',
				...headers,
			});
			expect(answer).toMatchObject({
				status: 401,
				body: { error: 'Missing or wrong X-Webhook-Secret header' },
			});
			await hook.expectExecutions(executions);
		});

		it.each([
			['an event that is not selected', event('agente.ringing', 42), 'event not selected'],
			['an agent that is not selected', event('agente.login', 7), 'agent not selected'],
			['an unknown event', event('agente.transfer', 42), 'unknown event'],
		])('acknowledges %s with 200 and runs nothing', async (_label, body, reason) => {
			const [delivery] = await workflows.simulator.webhooks.emit(body);
			expect(delivery.status).toBe(200);
			const answer = await post(hook.url, JSON.stringify(body), {
				'content-type': 'application/json',
				'x-webhook-secret': SECRET,
			});
			expect(answer).toMatchObject({ status: 200, body: { received: true, ignored: reason } });
			await hook.expectExecutions(executions);
		});

		it.each([
			[
				'usuario_id that is a login, not a number',
				JSON.stringify({ ...event('agente.login', 42), usuario_id: 'ana.souza' }),
				'"usuario_id" must be an agent ID (a number or digits)',
			],
			[
				'no evento',
				JSON.stringify({ estado: 'online', t: 1763800000, usuario_id: 42 }),
				'"evento"',
			],
			[
				't in words',
				JSON.stringify({ ...event('agente.login', 42), t: 'yesterday' }),
				'"t" must be a Unix time in whole seconds',
			],
			[
				'a pause limit in words',
				JSON.stringify(event('agente.pause_in', 42, { pausa_id: 1, durmax: '15 min' })),
				'"durmax" must be seconds',
			],
			['an array', JSON.stringify([event('agente.login', 42)]), 'JSON object'],
			['null', 'null', 'JSON object'],
			['an empty body', '', 'JSON object'],
		])('answers 400 to a body with %s and runs nothing', async (_label, body, reason) => {
			const answer = await post(hook.url, body, {
				'content-type': 'application/json',
				'x-webhook-secret': SECRET,
			});
			expect(answer.status).toBe(400);
			expect((answer.body as { error: string }).error).toContain(reason);
			await hook.expectExecutions(executions);
		});

		it('refuses a body that is not JSON, and runs nothing', async () => {
			const answer = await post(hook.url, '{"evento": "agente.login",', {
				'content-type': 'application/json',
				'x-webhook-secret': SECRET,
			});
			// n8n parses application/json bodies before the node runs and answers 422 itself.
			expect(answer.status).toBe(422);
			const text = await post(hook.url, 'evento=agente.login', {
				'content-type': 'text/plain',
				'x-webhook-secret': SECRET,
			});
			expect(text.status).toBe(400);
			await hook.expectExecutions(executions);
		});
	});

	describe('a secret rotated in the credential', () => {
		it('takes effect within a second for the new secret, and within the cache lifetime for the old one', async () => {
			const credential = await workflows.createCredential(SECRET);
			const hook = await workflows.createTriggerWorkflow(credential, { events: ['agente.login'] });
			const send = async (secret: string) =>
				(
					await post(hook.url, JSON.stringify(event('agente.login', 1)), {
						'content-type': 'application/json',
						'x-webhook-secret': secret,
					})
				).status;
			const rotate = async (webhookSecret: string) => {
				registerSecret(webhookSecret);
				await workflows.api.updateCredential(credential.id, {
					name: credential.name,
					type: 'dialerApi',
					data: workflows.credentialData(webhookSecret),
				});
			};
			expect(await send(SECRET)).toBe(200);

			// Only the old secret keeps arriving: n8n cannot tell the node about the change, so
			// the cached digest serves until it expires.
			await rotate(`${SECRET}-2`);
			const rotatedAt = Date.now();
			while ((await send(SECRET)) === 200 && Date.now() - rotatedAt < 20000) await sleep(250);
			const oldRefusedAfter = Date.now() - rotatedAt;
			expect(await send(SECRET)).toBe(401);
			expect(oldRefusedAfter).toBeLessThan(11000);
			expect(await send(`${SECRET}-2`)).toBe(200);

			// The new secret arrives first: a mismatch re-reads the credential before refusing
			// (at most once a second, so a flood of wrong secrets cannot force a read each).
			await rotate(`${SECRET}-3`);
			await sleep(1100);
			expect(await send(`${SECRET}-3`)).toBe(200);
			expect(await send(`${SECRET}-2`)).toBe(401);
			console.log(
				`rotation: old secret refused ${(oldRefusedAfter / 1000).toFixed(1)} s after the change when only it arrived; ` +
					'new secret accepted on its first delivery a second after the change',
			);
		});
	});
});
