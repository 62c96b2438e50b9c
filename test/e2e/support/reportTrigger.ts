/**
 * The Dialer Report Trigger in a running n8n, polled every 3 seconds while fichas arrive: the
 * workflow, the arrivals (on time, late, written after their time, of another form, from within
 * and from before the Overlap Window before the activation, one poll answered HTTP 500) and what
 * the executions emitted.
 */
import type { Execution, N8nApi, WorkflowNode } from '../../../scripts/n8n/api';
import { REPORT_TRIGGER_TYPE } from '../../../scripts/n8n/dialer';
import type { ArrivedRow } from '../../../simulator/types';
import type { DialerRunner } from './dialerRunner';

export const REPORT_TRIGGER = 'Dialer Report Trigger';

/** n8n 2.x refuses Poll Times under a minute, but takes one cron per second of the minute. */
export function pollEvery3Seconds() {
	return {
		item: Array.from({ length: 20 }, (_, index) => ({
			mode: 'custom',
			cronExpression: `${index * 3} * * * * *`,
		})),
	};
}

export function reportTriggerNode(
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
): WorkflowNode {
	return {
		name: REPORT_TRIGGER,
		type: REPORT_TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { pollTimes: pollEvery3Seconds(), ...parameters },
		credentials: { dialerApi: credential },
	};
}

/** The items the trigger gave an execution. */
export function emittedItems(execution: Execution): Array<Record<string, unknown>> {
	const runData = (
		execution.data as {
			resultData?: {
				runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: never }>> } }>>;
			};
		}
	)?.resultData?.runData;
	return (runData?.[REPORT_TRIGGER]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}

/** Ficha numbers emitted by the successful executions, in order, repeats kept. */
export function emittedFichas(executions: Execution[]): string[] {
	return executions
		.filter((execution) => execution.status === 'success')
		.flatMap(emittedItems)
		.map((item) => String(item.ficha));
}

export interface ExactlyOnceRun {
	polls: number;
	/** Fichas that must each be emitted once, and those that must never be. */
	expected: string[];
	excluded: string[];
	failedPolls: number;
	executions: Execution[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * New Filled Form of form 41, polled at least `minPolls` times while fichas arrive, the 9th round
 * answering HTTP 500 once; ends two polls after the last arrival and deactivates the workflow.
 */
export async function runFilledFormPolls(
	dialer: DialerRunner,
	options: { minPolls: number; timezone: string; name: string },
): Promise<ExactlyOnceRun> {
	const { sim } = dialer;
	const api: N8nApi = dialer.api;
	const reads = () => sim.requests.filter((request) => request.operation === 'getFP1');
	// The trigger starts the Overlap Window (10 min) before its first poll: these are just older.
	const before = sim.rows.add({ report: 'getFP1', form: 41, count: 3, at: Date.now() - 660_000 });
	const recent = sim.rows.add({ report: 'getFP1', form: 41, count: 2, at: Date.now() - 300_000 });
	const workflow = await api.createWorkflow({
		name: options.name,
		nodes: [
			reportTriggerNode(
				{ event: 'newFilledForm', form: '41', filters: {}, options: { overlapWindow: 10 } },
				{ id: dialer.credential.id, name: dialer.credential.name },
			),
		],
		connections: {},
		settings: {
			timezone: options.timezone,
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	});
	sim.clearRequests();
	await api.activateWorkflow(workflow.id);
	try {
		// The first poll sets the trigger's start: rows come after it.
		for (const deadline = Date.now() + 15_000; reads().length === 0; await sleep(200)) {
			if (Date.now() > deadline) throw new Error('n8n did not poll within 15 s of activation');
		}
		const activatedAt = Date.now();
		const expected: ArrivedRow[] = [...recent];
		const otherForm: ArrivedRow[] = [];
		let failedPolls = 0;
		for (let round = 0; reads().length < options.minPolls + 1; round++) {
			// Late rows carry a time up to a minute back, never before the activation.
			const late = Math.max(activatedAt + 1000, Date.now() - 60_000 + (round % 5) * 7000);
			if (round % 2 === 0) expected.push(...sim.rows.add({ report: 'getFP1', form: 41, count: 2 }));
			if (round % 3 === 1) expected.push(...sim.rows.add({ report: 'getFP1', form: 41, at: late }));
			// Written 4 seconds after the time it carries: read by a later poll.
			if (round % 4 === 2)
				expected.push(...sim.rows.add({ report: 'getFP1', form: 41, visibleAfterMs: 4000 }));
			if (round % 5 === 3) otherForm.push(...sim.rows.add({ report: 'getFP1', form: 42 }));
			if (round === 8) {
				sim.faults.add({ kind: 'status', status: 500, operation: 'getFP1', times: 1 });
				failedPolls++;
			}
			await sleep(1500);
			if (Date.now() - activatedAt > 240_000) throw new Error('n8n polled too slowly');
		}
		// Two more polls read what was written last.
		const last = reads().length;
		while (reads().length < last + 2) await sleep(500);
		await api.deactivateWorkflow(workflow.id);
		// Executions of the last polls may still be finishing.
		await sleep(3000);
		return {
			polls: reads().length,
			expected: expected.map((row) => String(row.id)),
			excluded: [...before, ...otherForm].map((row) => String(row.id)),
			failedPolls,
			executions: (await api.listExecutions(workflow.id, true)).filter(
				(execution) => execution.stoppedAt,
			),
		};
	} finally {
		await api.deactivateWorkflow(workflow.id).catch(() => undefined);
	}
}
