/**
 * What the fault harness (./faults.ts) watches besides the shift: the Dialer Report Trigger
 * polling across a PostgreSQL restart, and live-alert waits across a killed worker.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { DialerSimulator } from '../../simulator/types';
import type { Credential } from '../n8n/api';
import {
	createTriggerFlow,
	DIALER_TYPE,
	pollEvery3Seconds,
	REPORT_TRIGGER_TYPE,
	sleep,
	usesCredential,
} from '../n8n/dialer';
import { countBy, SELECTED_EVENTS } from './burst';
import { settledExecutions, shiftEvents } from './shift';
import type { QueueModeStack } from './stack';

const REPORT_TRIGGER = 'Dialer Report Trigger';

/**
 * The Report Trigger's part of the PostgreSQL fault: New Filled Form polled every 3 s from a
 * report that answers in 1.5 s, a ficha arriving each second; `finish` says which came once.
 */
export async function reportTriggerWatch(
	stack: QueueModeStack,
	sim: DialerSimulator,
	credential: Credential,
) {
	const workflow = await stack.api.createWorkflow({
		name: `faults report trigger ${randomUUID().slice(0, 8)}`,
		nodes: [
			{
				name: REPORT_TRIGGER,
				type: REPORT_TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: pollEvery3Seconds(),
					event: 'newFilledForm',
					form: '41',
					filters: {},
					options: { overlapWindow: 10 },
				},
				credentials: { dialerApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: {},
		settings: {
			// The simulator's clock is this process's.
			timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	});
	sim.faults.add({ kind: 'latency', operation: 'getFP1', latencyMs: 1500 });
	await stack.api.activateWorkflow(workflow.id);
	const added: string[] = [];
	let adding = true;
	const arrivals = (async () => {
		while (adding) {
			added.push(...sim.rows.add({ report: 'getFP1', form: 41 }).map((row) => String(row.id)));
			await sleep(1000);
		}
	})();
	return {
		/** Resolves 300 ms after the next read starts: PostgreSQL then stops under that poll. */
		readUnderWay: async () => {
			const reads = () => sim.requests.filter((r) => r.operation === 'getFP1').length;
			const before = reads();
			while (reads() === before) await sleep(20);
			await sleep(300);
		},
		finish: async () => {
			adding = false;
			await arrivals;
			// Two more polls read what arrived last.
			await sleep(9000);
			await stack.api.deactivateWorkflow(workflow.id);
			await sleep(3000);
			const executions = await stack.api.listExecutions(workflow.id, true);
			const emitted = executions.flatMap((execution) => {
				const data = execution.data as {
					resultData?: { runData?: Record<string, Array<{ data?: { main?: unknown[][] } }>> };
				};
				const items = data?.resultData?.runData?.[REPORT_TRIGGER]?.[0]?.data?.main?.[0] ?? [];
				return (items as Array<{ json: { ficha: unknown } }>).map((item) =>
					String(item.json.ficha),
				);
			});
			const times = countBy(emitted, String);
			const log = readFileSync(stack.main.process.logFile, 'utf8');
			return {
				fichas: added.length,
				missing: added.filter((ficha) => !times[ficha]).length,
				doubled: Object.values(times).filter((n) => n > 1).length,
				executions: countBy(executions, (e) => e.status),
				pollsEmittedAgain: log.match(/could not start the execution of/g)?.length ?? 0,
			};
		},
	};
}

/** Alerts after a wait n8n keeps in the worker's memory (under 65 s), and after one it parks. */
const WAITS_SECONDS = [20, 70];
const WAITING_EVENTS = 10;

/**
 * Live-alert waits: each of WAITING_EVENTS events waits 20 s (in the worker's memory) in one
 * workflow and 70 s (parked in the database) in another before its alert step (a Dialer call).
 * Sent now, before the worker fault; `finish` says how many alerts ran and how late.
 */
export async function waitingAlerts(
	stack: QueueModeStack,
	sim: DialerSimulator,
	credential: Credential,
	secret: string,
) {
	const flows = await Promise.all(
		WAITS_SECONDS.map((seconds) =>
			createTriggerFlow(stack.api, {
				name: `faults wait ${seconds} s`,
				credential,
				events: SELECTED_EVENTS,
				timezone: 'America/Sao_Paulo',
				after: [
					{
						name: 'Wait',
						type: 'n8n-nodes-base.wait',
						typeVersion: 1.1,
						webhookId: randomUUID(),
						parameters: { resume: 'timeInterval', amount: seconds, unit: 'seconds' },
					},
					{
						name: 'Alert',
						type: DIALER_TYPE,
						typeVersion: 1,
						parameters: { resource: 'team', operation: 'getMany', returnAll: true, filters: {} },
						credentials: usesCredential(credential),
					},
				],
			}),
		),
	);
	const receivers = flows.map((flow) => sim.webhooks.register({ url: flow.url, secret }));
	const agents = sim.data.agents.map((agent) => agent.id);
	const sentAt = Date.now();
	await Promise.all(shiftEvents(WAITING_EVENTS, agents, 5000).map((e) => sim.webhooks.emit(e)));
	for (const id of receivers) sim.webhooks.unregister(id);
	return {
		finish: async () =>
			Object.fromEntries(
				await Promise.all(
					flows.map(async (flow, index) => {
						const seconds = WAITS_SECONDS[index];
						const executions = await settledExecutions(
							stack.api,
							flow.workflow.id,
							WAITING_EVENTS,
							{
								// A parked wait changes nothing for 70 s; a dead worker's for up to 90 s.
								quietMs: 120_000,
								maxMs: 240_000,
							},
						);
						const late = executions
							.filter((e) => e.status === 'success' && e.stoppedAt)
							.map((e) => (Date.parse(e.stoppedAt!) - sentAt) / 1000 - seconds);
						const summary = {
							alerts: WAITING_EVENTS,
							executions: countBy(executions, (e) => e.status),
							latestSeconds: Number(Math.max(0, ...late).toFixed(1)),
						};
						return [`wait ${seconds} s`, summary] as const;
					}),
				),
			),
	};
}
