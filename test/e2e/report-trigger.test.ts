/**
 * The Dialer Report Trigger inside a real n8n, polling the simulator every 3 seconds while fichas
 * are filled, some written late, and one poll is answered HTTP 500: every ficha is emitted by
 * exactly one execution, none from before the activation, none of another form.
 */
import type { Execution, Workflow } from '../../scripts/n8n/api';
import type { ArrivedRow } from '../../simulator/types';
import { DialerRunner } from './support/dialerRunner';

// The simulator writes wall-clock times in this process's zone: the workflow reads them in it.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const TRIGGER = 'Dialer Report Trigger';
/** n8n 2.x refuses Poll Times under a minute, but takes one cron per second of the minute. */
const POLL_SECONDS = Array.from({ length: 20 }, (_, index) => index * 3);
const MIN_POLLS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dialer: DialerRunner;
let workflow: Workflow | undefined;

beforeAll(async () => {
	dialer = await DialerRunner.start({ timezone: ZONE });
});

afterAll(async () => {
	if (workflow) await dialer.api.deactivateWorkflow(workflow.id).catch(() => undefined);
	await dialer?.close();
});

function emittedItems(execution: Execution): Array<Record<string, unknown>> {
	const runData = (
		execution.data as {
			resultData?: {
				runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: never }>> } }>>;
			};
		}
	)?.resultData?.runData;
	return (runData?.[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}

it('emits every ficha exactly once over 20+ polls with late rows and a poll answered HTTP 500', async () => {
	const { sim, api } = dialer;
	const getFP1Reads = () => sim.requests.filter((request) => request.operation === 'getFP1');

	const beforeActivation = sim.rows.add({
		report: 'getFP1',
		form: 41,
		count: 3,
		at: Date.now() - 60_000,
	});
	workflow = await api.createWorkflow({
		name: 'e2e report trigger exactly once',
		nodes: [
			{
				name: TRIGGER,
				type: 'n8n-nodes-dialer.dialerReportTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: {
						item: POLL_SECONDS.map((second) => ({
							mode: 'custom',
							cronExpression: `${second} * * * * *`,
						})),
					},
					event: 'newFilledForm',
					form: '41',
					filters: {},
					options: { overlapWindow: 10 },
				},
				credentials: { dialerApi: { id: dialer.credential.id, name: dialer.credential.name } },
			},
		],
		connections: {},
		settings: {
			timezone: ZONE,
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	});
	sim.clearRequests();
	await api.activateWorkflow(workflow.id);
	// The first poll sets the trigger's start: rows come after it.
	for (const deadline = Date.now() + 15_000; getFP1Reads().length === 0; await sleep(200)) {
		if (Date.now() > deadline) throw new Error('n8n did not poll within 15 s of the activation');
	}
	const activatedAt = Date.now();

	const expected: ArrivedRow[] = [];
	const otherForm: ArrivedRow[] = [];
	let failedPolls = 0;
	for (let round = 0; getFP1Reads().length < MIN_POLLS + 1; round++) {
		const now = Date.now();
		// Late rows carry a time up to a minute back, never before the activation.
		const late = Math.max(activatedAt + 1000, now - 60_000 + (round % 5) * 7000);
		if (round % 2 === 0) expected.push(...sim.rows.add({ report: 'getFP1', form: 41, count: 2 }));
		if (round % 3 === 1) expected.push(...sim.rows.add({ report: 'getFP1', form: 41, at: late }));
		if (round % 4 === 2) {
			// Written 4 seconds after the time it carries: read by a later poll.
			expected.push(...sim.rows.add({ report: 'getFP1', form: 41, visibleAfterMs: 4000 }));
		}
		if (round % 5 === 3) otherForm.push(...sim.rows.add({ report: 'getFP1', form: 42 }));
		if (round === 8) {
			sim.faults.add({ kind: 'status', status: 500, operation: 'getFP1', times: 1 });
			failedPolls++;
		}
		await sleep(1500);
		if (Date.now() - activatedAt > 150_000) throw new Error('n8n polled too slowly');
	}
	// Two more polls read what was written last.
	const reads = getFP1Reads().length;
	while (getFP1Reads().length < reads + 2) await sleep(500);
	await api.deactivateWorkflow(workflow.id);

	// Executions of the last polls may still be finishing.
	await sleep(3000);
	const all = (await api.listExecutions(workflow.id, true)).filter(
		(execution) => execution.stoppedAt,
	);
	const failed = all.filter((execution) => execution.status === 'error');
	const emitted = all
		.filter((execution) => execution.status === 'success')
		.flatMap(emittedItems)
		.map((item) => String(item.ficha));

	console.log(
		`report trigger e2e: ${getFP1Reads().length} polls, ${expected.length} fichas, ` +
			`${all.length} executions, ${failed.length} failed`,
	);
	expect(getFP1Reads().filter((read) => read.status === 500)).toHaveLength(failedPolls);
	expect(failed).toHaveLength(failedPolls);
	expect(emitted.length).toBe(new Set(emitted).size);
	expect(new Set(emitted)).toEqual(new Set(expected.map((row) => String(row.id))));
	for (const row of [...beforeActivation, ...otherForm])
		expect(emitted).not.toContain(String(row.id));
}, 240_000);
