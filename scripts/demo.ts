/**
 * `npm run demo`: the package inside a real n8n next to the dialer simulator, with every example
 * workflow imported and a simulated shift sending agent events, so executions arrive within
 * seconds. Everything listens on 127.0.0.1; Ctrl-C (or SIGTERM) stops n8n and the simulator.
 *
 * `--check`: start, prove the offline examples work (scheduled ones run once, trigger ones get
 * executions from the shift), stop, and print one JSON summary line; exit code 1 on any failure.
 * Other flags: `--skip-build` (pack the existing dist/), `--shift-rate <events/s>` (default 5),
 * `--executions <n>` (shift executions `--check` waits for, default 5).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import {
	waitUntilServed,
	type Credential,
	type Execution,
	type N8nApi,
	type Workflow,
	type WorkflowInput,
	type WorkflowNode,
} from './n8n/api';
import {
	DIALER_TYPE,
	REPORT_TRIGGER_TYPE,
	simulatorCredential,
	sleep,
	TRIGGER_TYPE,
	triggerUrl,
	usesCredential,
} from './n8n/dialer';
import { PROJECT_ROOT, startN8n, stopAllTracked, type N8nInstance } from './n8n/instance';
import { startSimulator } from '../simulator';
import type { AgentEvent, DialerSimulator } from '../simulator/types';

export const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples');
const DIALER_NODE_TYPES = new Set([
	DIALER_TYPE,
	TRIGGER_TYPE,
	REPORT_TRIGGER_TYPE,
	`${DIALER_TYPE}Tool`,
]);
const SCHEDULE_TYPE = 'n8n-nodes-base.scheduleTrigger';
/** Node types that need nothing beyond the dialer: workflows made only of these run in the demo. */
const LOCAL_NODE_TYPES = new Set([
	...DIALER_NODE_TYPES,
	SCHEDULE_TYPE,
	'n8n-nodes-base.set',
	'n8n-nodes-base.code',
	'n8n-nodes-base.splitOut',
	'n8n-nodes-base.filter',
	'n8n-nodes-base.convertToFile',
	'n8n-nodes-base.readWriteFile',
	'n8n-nodes-base.stickyNote',
]);
/** The examples' "Settings" node holds the folder their files go to; the demo points it at its own. */
const SETTINGS_NODE = 'Settings';
const EXECUTION_TIMEOUT_MS = 60_000;

export interface DemoOptions {
	check: boolean;
	build: boolean;
	shiftRate: number;
	/** Executions from the shift that `--check` waits for. */
	checkExecutions: number;
}

interface ImportedExample {
	file: string;
	workflow: Workflow;
	offline: boolean;
}

export interface DemoSummary {
	check: 'passed';
	n8nPid: number;
	examples: number;
	active: number;
	executions: number;
	/** Milliseconds from launch: n8n ready, examples imported, first execution, check done. */
	timings: Record<string, number>;
}

function log(message: string): void {
	process.stderr.write(`[demo] ${message}\n`);
}

export function parseArgs(argv: string[]): DemoOptions {
	const options: DemoOptions = { check: false, build: true, shiftRate: 5, checkExecutions: 5 };
	for (let i = 0; i < argv.length; i++) {
		const number = () => {
			const value = Number(argv[++i]);
			if (!(value > 0)) throw new Error(`${argv[i - 1]} needs a positive number`);
			return value;
		};
		if (argv[i] === '--check') options.check = true;
		else if (argv[i] === '--skip-build') options.build = false;
		else if (argv[i] === '--shift-rate') options.shiftRate = number();
		else if (argv[i] === '--executions') options.checkExecutions = number();
		else
			throw new Error(
				`unknown option ${argv[i]} (known: --check, --skip-build, --shift-rate N, --executions N)`,
			);
	}
	return options;
}

