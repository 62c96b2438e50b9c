/**
 * The Dialer Trigger's webhook security in a real n8n: no publishing (and no Test URL)
 * without a Webhook Secret unless unauthenticated deliveries are accepted on purpose, a secret
 * rotation during a running shift, Allowed Addresses, and Max Event Age / Max Event Time Ahead.
 * The same file runs on n8n 1.123 (e2e-n8n1). Proxy hops: trigger-proxy.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';

import { N8nApiError, PublicationError } from '../../harness/n8n/api';
import { TRIGGER_TYPE, TRIGGER_VERSION } from '../../harness/n8n/dialer';
import { countBy } from '../../harness/queue-mode/burst';
import { ALL } from '../setup/lanes';
import { readConnection, registerSecret } from './setup/connection';
import {
	ALL_EVENTS,
	event,
	post,
	sleep,
	TRIGGER,
	TriggerWorkflows,
	type TriggerWorkflow,
} from './support/triggerWorkflows';

const SECRET = `e2e-security-secret-${randomUUID()}`;
const json = { 'content-type': 'application/json' };

jest.setTimeout(180_000);

/**
 * The message a user sees when n8n refuses: n8n 1.x answers the activation (or the manual run)
 * with 400 and the trigger's message; n8n 2.x accepts a publication, tries it in the background
 * (5 times over about 15 s) and then shows each trigger's message in the editor (publication
 * status "failed").
 */
function refusalMessage(error: unknown): string {
	if (error instanceof PublicationError) return error.triggerMessages.join('\n');
	expect(error).toBeInstanceOf(N8nApiError);
	const { status, body } = error as N8nApiError;
	expect(status).toBeGreaterThanOrEqual(400);
	return (body as { message: string }).message;
}

/** The error `promise` rejects with; undefined when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
	return await promise.then(
		() => undefined,
		(error: unknown) => error,
	);
}

/**
 * The rotation is the node's own secret cache, alike on both n8n lines: on 1.x it runs in the
 * whole matrix only (`npm run test:all`).
 */
const rotationDescribe =
	ALL || readConnection().n8nVersion.startsWith('2.') ? describe : describe.skip;

