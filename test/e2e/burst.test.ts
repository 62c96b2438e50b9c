/**
 * A shift-start burst into a Dialer Trigger in real n8n: the dialer sends each event once and
 * gives up after 5 seconds (contract, Events → Delivery), so a delivery answered late is an
 * event lost for good. A correctness check, not a timing: the latencies are printed only.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { percentile } from '../../harness/bench/lib/stats';
import { registerSecret } from './setup/connection';
import {
	ALL_EVENTS,
	event,
	inParallel,
	triggerItems,
	TriggerWorkflows,
} from './support/triggerWorkflows';

const SECRET = `e2e-burst-secret-${randomUUID()}`;
const DELIVERIES = 300;
// A check of correctness (every delivery answered, each selected event run once), not of capacity:
// `npm test` runs this beside two other lanes, one of them a browser, where n8n answered 6.8
// deliveries a second and 20 in flight already reached the 5 s limit. The levels where deliveries
// start to be lost on a quiet machine are measured by `npm run bench -- --only burst`.
const IN_FLIGHT = 10;
/** Two kinds of the seven, as a workflow that reacts to logins and pauses at shift start. */
const SELECTED = ['agente.login', 'agente.pause_in'];

jest.setTimeout(180_000);

describe(`a burst of ${DELIVERIES} agent events with ${IN_FLIGHT} in flight`, () => {
	let workflows: TriggerWorkflows;

	beforeAll(async () => {
		registerSecret(SECRET);
		workflows = await TriggerWorkflows.start();
	});

	afterAll(async () => {
		await workflows?.close();
	});

	it('answers every delivery 200 within the dialer timeout and runs each selected event exactly once', async () => {
		const hook = await workflows.createTriggerWorkflow(await workflows.createCredential(SECRET), {
			events: SELECTED,
		});
		workflows.simulator.webhooks.register({ url: hook.url, secret: SECRET });

		const events = Array.from({ length: DELIVERIES }, (_, seq) =>
			event(ALL_EVENTS[seq % ALL_EVENTS.length], 1000 + (seq % 150), { seq }),
		);
		const expectedSeqs = events
			.filter((e) => SELECTED.includes(e.evento))
			.map((e) => e.seq as number);

		const started = performance.now();
		const deliveries = (
			await inParallel(events, IN_FLIGHT, (delivery) => workflows.simulator.webhooks.emit(delivery))
		).flat();
		const seconds = (performance.now() - started) / 1000;
		workflows.simulator.webhooks.clear();

		const ms = deliveries.map((d) => d.ms);
		const fairShareMs = (IN_FLIGHT / (DELIVERIES / seconds)) * 1000;
		console.log(
			`burst: ${DELIVERIES} deliveries, ${IN_FLIGHT} in flight, ${(DELIVERIES / seconds).toFixed(1)}/s; ` +
				`ack p50 ${percentile(ms, 50).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms ` +
				`(${(Math.max(...ms) / fairShareMs).toFixed(2)}× in flight ÷ throughput); ` +
				`${expectedSeqs.length} executions expected`,
		);

		// A timeout shows as error 'timeout' (the simulator aborts at the contract's 5 s): lost.
		expect(deliveries).toHaveLength(DELIVERIES);
		const unanswered = deliveries.filter((d) => d.status !== 200);
		expect(unanswered.map((d) => `${d.event.seq as number}: ${d.status ?? d.error}`)).toEqual([]);

		const done = await hook.expectExecutions(expectedSeqs.length);
		const seqs = done
			.flatMap(triggerItems)
			.map((item) => item.seq as number)
			.sort((a, b) => a - b);
		expect(seqs).toEqual(expectedSeqs);
	});
});
