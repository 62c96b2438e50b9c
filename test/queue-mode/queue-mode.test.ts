/**
 * The nodes in n8n queue mode: Redis, PostgreSQL, one main, one webhook processor and two
 * workers, all loading the packed package (started by ./setup/global-setup.ts). The simulator
 * sends agent-event bursts to the Dialer Trigger through the webhook processor; the Dialer node
 * runs report and action workflows on the workers; in the whole matrix (`npm run test:all`) the
 * burst is 2,000 events, not 500, and one worker is killed in the middle of another.
 * Counts and correctness are asserted; times are printed, never asserted (the machine is shared).
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';

import type { Credential, Execution } from '../../harness/n8n/api';
import {
	burstEvents,
	countBy,
	createAgentEventFlow,
	deliverBurst,
	deliveryOutcome,
	formatThroughput,
	isMalformed,
	lookupItems,
	SELECTED_EVENTS,
	startedByWorker,
	throughput,
	triggerSeq,
	unfinishedOn,
	waitForEnded,
	type AgentEventFlow,
} from '../../harness/queue-mode/burst';
import type { AgentEvent, Delivery } from '../../harness/simulator/types';
import { registerSecret } from '../e2e/setup/connection';
import { DialerRunner } from '../e2e/support/dialerRunner';
import { ALL } from '../setup/lanes';
import { readQueueConnection } from './setup/connection';

// Bursts of thousands of deliveries on a shared 2-core machine.
jest.setTimeout(900_000);

const SECRET = `queue-trigger-secret-${randomUUID()}`;
const CONCURRENCY = 10;
const BURST = ALL ? 2000 : 500;
/** Runs only in the whole matrix: queue mode's own robustness, not the nodes' behaviour there. */
const matrixOnly = ALL ? describe : describe.skip;

/** n8n's answer to a run can be lost in queue mode (DialerRunner's unansweredAfterMs). */
const QUEUE_RUN = { unansweredAfterMs: 60_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(
	url: string,
	body: unknown,
	secret: string,
): Promise<{ status: number; body: unknown }> {
	const res = await request(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-webhook-secret': secret },
		body: JSON.stringify(body),
	});
	return { status: res.statusCode, body: await res.body.json() };
}