describe('Dialer Trigger security in n8n', () => {
	let workflows: TriggerWorkflows;
	// Publications n8n refuses, started at once (on n8n 2.x each takes about 15 s): their errors.
	const refused: Record<'noSecret' | 'badAddress', Promise<unknown>> = {
		noSecret: Promise.resolve(),
		badAddress: Promise.resolve(),
	};

	beforeAll(async () => {
		registerSecret(SECRET);
		workflows = await TriggerWorkflows.start();
		refused.noSecret = rejectionOf(
			workflows.createTriggerWorkflow(await workflows.createCredential(''), {
				events: ['agente.login'],
			}),
		);
		refused.badAddress = rejectionOf(
			workflows.createTriggerWorkflow(await workflows.createCredential(SECRET), {
				events: ['agente.login'],
				options: { allowedAddresses: '127.0.0.1, 10.0.0.0/33' },
			}),
		);
	});

	afterAll(async () => {
		await Promise.all(Object.values(refused));
		await workflows?.close();
	});

	describe('a credential without a Webhook Secret', () => {
		it('cannot be published: n8n shows a message saying where to set one', async () => {
			const message = refusalMessage(await refused.noSecret);
			console.log(`publishing without a secret, n8n ${readConnection().n8nVersion}: ${message}`);
			expect(message).toContain('The Dialer credential has no Webhook Secret');
			expect(message).toContain("Set a Secret in the dialer console's webhook settings");
			expect(message).toContain('Webhook Secret in the credential');
			expect(message).toContain('Accept Unauthenticated Deliveries');
		});

		it('does not open the Test URL either', async () => {
			const credential = await workflows.createCredential('');
			const workflow = await workflows.api.createWorkflow({
				name: `e2e security test URL ${randomUUID().slice(0, 8)}`,
				nodes: [
					{
						name: TRIGGER,
						type: TRIGGER_TYPE,
						typeVersion: TRIGGER_VERSION,
						webhookId: randomUUID(),
						position: [0, 0],
						parameters: { events: ['agente.login'], options: {} },
						credentials: { dialerApi: { id: credential.id, name: credential.name } },
					},
				],
				connections: {},
			});
			try {
				const message = refusalMessage(
					await rejectionOf(workflows.api.runManually(workflow.id, TRIGGER, 5000)),
				);
				console.log(`Test URL without a secret, n8n ${readConnection().n8nVersion}: ${message}`);
				expect(message).toContain('The Dialer credential has no Webhook Secret');
			} finally {
				await workflows.api.deleteWorkflow(workflow.id);
			}
		});

		it('is published with Accept Unauthenticated Deliveries on, and takes deliveries without a header', async () => {
			const hook = await workflows.createTriggerWorkflow(await workflows.createCredential(''), {
				events: ['agente.login'],
				acceptUnauthenticatedDeliveries: true,
			});
			const answer = await post(hook.url, JSON.stringify(event('agente.login', 9)), json);
			expect(answer).toMatchObject({ status: 200, body: { received: true } });
			await hook.expectExecutions(1);
		});
	});

	rotationDescribe('a secret rotation while a shift is running', () => {
		it('loses no event: the old and the new secret are both accepted until the previous one is cleared', async () => {
			const { simulator, api } = workflows;
			const credential = await workflows.createCredential(SECRET);
			const hook = await workflows.createTriggerWorkflow(credential, { events: [...ALL_EVENTS] });
			const NEW = `${SECRET}-new`;
			registerSecret(NEW);
			const saveCredential = (current: string, previous: string) =>
				api.updateCredential(credential.id, {
					name: credential.name,
					type: 'dialerApi',
					data: workflows.credentialData(current, previous),
				});
			const { webhooks } = simulator;
			webhooks.clear();
			webhooks.deliveries.splice(0);
			const receiver = webhooks.register({ url: hook.url, secret: SECRET });
			// The rotation, not capacity (the burst suites and the bench): a rate n8n holds beside the
			// other lane, where 8 a second let a few deliveries time out.
			simulator.shift.start({ eventsPerSecond: 4, durationMs: 60_000 });
			// Deliveries started by the end of each phase.
			const phases: number[] = [];
			const phase = async (step: () => unknown) => {
				await sleep(2000);
				await step();
				phases.push(webhooks.deliveries.length);
			};

			// 1. the credential: new secret as current, old as previous
			await phase(() => saveCredential(NEW, SECRET));
			// 2. the dialer console: the new secret (one step, as a console save is)
			await phase(() => {
				webhooks.unregister(receiver);
				webhooks.register({ url: hook.url, secret: NEW });
			});
			// 3. the credential: previous cleared
			await phase(() => saveCredential(NEW, ''));
			await phase(() => simulator.shift.stop());
			await webhooks.settled();
			webhooks.clear();

			const deliveries = webhooks.deliveries.splice(0);
			const statuses = deliveries.map((d) => d.status ?? d.error);
			console.log(
				`rotation during a shift: ${deliveries.length} deliveries (by the end of each step: ` +
					`${phases.join(', ')}), answers ${counted(statuses)}`,
			);
			// Deliveries went out during every step of the rotation.
			expect(phases.every((count, step) => count > (phases[step - 1] ?? 0))).toBe(true);
			expect(statuses.filter((status) => status !== 200)).toEqual([]);
			await hook.expectExecutionCount(deliveries.length);

			// after the cache lifetime, only the new secret opens the door
			await sleep(10_500);
			const send = async (secret: string) =>
				(
					await post(hook.url, JSON.stringify(event('agente.login', 1)), {
						...json,
						'x-webhook-secret': secret,
					})
				).status;
			expect(await send(SECRET)).toBe(401);
			expect(await send(NEW)).toBe(200);
		});
	});

	describe('Allowed Addresses (no proxy in front of n8n)', () => {
		const FROM = '127.0.0.3';
		const client = new Agent({ localAddress: FROM });
		afterAll(() => client.close());

		async function hookAllowing(allowedAddresses: string): Promise<TriggerWorkflow> {
			return await workflows.createTriggerWorkflow(await workflows.createCredential(SECRET), {
				events: ['agente.login'],
				options: { allowedAddresses },
			});
		}
		const deliver = (hook: TriggerWorkflow, headers: Record<string, string> = {}) =>
			post(
				hook.url,
				JSON.stringify(event('agente.login', 5)),
				{ ...json, 'x-webhook-secret': SECRET, ...headers },
				client,
			);

		it('lets a listed address in (IPv4 as n8n reports it, plain or IPv4-mapped)', async () => {
			const hook = await hookAllowing(`192.0.2.1, ${FROM}/32, 2001:db8::/32`);
			expect(await deliver(hook)).toMatchObject({ status: 200, body: { received: true } });
			await hook.expectExecutions(1);
		});

		it('answers 403 to any other address, whatever X-Forwarded-For claims, and runs nothing', async () => {
			const hook = await hookAllowing('127.0.0.5, 2001:db8::77');
			const spoofed = await deliver(hook, { 'x-forwarded-for': '127.0.0.5' });
			expect(spoofed).toMatchObject({ status: 403, body: { error: 'Address not allowed' } });
			const plain = await deliver(hook);
			expect(plain.status).toBe(403);
			await hook.expectExecutionCount(0);
			// n8n's log counts the refusal and names neither the caller nor the list
			const log = readFileSync(readConnection().logFile, 'utf8');
			expect(log).toContain('refused a delivery from an address not in Allowed Addresses');
			expect(log).not.toContain('2001:db8::77');
		});

		it('cannot be published with an entry that is not an address, and says which entry', async () => {
			const message = refusalMessage(await refused.badAddress);
			expect(message).toContain('Entry 2 of Allowed Addresses is not an IP address or CIDR range');
			expect(message).not.toContain('10.0.0.0/33');
		});
	});

	describe('Max Event Age and Max Event Time Ahead', () => {
		it('answer 400 to a stale or a future event time, and run only the event within them', async () => {
			const hook = await workflows.createTriggerWorkflow(await workflows.createCredential(SECRET), {
				events: ['agente.login'],
				options: { maxEventAge: 300, maxEventAhead: 60 },
			});
			const now = Math.floor(Date.now() / 1000);
			const send = async (t: number | string) =>
				await post(hook.url, JSON.stringify({ ...event('agente.login', 3), t }), {
					...json,
					'x-webhook-secret': SECRET,
				});
			const stale = await send(now - 600);
			expect(stale.status).toBe(400);
			expect((stale.body as { error: string }).error).toMatch(/^Stale delivery: .* 300 s/);
			const future = await send(String(now + 120));
			expect(future.status).toBe(400);
			expect((future.body as { error: string }).error).toMatch(/^Delivery from the future/);
			expect((await send(now - 5)).status).toBe(200);
			await hook.expectExecutions(1);
		});
	});
});

/** "200 64": how many of each answer. */
function counted(statuses: Array<number | string | undefined>): string {
	return Object.entries(countBy(statuses, String))
		.map(([status, count]) => `${status} ${count}`)
		.join(', ');
}
