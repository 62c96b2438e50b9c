/**
 * The example "Live over-limit pause alerts to a log file" (examples/live-pause-alerts-to-file.json)
 * deployed in a running n8n (the e2e run's, one restarted by a test, queue mode) and read back: the
 * alerts its executions made, and its executions once none is running or waiting any more.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import {
	hasFinished,
	nodeOutput,
	waitUntilServed,
	type Credential,
	type Execution,
	type N8nApi,
	type Workflow,
	type WorkflowInput,
} from '../../../harness/n8n/api';
import { sleep, triggerUrl } from '../../../harness/n8n/dialer';
import { startN8n, type N8nInstance } from '../../../harness/n8n/instance';
import type { DataTableRef, ExampleTable } from '../../../harness/n8n/dataTables';
import type { AgentEvent } from '../../../harness/simulator/types';
import { registerSecret } from '../setup/connection';
import {
	AgentTable,
	exampleTable,
	configureSupervisionExample,
	makeOutputFolder,
	removeOutputFolder,
} from './supervision';
import { event, post } from './triggerWorkflows';

const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');
export const ALERT_EXAMPLE = 'live-pause-alerts-to-file.json';
export const ALERT_LOG = 'over-limit-pauses.log';
const ALERT_NODE = 'Over-Limit Alert';
const TRIGGER_NODE = 'Agent Events';

export interface Alert {
	agentId: number;
	pauseId: string;
	pauseStartedAt: string;
	limitAt: string;
	limitSeconds: number;
	line: string;
	/** When n8n ran the alert node (ms since the epoch). */
	ranAt: number;
}

export async function readExample(file: string): Promise<WorkflowInput> {
	return JSON.parse(await readFile(path.join(EXAMPLES, file), 'utf8')) as WorkflowInput;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The dialer's pause_in: started at `udate` (seconds), with a maximum of `durmax` seconds. */
export function pauseIn(
	agentId: number,
	pauseId: number,
	udate: number,
	durmax: number,
): AgentEvent {
	return event('agente.pause_in', agentId, { t: udate, pausa_id: pauseId, udate, durmax });
}

export function alertsOf(execution: Execution): Alert[] {
	const runData = (
		execution.data as {
			resultData: {
				runData: Record<
					string,
					Array<{ startTime: number; data: { main: Array<Array<{ json: Alert }>> } }>
				>;
			};
		}
	).resultData.runData;
	return (runData[ALERT_NODE] ?? []).flatMap((run) =>
		run.data.main[0].map((item) => ({ ...item.json, ranAt: run.startTime })),
	);
}

/** The agent whose event started the execution. */
export function agentOf(execution: Execution): number {
	return Number(nodeOutput(execution, TRIGGER_NODE)[0]?.agentId);
}

/** What went wrong in an execution, as the editor shows it. */
export function failure(execution: Execution): string {
	const { resultData } = execution.data as {
		resultData: { error?: { message?: string }; lastNodeExecuted?: string };
	};
	return `${execution.id} ${execution.status} in ${resultData.lastNodeExecuted}: ${resultData.error?.message}`;
}

/** Executions of agent events: the example's schedule (pruning old events) may run at any 10th minute. */
const ofAgentEvents = (execution: Execution) => execution.mode !== 'trigger';

/** How many executions of agent events the workflow has, finished or not. */
export async function agentEventExecutions(api: N8nApi, workflow: Workflow): Promise<number> {
	return (await api.listExecutions(workflow.id)).filter(ofAgentEvents).length;
}

/**
 * Waits until the workflow has at least `count` finished executions of agent events and none
 * still running or waiting; returns them all with their data.
 */
export async function settledExecutions(
	api: N8nApi,
	workflow: Workflow,
	count: number,
	timeoutMs = 60_000,
): Promise<Execution[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = (await api.listExecutions(workflow.id)).filter(ofAgentEvents);
		const finished = executions.filter(hasFinished);
		if (finished.length >= count && finished.length === executions.length)
			return (await api.listExecutions(workflow.id, true)).filter(ofAgentEvents);
		if (Date.now() > deadline)
			throw new Error(
				`${finished.length} of ${count} executions finished in ${timeoutMs} ms ` +
					`(${executions.length - finished.length} running or waiting)`,
			);
		await sleep(250);
	}
}

/** The alerts of every finished execution of the workflow. */
export async function alertsIn(api: N8nApi, workflow: Workflow): Promise<Alert[]> {
	return (await api.listExecutions(workflow.id, true)).filter(hasFinished).flatMap(alertsOf);
}

