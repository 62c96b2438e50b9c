/**
 * The Dialer Report Trigger in a running n8n, polled every 2 seconds while fichas arrive: the
 * workflow, the arrivals (on time, late, written after their time, of another form, from within
 * and from before the Overlap Window before the activation, one poll answered HTTP 500) and what
 * the executions emitted.
 */
import type { Execution, N8nApi, WorkflowNode } from '../../../harness/n8n/api';
import { pollEverySeconds, REPORT_TRIGGER_TYPE } from '../../../harness/n8n/dialer';
import type { ArrivedRow, RecordedRequest } from '../../../harness/simulator/types';
import type { DialerRunner } from './dialerRunner';

export const REPORT_TRIGGER = 'Dialer Report Trigger';

export function reportTriggerNode(
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
): WorkflowNode {
	return {
		name: REPORT_TRIGGER,
		type: REPORT_TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { pollTimes: pollEverySeconds(2), ...parameters },
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

export interface PollingRun {
	workflowId: string;
	/** When the first poll read the report. */
	activatedAt: number;
	/** The trigger's reads of the report, in order. */
	reads: RecordedRequest[];
	/** The finished executions of the active workflow (not the editor's manual runs). */
	executions: Execution[];
}

export interface PollingOptions {
	name: string;
	timezone: string;
	/** The trigger's parameters: event, its report's parameters, options. */
	trigger: Record<string, unknown>;
	/** The report the event reads (getFP1, getRQ4, getRE2, getHC2). */
	report: string;
	minPolls: number;
	/**
	 * Called about every 1.5 s once the first poll has read: adds rows, faults, manual runs. Rows
	 * it returns are waited for: the run ends two polls after the last of them shows.
	 */
	round: (
		round: number,
		run: { activatedAt: number; workflowId: string },
	) => void | ArrivedRow[] | Promise<void | ArrivedRow[]>;
}

/**
 * Activates a workflow with the Report Trigger polling every 2 seconds, plays rounds until it
 * has read at least `minPolls` times after the first poll, waits two more polls after the rounds'
 * rows all show (they read what was written last), deactivates it and returns its executions.
 */
export async function pollWhileRowsArrive(
	dialer: DialerRunner,
	options: PollingOptions,
): Promise<PollingRun> {
	const { sim } = dialer;
	const api: N8nApi = dialer.api;
	const reads = () => sim.requests.filter((request) => request.operation === options.report);
	const workflow = await api.createWorkflow({
		name: options.name,
		nodes: [
			reportTriggerNode(options.trigger, {
				id: dialer.credential.id,
				name: dialer.credential.name,
			}),
		],
		connections: {},
		settings: {
			timezone: options.timezone,
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
			saveManualExecutions: true,
		},
	});
	sim.clearRequests();
	await api.activateWorkflow(workflow.id);
	try {
		for (const deadline = Date.now() + 15_000; reads().length === 0; await sleep(200)) {
			if (Date.now() > deadline) throw new Error('n8n did not poll within 15 s of activation');
		}
		const activatedAt = Date.now();
		let lastShows = 0;
		for (let round = 0; reads().length < options.minPolls + 1; round++) {
			const added = await options.round(round, { activatedAt, workflowId: workflow.id });
			for (const row of added ?? []) lastShows = Math.max(lastShows, row.visibleFrom);
			await sleep(1500);
			if (Date.now() - activatedAt > 240_000) throw new Error('n8n polled too slowly');
		}
		const after = Math.max(Date.now(), lastShows);
		while (reads().filter((read) => read.receivedAt > after).length < 2) await sleep(500);
		await api.deactivateWorkflow(workflow.id);
		// Executions of the last polls may still be finishing.
		await sleep(3000);
		return {
			workflowId: workflow.id,
			activatedAt,
			reads: reads(),
			executions: (await api.listExecutions(workflow.id, true)).filter(
				(execution) => execution.stoppedAt && execution.mode !== 'manual',
			),
		};
	} finally {
		await api.deactivateWorkflow(workflow.id).catch(() => undefined);
	}
}

/** The editor's Fetch Test Event: a manual run from the Report Trigger, once it has ended. */
export function fetchTestEvent(api: N8nApi, workflowId: string): Promise<Execution> {
	return api.runManually(workflowId, REPORT_TRIGGER, 15_000);
}

/**
 * New Filled Form of form 41, polled at least `minPolls` times while fichas arrive, the 9th round
 * answering HTTP 500 once; ends two polls after the last arrival and deactivates the workflow.
 */
export async function runFilledFormPolls(
	dialer: DialerRunner,
	options: { minPolls: number; timezone: string; name: string },
): Promise<ExactlyOnceRun> {
	const { sim } = dialer;
	// The trigger starts the Overlap Window (10 min) before its first poll: these are just older.
	const before = sim.rows.add({ report: 'getFP1', form: 41, count: 3, at: Date.now() - 660_000 });
	const recent = sim.rows.add({ report: 'getFP1', form: 41, count: 2, at: Date.now() - 300_000 });
	const expected: ArrivedRow[] = [...recent];
	const otherForm: ArrivedRow[] = [];
	let failedPolls = 0;
	const run = await pollWhileRowsArrive(dialer, {
		...options,
		report: 'getFP1',
		trigger: { event: 'newFilledForm', form: '41', filters: {}, options: { overlapWindow: 10 } },
		round(round, { activatedAt }) {
			// Late rows carry a time up to a minute back, never before the activation.
			const late = Math.max(activatedAt + 1000, Date.now() - 60_000 + (round % 5) * 7000);
			const added = [
				...(round % 2 === 0 ? sim.rows.add({ report: 'getFP1', form: 41, count: 2 }) : []),
				...(round % 3 === 1 ? sim.rows.add({ report: 'getFP1', form: 41, at: late }) : []),
				// Written 4 seconds after the time it carries: read by a later poll.
				...(round % 4 === 2
					? sim.rows.add({ report: 'getFP1', form: 41, visibleAfterMs: 4000 })
					: []),
			];
			expected.push(...added);
			if (round % 5 === 3) otherForm.push(...sim.rows.add({ report: 'getFP1', form: 42 }));
			if (round === 8) {
				sim.faults.add({ kind: 'status', status: 500, operation: 'getFP1', times: 1 });
				failedPolls++;
			}
			return added;
		},
	});
	return {
		polls: run.reads.length,
		expected: expected.map((row) => String(row.id)),
		excluded: [...before, ...otherForm].map((row) => String(row.id)),
		failedPolls,
		executions: run.executions,
	};
}