describe('the nodes in n8n queue mode (main, webhook processor, 2 workers, Redis, PostgreSQL)', () => {
	const { workers } = readQueueConnection();
	let runner: DialerRunner;
	let credential: Credential;

	beforeAll(async () => {
		registerSecret(SECRET);
		runner = await DialerRunner.start();
		credential = await runner.createCredential({ webhookSecret: SECRET });
	});

	afterAll(() => runner?.close());

	it('runs Dialer report and action workflows on the workers', async () => {
		const before = startedByWorker(workers).size;
		const call = runner.sim.data.calls[0];
		const history = await runner.run(
			{
				resource: 'report',
				operation: 'getCallHistory',
				entityType: runner.sim.data.extensions.find((e) => e.numero === call.ramal)!.tipo,
				extensionOrAgent: call.ramal,
				period: 'last30Days',
				returnAll: true,
				filters: {},
			},
			QUEUE_RUN,
		);
		const fields = history.requests.find((r) => r.operation === 'getHC2')!.fields;
		const oracle = (await runner.direct('getHC2', fields)) as {
			ramal_agente: string;
			de: string;
			ate: string;
			chamadas: object[];
		};
		expect(history.status).toBe(200);
		expect(history.items).toEqual(
			oracle.chamadas.map((c) => ({
				...c,
				ramal_agente: oracle.ramal_agente,
				de: oracle.de,
				ate: oracle.ate,
			})),
		);
		expect(history.items.length).toBeGreaterThan(0);

		const agent = runner.sim.data.agents.find((a) => a.estado !== 'offline')!;
		const logout = await runner.run(
			{
				resource: 'agent',
				operation: 'logout',
				agent: agent.login,
				additionalFields: {},
			},
			QUEUE_RUN,
		);
		expect(logout.items).toEqual([
			expect.objectContaining({ success: true, agent: agent.login, estado: 'offline' }),
		]);
		expect(runner.sim.data.agents.find((a) => a.id === agent.id)!.estado).toBe('offline');

		// Both runs started on a worker: the main and the webhook processor execute nothing.
		expect(startedByWorker(workers).size).toBe(before + 2);
	});

	describe(`a burst of ${BURST.toLocaleString('en')} agent events through the webhook processor`, () => {
		let flow: AgentEventFlow;
		let events: AgentEvent[];
		let byReceiver: Map<string, Delivery[]>;
		let goodReceiver: string;
		let executions: Execution[];

		beforeAll(async () => {
			flow = await createAgentEventFlow(runner.api, credential);
			runner.sim.webhooks.clear();
			runner.sim.clearRequests();
			goodReceiver = runner.sim.webhooks.register({ url: flow.url, secret: SECRET });
			// The same URL with a wrong secret for logins: every one must be refused.
			runner.sim.webhooks.register({
				url: flow.url,
				secret: `${SECRET}-wrong`,
				events: ['agente.login'],
			});
			events = burstEvents(
				BURST,
				runner.sim.data.agents.map((a) => a.id),
			);
			const burst = await deliverBurst(runner.sim, events, { concurrency: CONCURRENCY });
			runner.sim.webhooks.clear();
			byReceiver = new Map();
			for (const d of burst.deliveries)
				byReceiver.set(d.receiverId, [...(byReceiver.get(d.receiverId) ?? []), d]);
			const acked = byReceiver
				.get(goodReceiver)!
				.filter((d) => d.status === 200 && SELECTED_EVENTS.includes(d.event.evento));
			await waitForEnded(runner.api, flow.workflow.id, acked.length, 600_000);
			await sleep(2000); // anything extra would show up now
			executions = await runner.api.listExecutions(flow.workflow.id, true);
			console.log(
				formatThroughput(
					`2 workers, ${BURST} events`,
					throughput(burst, events.length, executions),
				),
			);
		});

		afterAll(() => runner.api.deactivateWorkflow(flow.workflow.id));

		it('answers each delivery as the single-mode trigger does: 200, 200 ignored, 400 malformed, 401 wrong secret', () => {
			const good = byReceiver.get(goodReceiver)!;
			const wrong = [...byReceiver].filter(([id]) => id !== goodReceiver).flatMap(([, d]) => d);
			expect(good).toHaveLength(BURST);
			expect(wrong).toHaveLength(events.filter((e) => e.evento === 'agente.login').length);
			// A delivery the sender gave up on (5 s) is reported, not failed: the machine is shared.
			const answered = good.filter((d) => d.status !== undefined);
			expect(answered.filter((d) => d.status !== (isMalformed(d.event) ? 400 : 200))).toEqual([]);
			expect(wrong.filter((d) => d.status !== undefined && d.status !== 401)).toEqual([]);
			console.log(
				`deliveries: right secret ${JSON.stringify(countBy(good, deliveryOutcome))}, wrong secret ${JSON.stringify(countBy(wrong, deliveryOutcome))}`,
			);
		});

		it('runs exactly one execution per accepted event, none lost, none for refused or ignored ones', () => {
			const accepted = new Set(
				byReceiver
					.get(goodReceiver)!
					.filter((d) => d.status === 200 && SELECTED_EVENTS.includes(d.event.evento))
					.map((d) => d.event.seq as number),
			);
			// An event whose delivery timed out may have been accepted by n8n all the same.
			const unanswered = new Set(
				byReceiver
					.get(goodReceiver)!
					.filter((d) => d.status === undefined)
					.map((d) => d.event.seq as number),
			);
			const seqs = executions.map(triggerSeq);
			expect(new Set(seqs).size).toBe(seqs.length);
			expect(seqs.filter((seq) => !accepted.has(seq) && !unanswered.has(seq))).toEqual([]);
			expect([...accepted].filter((seq) => !seqs.includes(seq))).toEqual([]);
			expect(countBy(executions, (e) => e.status)).toEqual({ success: executions.length });
		});

		it("runs the Dialer node on the worker for each event: the agent's teams, one API call each", () => {
			const agents = new Map(runner.sim.data.agents.map((a) => [a.id, a]));
			const bySeq = new Map(events.map((e) => [e.seq as number, e]));
			for (const execution of executions) {
				const agent = agents.get(bySeq.get(triggerSeq(execution))!.usuario_id)!;
				expect(
					lookupItems(execution)
						.map((team) => Number(team.id))
						.sort(),
				).toEqual([...agent.teamIds].sort());
			}
			expect(runner.sim.requests.filter((r) => r.operation === 'getTime')).toHaveLength(
				executions.length,
			);
		});

		it('spreads the executions over both workers, each run by exactly one', () => {
			const byWorker = startedByWorker(workers);
			const ranOn = executions.map((e) => byWorker.get(e.id) ?? []);
			expect(ranOn.filter((names) => names.length !== 1)).toEqual([]);
			const split = countBy(ranOn, (names) => names[0]);
			console.log(`per worker: ${JSON.stringify(split)}`);
			expect(Object.keys(split).sort()).toEqual(['worker-1', 'worker-2']);
		});

		it('answers ignored and refused deliveries with the same bodies as in single mode', async () => {
			const event = { evento: 'agente.ringing', estado: 'ringing', t: 1763800000, usuario_id: 101 };
			expect(await post(flow.url, event, SECRET)).toEqual({
				status: 200,
				body: { received: true, ignored: 'event not selected' },
			});
			expect(await post(flow.url, { ...event, evento: 'agente.transfer' }, SECRET)).toEqual({
				status: 200,
				body: { received: true, ignored: 'unknown event' },
			});
			expect(await post(flow.url, event, 'wrong')).toEqual({
				status: 401,
				body: { error: 'Missing or wrong X-Webhook-Secret header' },
			});
			const malformed = await post(
				flow.url,
				{ ...event, evento: 'agente.login', usuario_id: 'agent 101' },
				SECRET,
			);
			expect(malformed.status).toBe(400);
			expect((malformed.body as { error: string }).error).toContain('"usuario_id"');
		});
	});

	matrixOnly('a worker killed in the middle of a burst', () => {
		it('loses only what the dead worker was running: queued events run on the survivor, its executions fail', async () => {
			const flow = await createAgentEventFlow(runner.api, credential);
			runner.sim.webhooks.clear();
			const receiver = runner.sim.webhooks.register({ url: flow.url, secret: SECRET });
			// A slow dialer API (2 s per lookup) keeps executions in flight on the worker when it dies.
			runner.sim.faults.add({ kind: 'latency', operation: 'getTime', latencyMs: 2000 });
			const [survivor, victim] = workers;
			const events = burstEvents(
				600,
				runner.sim.data.agents.map((a) => a.id),
				10000,
			);
			let killedAt = 0;
			const burst = await deliverBurst(runner.sim, events, {
				concurrency: CONCURRENCY,
				onProgress: (delivered) => {
					if (delivered !== 250) return;
					killedAt = Date.now();
					process.kill(-victim.pid, 'SIGKILL');
				},
			});
			runner.sim.webhooks.clear();
			runner.sim.faults.clear();
			const accepted = burst.deliveries
				.filter(
					(d) =>
						d.receiverId === receiver &&
						d.status === 200 &&
						SELECTED_EVENTS.includes(d.event.evento),
				)
				.map((d) => d.event.seq as number);

			// The survivor runs everything queued; what the dead worker held ends once n8n finds its
			// jobs stalled (lock expired, see STALL_DETECTION) and fails them.
			const executions = await waitForEnded(runner.api, flow.workflow.id, accepted.length, 600_000);
			const failed = executions.filter((e) => e.status !== 'success');
			const heldByVictim = new Set(unfinishedOn(victim.logFile));
			const byWorker = startedByWorker(workers);
			const [example] = failed.length ? [await runner.api.getExecution(failed[0].id)] : [];
			const error = (example?.data as { resultData?: { error?: { message?: string } } } | undefined)
				?.resultData?.error;
			console.log(
				`kill burst: deliveries ${JSON.stringify(countBy(burst.deliveries, deliveryOutcome))}, worker-2 killed at event 250; ` +
					`${executions.length} executions for ${accepted.length} accepted events: ${JSON.stringify(countBy(executions, (e) => e.status))}, ` +
					`per worker ${JSON.stringify(countBy(executions, (e) => (byWorker.get(e.id) ?? ['none']).join('+')))}; ` +
					`worker-2 had started ${heldByVictim.size} it never finished; failed ones ended ` +
					`${failed.map((e) => ((Date.parse(e.stoppedAt!) - killedAt) / 1000).toFixed(0)).join(', ')} s after the kill with "${error?.message}"`,
			);
			expect(executions.length).toBeGreaterThanOrEqual(accepted.length);
			// Only what the dead worker had taken fails: at most its concurrency (10), never re-run by n8n.
			expect(failed.length).toBeLessThanOrEqual(10);
			expect(
				failed.filter(
					(e) => e.status !== 'error' || (byWorker.has(e.id) && !heldByVictim.has(e.id)),
				),
			).toEqual([]);
			// Jobs started after the kill were all picked up by the survivor.
			const afterKill = executions.filter(
				(e) => e.startedAt && Date.parse(e.startedAt) > killedAt + 1000,
			);
			expect(afterKill.filter((e) => byWorker.get(e.id)?.[0] !== survivor.name)).toEqual([]);

			// n8n replaces a failed execution's data with the error (the trigger's item is gone, a
			// retry fails the same way): exactly those events are lost, every other one ran once.
			const withData = await runner.api.listExecutions(flow.workflow.id, true);
			const succeeded = withData.filter((e) => e.status === 'success').map(triggerSeq);
			expect(new Set(succeeded).size).toBe(succeeded.length);
			const lost = accepted.filter((seq) => !succeeded.includes(seq));
			expect(lost).toHaveLength(failed.length);
			const runData = (e: Execution) =>
				(e.data as { resultData: { runData: object } }).resultData.runData;
			expect(withData.filter((e) => e.status === 'error').map(runData)).toEqual(
				failed.map(() => ({})),
			);
			console.log(
				`lost with the killed worker: ${lost.length} of ${accepted.length} accepted events (seq ${lost.join(', ')})`,
			);
			await runner.api.deactivateWorkflow(flow.workflow.id);
		});
	});
});