/** The example, imported and configured as a user does, active, with its own table and folder. */
export interface AlertDeployment {
	workflow: Workflow;
	/** The trigger's production URL. */
	url: string;
	table: AgentTable;
	/** How other examples beside it name that table (By Name on 2.x; the table by hand on 1.x). */
	tableRef: DataTableRef;
	outputFolder: string;
	/** Deactivates and deletes the workflow, the table and the folder. */
	remove(): Promise<void>;
}

/** Configured through the API, every execution saved for the test to read. */
export async function deployAlertExample(
	api: N8nApi,
	credential: Credential,
): Promise<AlertDeployment> {
	const table = await exampleTable(api);
	const outputFolder = await makeOutputFolder();
	const example = await readExample(ALERT_EXAMPLE);
	const configured = configureSupervisionExample(example, {
		credential,
		table: table.ref,
		outputFolder,
	});
	const workflow = await api.createWorkflow(configured);
	return servedDeployment(api, [workflow], table, outputFolder, () =>
		api.activateWorkflow(workflow.id),
	);
}

/**
 * The alert workflow (first of `workflows`, the others imported beside it) once `activate` has
 * published it and n8n serves its trigger; `remove` takes them all away with the table and folder.
 */
export async function servedDeployment(
	api: N8nApi,
	workflows: Workflow[],
	tableSetup: ExampleTable,
	outputFolder: string,
	activate: () => Promise<unknown> = async () => undefined,
): Promise<AlertDeployment> {
	const [workflow] = workflows;
	const remove = async () => {
		for (const { id } of workflows) {
			await api.deactivateWorkflow(id).catch(() => undefined);
			await api.deleteWorkflow(id).catch(() => undefined);
		}
		// Made by the example when published (2.x), or by hand (1.x).
		await tableSetup.remove().catch(() => undefined);
		await removeOutputFolder(outputFolder);
	};
	try {
		await activate();
		const trigger = workflow.nodes.find((node) => node.name === TRIGGER_NODE)!;
		const url = triggerUrl(api, trigger.webhookId!);
		await waitUntilServed(url);
		const table = await tableSetup.made();
		return { workflow, url, table, tableRef: tableSetup.ref, outputFolder, remove };
	} catch (error) {
		await remove();
		throw error;
	}
}

/** An n8n of a test's own (one it restarts), with the alert example active. */
export interface OwnAlertN8n {
	n8n: N8nInstance;
	/** The Dialer credential with the webhook secret (the dialer's own address is not used). */
	credential: Credential;
	deployment: AlertDeployment;
	/** Delivers one event to the example's trigger, as the dialer does. */
	send(agentEvent: AgentEvent): Promise<void>;
	/** Removes the example and stops n8n. */
	stop(): Promise<void>;
}

/**
 * `version`: the n8n to start (default the newest 2.x); `deploy`: how the example gets into n8n,
 * if not through the API (e.g. pasted in the editor).
 */
export async function startOwnAlertN8n(
	purpose: string,
	secret: string,
	env: Record<string, string>,
	{
		version,
		deploy,
	}: {
		version?: string;
		deploy?: (n8n: N8nInstance, credential: Credential) => Promise<AlertDeployment>;
	} = {},
): Promise<OwnAlertN8n> {
	registerSecret(secret);
	const n8n = await startN8n({
		purpose,
		version,
		env: { GENERIC_TIMEZONE: 'America/Sao_Paulo', ...env },
	});
	try {
		// Only the trigger's webhook secret is used: nothing here calls the dialer.
		const credential = await n8n.api.createCredential('dialerApi', `Dialer ${purpose}`, {
			baseUrl: 'http://127.0.0.1:9',
			pathSegment: 'ipbox',
			token: `unused-${randomUUID()}`,
			authScheme: 'raw',
			ignoreSslIssues: false,
			webhookSecret: secret,
			reportUser: '',
			reportPassword: '',
		});
		const deployment = deploy
			? await deploy(n8n, credential)
			: await deployAlertExample(n8n.api, credential);
		return {
			n8n,
			credential,
			deployment,
			async send(agentEvent) {
				const answer = await post(deployment.url, JSON.stringify(agentEvent), {
					'content-type': 'application/json',
					'x-webhook-secret': secret,
				});
				if (answer.status !== 200)
					throw new Error(`the trigger answered ${answer.status} to ${agentEvent.evento}`);
			},
			async stop() {
				await deployment.remove();
				await n8n.stop();
			},
		};
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}
