/**
 * What the fault harness (./faults.ts) watches besides the shift: the Dialer Report Trigger
 * polling across a PostgreSQL restart, and the live over-limit alert example across a killed
 * worker.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { DialerSimulator } from '../simulator/types';
import { configureExample } from '../demo';
import { waitUntilServed, type Credential, type WorkflowInput } from '../n8n/api';
import { exampleTable } from '../n8n/dataTables';
import {
	pollEverySeconds,
	REPORT_TRIGGER_TYPE,
	sleep,
	TRIGGER_TYPE,
	triggerUrl,
} from '../n8n/dialer';
import { countBy } from './burst';
import { failuresEnded, settledExecutions } from './shift';
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
					pollTimes: pollEverySeconds(3),
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
			const fichasOf = (execution: (typeof executions)[number]) => {
				const data = execution.data as {
					resultData?: { runData?: Record<string, Array<{ data?: { main?: unknown[][] } }>> };
				};
				const items = data?.resultData?.runData?.[REPORT_TRIGGER]?.[0]?.data?.main?.[0] ?? [];
				return (items as Array<{ json: { ficha: unknown } }>).map((item) =>
					String(item.json.ficha),
				);
			};
			const times = countBy(executions.flatMap(fichasOf), String);
			// Which executions emitted a ficha twice, and when: polls run side by side, or a poll
			// repeated later.
			const withDoubles = executions
				.map((execution) => ({ execution, fichas: fichasOf(execution) }))
				.filter(({ fichas }) => fichas.some((ficha) => times[ficha] > 1))
				.map(({ execution, fichas }) => ({
					startedAt: execution.startedAt,
					fichas: `${fichas[0]}..${fichas.at(-1)} (${fichas.length})`,
				}))
				.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
			const log = readFileSync(stack.main.process.logFile, 'utf8');
			return {
				fichas: added.length,
				missing: added.filter((ficha) => !times[ficha]).length,
				doubled: Object.values(times).filter((n) => n > 1).length,
				executionsWithDoubles: withDoubles,
				executions: countBy(executions, (e) => e.status),
				pollsEmittedAgain: log.match(/could not start the execution of/g)?.length ?? 0,
			};
		},
	};
}

/** Pause limits: one a worker keeps in memory while it waits (under 65 s), one n8n parks. */
const PAUSE_LIMITS_SECONDS = [30, 75];
const PAUSES_PER_LIMIT = 10;
const ALERT_EXAMPLE = path.resolve(
	__dirname,
	'..',
	'..',
	'examples',
	'live-pause-alerts-to-file.json',
);
const ALERT_LOG = 'over-limit-pauses.log';

/**
 * Live over-limit alerts across a killed worker: the example "Live over-limit pause alerts to a
 * log file" as a user deploys it (agents' data table, output folder under n8n's allowed
 * ~/.n8n-files), and PAUSES_PER_LIMIT agents pausing now with each limit who stay paused, so each
 * pause must be alerted exactly once, at its limit. `finish` reads the example's log file: which
 * pauses were alerted once, never or twice, and how long after their limit.
 */
export async function liveAlertWatch(
	stack: QueueModeStack,
	sim: DialerSimulator,
	credential: Credential,
	secret: string,
) {
	const tableSetup = await exampleTable(stack.api);
	const outputFolder = path.join(
		os.homedir(),
		'.n8n-files',
		`dialer-faults-${randomUUID().slice(0, 8)}`,
	);
	await mkdir(outputFolder, { recursive: true });
	const example = JSON.parse(readFileSync(ALERT_EXAMPLE, 'utf8')) as WorkflowInput;
	const configured = configureExample(example, credential, outputFolder, tableSetup.ref);
	const workflow = await stack.api.createWorkflow({
		...configured,
		nodes: configured.nodes.map((node) =>
			node.webhookId ? { ...node, webhookId: randomUUID() } : node,
		),
	});
	await stack.api.activateWorkflow(workflow.id);
	const trigger = workflow.nodes.find((node) => node.type === TRIGGER_TYPE)!;
	const url = triggerUrl(stack.api, trigger.webhookId!);
	await waitUntilServed(url);
	// Made by the example once published: only then can the first event be saved.
	await tableSetup.made();
	const receiver = sim.webhooks.register({ url, secret });
	const udate = Math.floor(Date.now() / 1000);
	const pauses = PAUSE_LIMITS_SECONDS.flatMap((limit, group) =>
		Array.from({ length: PAUSES_PER_LIMIT }, (_, index) => ({
			agentId: 9000 + group * 100 + index,
			limit,
			limitAt: (udate + limit) * 1000,
		})),
	);
	const answers = await Promise.all(
		pauses.map(({ agentId, limit }) =>
			sim.webhooks.emit({
				evento: 'agente.pause_in',
				estado: 'paused',
				usuario_id: agentId,
				t: udate,
				udate,
				durmax: limit,
				pausa_id: agentId,
			}),
		),
	);
	sim.webhooks.unregister(receiver);
	const refused = answers.flat().filter((delivery) => delivery.status !== 200).length;
	if (refused) throw new Error(`${refused} pauses were not accepted before the fault`);
	return {
		/** `faultAt`: epoch ms of the fault, for when the failed executions ended. */
		finish: async (faultAt: number) => {
			const executions = await settledExecutions(stack.api, workflow.id, pauses.length, {
				// A dead worker's executions end when n8n finds them stalled (up to 90 s by default).
				quietMs: 100_000,
				maxMs: 240_000,
			});
			const lines = await readFile(path.join(outputFolder, ALERT_LOG), 'utf8').catch(() => '');
			const alertedAt = new Map<number, number[]>();
			for (const line of lines.split('\n').filter(Boolean)) {
				const agentId = Number(/Agent (\d+) still paused/.exec(line)?.[1]);
				alertedAt.set(agentId, [
					...(alertedAt.get(agentId) ?? []),
					Date.parse(line.split('\t')[0]),
				]);
			}
			await stack.api.deactivateWorkflow(workflow.id).catch(() => undefined);
			await rm(outputFolder, { recursive: true, force: true });
			const byLimit = Object.fromEntries(
				PAUSE_LIMITS_SECONDS.map((limit) => {
					const group = pauses.filter((pause) => pause.limit === limit);
					const times = group.map((pause) => alertedAt.get(pause.agentId) ?? []);
					const late = group.flatMap((pause, index) =>
						times[index].map((at) => (at - pause.limitAt) / 1000),
					);
					const summary = {
						pauses: group.length,
						alertedOnce: times.filter((t) => t.length === 1).length,
						lost: times.filter((t) => t.length === 0).length,
						doubled: times.filter((t) => t.length > 1).length,
						lateSeconds: late.length
							? [Math.min(...late), Math.max(...late)].map((s) => Number(s.toFixed(1)))
							: [],
					};
					return [`${limit}-s limit`, summary] as const;
				}),
			);
			return {
				executions: countBy(executions, (e) => e.status),
				failuresEndedSeconds: failuresEnded(executions, faultAt),
				...byLimit,
			};
		},
	};
}