/** The example workflows as stored in examples/*.json, by file name. */
export async function readExamples(): Promise<Array<{ file: string; workflow: WorkflowInput }>> {
	const files = (await readdir(EXAMPLES_DIR)).filter((file) => file.endsWith('.json')).sort();
	return Promise.all(
		files.map(async (file) => ({
			file,
			workflow: JSON.parse(await readFile(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowInput,
		})),
	);
}

export function runsOffline(workflow: WorkflowInput): boolean {
	return workflow.nodes.every((node) => LOCAL_NODE_TYPES.has(node.type));
}

/** What a user does after importing: pick the Dialer credential and the output folder. */
export function configureExample(
	workflow: WorkflowInput,
	credential: Credential,
	outputFolder: string,
): WorkflowInput {
	const nodes = workflow.nodes.map((node): WorkflowNode => {
		if (DIALER_NODE_TYPES.has(node.type)) {
			return { ...node, credentials: usesCredential(credential) };
		}
		if (node.name !== SETTINGS_NODE) return node;
		const parameters = structuredClone(node.parameters) as {
			assignments?: { assignments?: Array<{ name: string; value: unknown }> };
		};
		for (const assignment of parameters.assignments?.assignments ?? []) {
			if (assignment.name === 'outputFolder') assignment.value = outputFolder;
		}
		return { ...node, parameters };
	});
	return { ...workflow, nodes };
}

/** Runs a scheduled workflow once now, as the editor's "Execute workflow" button does, and waits for it. */
async function runOnce(api: N8nApi, workflow: Workflow, triggerName: string): Promise<Execution> {
	const { executionId } = await api.rest<{ executionId: string }>(
		'POST',
		`/rest/workflows/${workflow.id}/run`,
		{
			triggerToStartFrom: { name: triggerName },
		},
	);
	const deadline = Date.now() + EXECUTION_TIMEOUT_MS;
	for (;;) {
		const execution = await api.getExecution(executionId);
		if (execution.stoppedAt) return execution;
		if (Date.now() > deadline)
			throw new Error(`"${workflow.name}" did not finish within ${EXECUTION_TIMEOUT_MS} ms`);
		await sleep(250);
	}
}

function executionError(execution: Execution): string {
	const data = execution.data as { resultData?: { error?: { message?: string } } } | undefined;
	return data?.resultData?.error?.message ?? execution.status;
}

function assertSucceeded(workflow: Workflow, executions: Execution[]): void {
	const failed = executions.filter((execution) => execution.status !== 'success');
	if (failed.length > 0) {
		throw new Error(
			`"${workflow.name}": execution ${failed[0].id} ended ${failed[0].status}: ${executionError(failed[0])}`,
		);
	}
}

/**
 * One coffee break 21 minutes long (limit 15), sent before the shift starts so the pause-alert
 * examples have an over-limit alert to show; pause_out goes only after pause_in's execution
 * finished, since it reads what that execution stored.
 */
async function playLongPause(
	sim: DialerSimulator,
	api: N8nApi,
	triggerWorkflows: Workflow[],
): Promise<void> {
	const pause = sim.data.pauses.find((candidate) => candidate.durmax !== undefined);
	if (!pause?.durmax) throw new Error('the simulator has no pause with a time limit');
	const agent = sim.data.agents[0];
	const now = Math.floor(Date.now() / 1000);
	const startedAt = now - pause.durmax - 6 * 60;
	const events: AgentEvent[] = [
		{
			evento: 'agente.pause_in',
			estado: 'paused',
			t: startedAt,
			usuario_id: agent.id,
			pausa_id: pause.id,
			udate: startedAt,
			durmax: pause.durmax,
		},
		{ evento: 'agente.pause_out', estado: 'online', t: now, usuario_id: agent.id },
	];
	for (const [index, event] of events.entries()) {
		await sim.webhooks.emit(event);
		for (const workflow of triggerWorkflows) {
			assertSucceeded(
				workflow,
				await api.waitForExecutions(workflow.id, index + 1, EXECUTION_TIMEOUT_MS),
			);
		}
	}
}

async function countExecutions(api: N8nApi, workflows: Workflow[]): Promise<Execution[]> {
	const lists = await Promise.all(workflows.map((workflow) => api.listExecutions(workflow.id)));
	return lists.flat();
}

function banner(
	n8n: N8nInstance,
	sim: DialerSimulator,
	outputFolder: string,
	examples: ImportedExample[],
): string {
	const active = examples
		.filter((example) => example.offline)
		.map((example) => `    - ${example.workflow.name}`);
	const inactive = examples
		.filter((example) => !example.offline)
		.map((example) => `    - ${example.workflow.name}`);
	return [
		'',
		'Dialer demo is running.',
		'',
		`  n8n editor   ${n8n.baseUrl}`,
		`  Log in as    ${n8n.ownerEmail}  /  ${n8n.ownerPassword}`,
		`  Simulator    ${sim.apiUrl}  (state: ${sim.baseUrl}/__simulator/state)`,
		`  Files        ${outputFolder}  (removed when the demo stops)`,
		'',
		'What to look at:',
		'  - Overview: the Dialer API credential points at the simulator. Active examples (run offline):',
		...active,
		'  - Open "pause alerts to a log file" → Executions: a run for every pause in or out of the',
		'    simulated shift; alerts (a 21-minute coffee break, pauses of watched agents) are appended to',
		`    ${path.join(outputFolder, 'pause-alerts.log')}`,
		'  - "filled forms as CSV on disk" ran once at start (Executions); its CSV is in the Files folder.',
		'  - Imported inactive, they need outside credentials (Slack, SMTP, Google, Telegram, OpenAI):',
		...inactive,
		'',
		'Press Ctrl-C to stop n8n and the simulator.',
		'',
	].join('\n');
}

export async function runDemo(options: DemoOptions): Promise<void> {
	const launched = Date.now();
	const timings: Record<string, number> = {};
	const mark = (name: string) => (timings[name] = Date.now() - launched);

	const token = `demo-token-${randomBytes(12).toString('hex')}`;
	const webhookSecret = `demo-secret-${randomBytes(12).toString('hex')}`;
	const outputFolder = await realpath(
		await mkdtemp(path.join(os.tmpdir(), 'n8n-dialer-demo-files-')),
	);
	// About 30 filled forms per form and day, so yesterday's CSV has rows.
	const sim = await startSimulator({ token, fichas: 6000, calls: 6000 });
	log(`simulator on ${sim.baseUrl}`);
	let n8n: N8nInstance | undefined;
	let stopping: Promise<void> | undefined;
	const stop = () =>
		(stopping ??= (async () => {
			await sim.shift.stop();
			await n8n?.stop();
			// Also an n8n that was still starting when the signal came.
			await stopAllTracked();
			await sim.close();
			await rm(outputFolder, { recursive: true, force: true });
		})());
	// The harness also stops n8n on these signals and then raises the signal again; staying
	// subscribed (`on`, not `once`) keeps that from killing this process before the files are
	// removed. Exiting, rather than dying of the signal, also lets the harness's exit hook kill
	// an n8n that is still starting, before `n8n` is set here.
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.on(signal, () => {
			if (stopping) return;
			log(`${signal}: stopping n8n and the simulator`);
			void stop()
				.then(
					() => log('stopped: n8n, its task runner and the simulator have ended; files removed'),
					(error: Error) => log(`stopped with an error: ${error.message}`),
				)
				.finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
		});
	}
	try {
		n8n = await startN8n({
			purpose: 'demo',
			build: options.build,
			env: {
				// The simulator's dates are the machine's local time: make "yesterday" mean the same in n8n.
				GENERIC_TIMEZONE: Intl.DateTimeFormat().resolvedOptions().timeZone,
				N8N_RESTRICT_FILE_ACCESS_TO: outputFolder,
			},
		});
		mark('n8nReady');
		const { api } = n8n;
		const credential = await api.createCredential(
			'dialerApi',
			'Dialer API (simulator)',
			simulatorCredential(sim, webhookSecret),
		);

		const examples: ImportedExample[] = [];
		for (const { file, workflow } of await readExamples()) {
			const offline = runsOffline(workflow);
			const created = await api.createWorkflow(
				configureExample(workflow, credential, outputFolder),
			);
			if (offline) await api.activateWorkflow(created.id);
			examples.push({ file, workflow: created, offline });
		}
		mark('examplesImported');
		log(`imported ${examples.length} examples, ${examples.filter((e) => e.offline).length} active`);

		const triggered = examples.filter(
			(e) => e.offline && e.workflow.nodes.some((node) => node.type === TRIGGER_TYPE),
		);
		for (const { workflow } of triggered) {
			for (const node of workflow.nodes.filter((candidate) => candidate.type === TRIGGER_TYPE)) {
				const url = triggerUrl(api, node.webhookId!);
				await waitUntilServed(url);
				sim.webhooks.register({
					url,
					secret: webhookSecret,
					events: node.parameters.events as string[],
				});
				log(`registered ${url} with the simulator`);
			}
		}
		await playLongPause(
			sim,
			api,
			triggered.map((e) => e.workflow),
		);
		mark('firstExecution');

		for (const { workflow } of examples.filter((e) => e.offline)) {
			const schedule = workflow.nodes.find((node) => node.type === SCHEDULE_TYPE);
			if (!schedule) continue;
			assertSucceeded(workflow, [await runOnce(api, workflow, schedule.name)]);
			log(`ran "${workflow.name}" once`);
		}
		sim.shift.start({ eventsPerSecond: options.shiftRate });
		mark('shiftStarted');

		if (!options.check) {
			process.stdout.write(banner(n8n, sim, outputFolder, examples));
			await new Promise(() => undefined); // until a signal ends the process
		}

		const baseline = (
			await countExecutions(
				api,
				triggered.map((e) => e.workflow),
			)
		).length;
		const deadline = Date.now() + EXECUTION_TIMEOUT_MS;
		let executions: Execution[] = [];
		while (executions.length < baseline + options.checkExecutions) {
			if (Date.now() > deadline)
				throw new Error(
					`the shift started ${executions.length - baseline} executions in ${EXECUTION_TIMEOUT_MS} ms`,
				);
			await sleep(500);
			executions = (
				await countExecutions(
					api,
					triggered.map((e) => e.workflow),
				)
			).filter((e) => e.stoppedAt);
		}
		for (const { workflow } of triggered) {
			assertSucceeded(
				workflow,
				executions.filter((execution) => execution.workflowId === workflow.id),
			);
		}
		await checkFiles(outputFolder);
		mark('checked');
		const summary: DemoSummary = {
			check: 'passed',
			n8nPid: n8n.pid,
			examples: examples.length,
			active: examples.filter((e) => e.offline).length,
			executions: executions.length,
			timings,
		};
		await stop();
		process.stdout.write(`${JSON.stringify(summary)}\n`);
	} catch (error) {
		await stop();
		throw error;
	}
}

/** The files the offline examples write: yesterday's CSV and the over-limit pause alert. */
async function checkFiles(outputFolder: string): Promise<void> {
	const files = await readdir(outputFolder);
	const csv = files.find((file) => file.startsWith('filled-forms-') && file.endsWith('.csv'));
	if (!csv || !(await readFile(path.join(outputFolder, csv), 'utf8')).includes('Ficha;')) {
		throw new Error(`no filled-forms CSV with a header in ${outputFolder}: ${files.join(', ')}`);
	}
	const alerts = path.join(outputFolder, 'pause-alerts.log');
	if (!existsSync(alerts) || !/was in pause \d+ for \d+ min/.test(await readFile(alerts, 'utf8'))) {
		throw new Error(`${alerts} has no over-limit pause alert`);
	}
}

if (require.main === module) {
	runDemo(parseArgs(process.argv.slice(2))).catch((error: Error) => {
		log(error.stack ?? error.message);
		process.exitCode = 1;
	});
}
