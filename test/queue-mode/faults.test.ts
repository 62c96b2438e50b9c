/**
 * Faults around n8n in queue mode, on an installation of its own (the other files' one stays
 * untouched): Redis restarting during a shift of agent events, and PostgreSQL restarting under a
 * Dialer Report Trigger poll. Nothing n8n accepted is lost or run twice. harness/queue-mode/faults.ts
 * measures the same faults, and others, with n8n's defaults and the settings docs/reliability.md
 * recommends; counts are asserted here, times only printed.
 */
import { randomUUID } from 'node:crypto';

import type { Credential } from '../../harness/n8n/api';
import { simulatorCredential, sleep } from '../../harness/n8n/dialer';
import { createAgentEventFlow } from '../../harness/queue-mode/burst';
import { reportTriggerWatch } from '../../harness/queue-mode/faultWatches';
import { REDIS_RECOMMENDED } from '../../harness/queue-mode/faults';
import {
	sendShift,
	settledExecutions,
	shiftEvents,
	shiftOutcome,
	type ShiftDelivery,
} from '../../harness/queue-mode/shift';
import { startQueueMode, type QueueModeStack } from '../../harness/queue-mode/stack';
import { startSimulator } from '../../harness/simulator';
import type { DialerSimulator } from '../../harness/simulator/types';
import { registerSecret } from '../e2e/setup/connection';

jest.setTimeout(300_000);

const SECRET = `queue-faults-secret-${randomUUID()}`;
const DOWN_MS = 10_000;

let stack: QueueModeStack;
let sim: DialerSimulator;
let credential: Credential;

beforeAll(async () => {
	registerSecret(SECRET);
	stack = await startQueueMode({
		workers: 1,
		redisPersistence: 'snapshot',
		env: REDIS_RECOMMENDED,
	});
	sim = await startSimulator();
	registerSecret(sim.token);
	credential = await stack.api.createCredential(
		'dialerApi',
		'Dialer faults',
		simulatorCredential(sim, SECRET),
	);
}, 300_000);

afterAll(async () => {
	await sim?.close();
	await stack?.stop();
});

it('Redis down for 10 s during a shift: every event n8n accepted runs exactly once, and events are accepted again after it', async () => {
	const flow = await createAgentEventFlow(stack.api, credential);
	sim.webhooks.register({ url: flow.url, secret: SECRET });
	const agents = sim.data.agents.map((agent) => agent.id);
	const sending = sendShift(sim, shiftEvents(100, agents), 5);
	await sleep(6000);
	const faultAt = Date.now();
	await stack.redis.restart(DOWN_MS);
	const deliveries: ShiftDelivery[] = await sending;
	// One event a second until n8n accepts one again.
	for (let seq = 1000; seq < 1090; seq++) {
		const [event] = shiftEvents(1, agents, seq);
		const [after] = await sendShift(sim, [event], 1);
		deliveries.push(after);
		if (after.status === 200) break;
		await sleep(1000);
	}
	const accepted = deliveries.filter((d) => d.status === 200).length;
	const executions = await settledExecutions(stack.api, flow.workflow.id, accepted, {
		maxMs: 120_000,
	});
	const outcome = shiftOutcome(deliveries, executions, faultAt);
	console.log(`Redis restart: ${JSON.stringify(outcome)}`);
	expect(deliveries.at(-1)!.status).toBe(200);
	expect(outcome.neverRan).toBe(0);
	expect(outcome.doubles).toBe(0);
	expect(outcome.accepted).toBeGreaterThan(0);
	await stack.api.deactivateWorkflow(flow.workflow.id);
	sim.webhooks.clear();
});

it('PostgreSQL down for 10 s under a Report Trigger poll: every ficha is emitted exactly once', async () => {
	const watch = await reportTriggerWatch(stack, sim, credential);
	await sleep(5000);
	await watch.readUnderWay();
	await stack.postgres.restart(DOWN_MS);
	await sleep(10_000);
	const result = await watch.finish();
	sim.faults.clear();
	console.log(`Report Trigger across a PostgreSQL restart: ${JSON.stringify(result)}`);
	expect(result.fichas).toBeGreaterThan(15);
	expect(result.missing).toBe(0);
	expect(result.doubled).toBe(0);
});
