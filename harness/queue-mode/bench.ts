/**
 * Throughput of the Dialer Trigger in n8n queue mode with 1, then 2 workers, in one run:
 * the same burst (default 2,000 agent events at 20 in flight) through the webhook processor,
 * first with one worker, then again after a second worker joined. Prints one line per run and
 * a JSON summary. Timings are wall-clock on whatever else the machine is doing.
 *
 *   npx tsx harness/queue-mode/bench.ts [--events 2000] [--concurrency 20] [--skip-build]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

import { startSimulator } from '../simulator';
import { simulatorCredential } from '../n8n/dialer';
import {
	burstEvents,
	countBy,
	createAgentEventFlow,
	deliverBurst,
	deliveryOutcome,
	formatThroughput,
	SELECTED_EVENTS,
	startedByWorker,
	throughput,
	waitForEnded,
} from './burst';
import { startQueueMode, type QueueModeStack } from './stack';

async function measure(
	stack: QueueModeStack,
	events: number,
	concurrency: number,
	firstSeq: number,
) {
	const sim = await startSimulator();
	try {
		const secret = `bench-${randomUUID()}`;
		const credential = await stack.api.createCredential(
			'dialerApi',
			`bench ${firstSeq}`,
			simulatorCredential(sim, secret),
		);
		const flow = await createAgentEventFlow(stack.api, credential);
		sim.webhooks.register({ url: flow.url, secret });
		const burstOf = burstEvents(
			events,
			sim.data.agents.map((a) => a.id),
			firstSeq,
		);
		const burst = await deliverBurst(sim, burstOf, { concurrency });
		// A delivery the sender gave up on may or may not have started an execution.
		const expected = burst.deliveries.filter(
			(d) => d.status === 200 && SELECTED_EVENTS.includes(d.event.evento),
		).length;
		const executions = await waitForEnded(stack.api, flow.workflow.id, expected, 600_000);
		const byWorker = startedByWorker(
			stack.workers.map((w) => ({ name: w.name, logFile: w.process.logFile })),
		);
		const split = countBy(executions, (e) => (byWorker.get(e.id) ?? ['unknown']).join('+'));
		const deliveries = countBy(burst.deliveries, deliveryOutcome);
		await stack.api.deactivateWorkflow(flow.workflow.id);
		return {
			workers: stack.workers.length,
			deliveries,
			accepted: expected,
			split,
			...throughput(burst, events, executions),
		};
	} finally {
		await sim.close();
	}
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			events: { type: 'string', default: '2000' },
			concurrency: { type: 'string', default: '20' },
			'skip-build': { type: 'boolean', default: false },
		},
	});
	const events = Number(values.events);
	const concurrency = Number(values.concurrency);
	const started = Date.now();
	const stack = await startQueueMode({ workers: 1, build: !values['skip-build'] });
	try {
		const setupSeconds = (Date.now() - started) / 1000;
		console.log(
			`queue mode ready in ${setupSeconds.toFixed(1)} s ${JSON.stringify(stack.timings)}`,
		);
		const one = await measure(stack, events, concurrency, 0);
		console.log(
			formatThroughput('1 worker', one),
			JSON.stringify({ deliveries: one.deliveries, split: one.split }),
		);
		await stack.startWorker();
		const two = await measure(stack, events, concurrency, events);
		console.log(
			formatThroughput('2 workers', two),
			JSON.stringify({ deliveries: two.deliveries, split: two.split }),
		);
		console.log(JSON.stringify({ setupSeconds, concurrency, runs: [one, two] }, null, '\t'));
	} finally {
		await stack.stop();
	}
}

main().catch((error: Error) => {
	console.error(error.stack ?? error.message);
	process.exitCode = 1;
});
