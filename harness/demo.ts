/**
 * `npm run demo`: the package inside a real n8n next to the dialer simulator, with every example
 * workflow imported and a simulated shift sending agent events, so executions arrive within
 * seconds. Before the shift, two scripted pauses show the live over-limit alert: one runs over its
 * limit and is alerted while the agent is still paused, one ends in time and is not.
 * Everything listens on 127.0.0.1; Ctrl-C (or SIGTERM) stops n8n and the simulator.
 *
 * `--check`: start, prove the examples that need no outside service work (the live alert,
 * scheduled ones run once, trigger ones get executions from the shift), stop, and print one JSON
 * summary line; exit code 1 on any failure.
 * Other flags: `--skip-build` (pack the existing dist/), `--shift-rate <events/s>` (default 5),
 * `--executions <n>` (shift executions `--check` waits for, default 5).
 */
import { randomBytes, randomUUID } from 'node:crypto';
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
	AGENT_TABLE_NAME,
	AgentTable,
	pointAtTable,
	workflowsCreateTables,
	type DataTableRef,
} from './n8n/dataTables';
import {
	DIALER_TYPE,
	RECOMMENDED_N8N_SETTINGS,
	REPORT_TRIGGER_TYPE,
	simulatorCredential,
	sleep,
	TRIGGER_TYPE,
	triggerUrl,
	usesCredential,
} from './n8n/dialer';
import { PROJECT_ROOT, startN8n, stopAllTracked, type N8nInstance } from './n8n/instance';
import { startSimulator } from './simulator';
import type { AgentEvent, DialerSimulator } from './simulator/types';

export const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples');
const DIALER_NODE_TYPES = new Set([
	DIALER_TYPE,
	TRIGGER_TYPE,
	REPORT_TRIGGER_TYPE,
	`${DIALER_TYPE}Tool`,
]);
const SCHEDULE_TYPE = 'n8n-nodes-base.scheduleTrigger';
const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';
const WEBHOOK_TYPE = 'n8n-nodes-base.webhook';
const JWT_TYPE = 'n8n-nodes-base.jwt';
/** Node types that need nothing beyond the dialer: workflows made only of these run in the demo. */
const LOCAL_NODE_TYPES = new Set([
	...DIALER_NODE_TYPES,
	SCHEDULE_TYPE,
	'n8n-nodes-base.set',
	'n8n-nodes-base.code',
	'n8n-nodes-base.splitOut',
	'n8n-nodes-base.filter',
	'n8n-nodes-base.if',
	'n8n-nodes-base.convertToFile',
	'n8n-nodes-base.readWriteFile',
	'n8n-nodes-base.stickyNote',
	// n8n's own storage and timer: the supervision examples' agents table (made when published)
	// and pause wait.
	'n8n-nodes-base.n8nTrigger',
	DATA_TABLE_TYPE,
	'n8n-nodes-base.summarize',
	'n8n-nodes-base.wait',
	WEBHOOK_TYPE,
	'n8n-nodes-base.respondToWebhook',
	// The wallboard's page and the key it reads its data with.
	'n8n-nodes-base.html',
	JWT_TYPE,
]);
/** The examples' "Settings" node holds the folder their files go to; the demo points it at its own. */
const SETTINGS_NODE = 'Settings';
const EXECUTION_TIMEOUT_MS = 60_000;
export const LIVE_ALERTS_EXAMPLE = 'live-pause-alerts-to-file.json';
export const ALERT_LOG = 'over-limit-pauses.log';
export const WALLBOARD_EXAMPLE = 'supervisor-wallboard.json';
/** The examples the demo runs against the simulator: each must be made of LOCAL_NODE_TYPES only. */
export const SUPERVISION_EXAMPLES = [LIVE_ALERTS_EXAMPLE, 'agent-board.json', WALLBOARD_EXAMPLE];
const WALLBOARD_USER = 'wallboard';
/**
 * The scripted pauses reach their maximum this many seconds after they are sent: long enough for
 * the in-time one to end first, short enough for n8n to keep the wait in memory (under 65 s).
 */
const LIMIT_IN_SECONDS = 10;
/**
 * The call center's zone, as in the README's examples. The simulator's dates are this process's
 * local time and n8n's workflows run in GENERIC_TIMEZONE: both are set to it, so "yesterday" and
 * the times in alerts and on the board read as a supervisor in São Paulo reads them.
 */
export const DEMO_TIMEZONE = 'America/Sao_Paulo';

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
	/** Needs nothing but the dialer and n8n: activated and checked by the demo. */
	local: boolean;
}

/** What the scripted pauses showed, in milliseconds. */
export interface LiveAlert {
	/** The over-limit pause's agent, still paused when its alert line was read. */
	agentId: number;
	/** From the pause's maximum to the alert line's time stamp. */
	alertAfterLimitMs: number;
	/** From the alert line's time stamp to the agent's pause_out. */
	pauseOutAfterAlertMs: number;
	/** The agent whose pause ended in time: no alert. */
	inTimeAgentId: number;
}

export interface DemoSummary {
	check: 'passed';
	n8nPid: number;
	examples: number;
	active: number;
	executions: number;
	liveAlert: LiveAlert;
	/** Milliseconds from launch: n8n ready, examples imported, live alert shown, check done. */
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

export function needsNoOutsideService(workflow: WorkflowInput): boolean {
	return workflow.nodes.every((node) => LOCAL_NODE_TYPES.has(node.type));
}

export type { DataTableRef } from './n8n/dataTables';

/** The wallboard's credentials: the page's Basic Auth login and the key its data is read with. */
export interface WallboardCredentials {
	login: Credential;
	key: Credential;
}

/**
 * What a user does after importing: pick the Dialer credential, the agents' data table (when the
 * example has Data table nodes), the output folder and the wallboard's credentials. Successful
 * executions are saved, which the live alerts examples turn off: the demo shows them and checks
 * them, and so do the tests that deploy examples this way.
 */
export function configureExample(
	workflow: WorkflowInput,
	credential: Credential,
	outputFolder: string,
	table?: DataTableRef,
	wallboard?: WallboardCredentials,
): WorkflowInput {
	const uses = (type: string, { id, name }: Credential) => ({ [type]: { id, name } });
	const nodes = workflow.nodes.map((node): WorkflowNode => {
		if (DIALER_NODE_TYPES.has(node.type)) {
			// The examples leave the trigger's webhook ID out so that every paste gets its own, as the
			// editor gives one to a pasted node without it; created through the API, it needs one here.
			const webhookId =
				node.type === TRIGGER_TYPE ? { webhookId: node.webhookId ?? randomUUID() } : {};
			return { ...node, ...webhookId, credentials: usesCredential(credential) };
		}
		if (wallboard && node.type === WEBHOOK_TYPE && node.parameters.authentication === 'basicAuth')
			return { ...node, credentials: uses('httpBasicAuth', wallboard.login) };
		const signsOrChecksKey = node.type === JWT_TYPE || node.parameters.authentication === 'jwtAuth';
		if (wallboard && signsOrChecksKey)
			return { ...node, credentials: uses('jwtAuth', wallboard.key) };
		if (node.name !== SETTINGS_NODE) return node;
		const parameters = structuredClone(node.parameters) as {
			assignments?: { assignments?: Array<{ name: string; value: unknown }> };
		};
		for (const assignment of parameters.assignments?.assignments ?? []) {
			if (assignment.name === 'outputFolder') assignment.value = outputFolder;
		}
		return { ...node, parameters };
	});
	const configured = { ...workflow, nodes };
	return {
		...(table ? pointAtTable(configured, table) : configured),
		settings: { ...workflow.settings, saveDataSuccessExecution: 'all' },
	};
}

function executionError(execution: Execution): string {
	const data = execution.data as { resultData?: { error?: { message?: string } } } | undefined;
	return data?.resultData?.error?.message ?? execution.status;
}

/** Finished well, or parked until a Wait node's time comes (a pause waiting for its maximum). */
function assertSucceeded(workflow: Workflow, executions: Execution[]): void {
	const failed = executions.filter(
		(execution) => execution.status !== 'success' && execution.status !== 'waiting',
	);
	if (failed.length > 0) {
		throw new Error(
			`"${workflow.name}": execution ${failed[0].id} ended ${failed[0].status}: ${executionError(failed[0])}`,
		);
	}
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + EXECUTION_TIMEOUT_MS;
	for (;;) {
		const found = await probe();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${EXECUTION_TIMEOUT_MS} ms`);
		await sleep(100);
	}
}

/** A log file's lines, none when it does not exist yet. */
export async function readLog(file: string): Promise<string[]> {
	if (!existsSync(file)) return [];
	return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

/**
 * Two coffee breaks before the shift starts, sent as if they began almost their 15-minute limit
 * ago, so the limit comes LIMIT_IN_SECONDS later. One agent comes back in time; the other is still
 * paused when the live alerts example writes its alert line, and only then comes back. Each agent's
 * next event is sent once the table shows the previous one, so the pause_out lands while its
 * pause is being watched (the example orders events by their time, whatever their arrival).
 */
async function playPauses(
	sim: DialerSimulator,
	api: N8nApi,
	alerts: Workflow,
	table: AgentTable,
	outputFolder: string,
): Promise<LiveAlert> {
	const pause = sim.data.pauses.find((candidate) => candidate.durmax !== undefined);
	if (!pause?.durmax) throw new Error('the simulator has no pause with a time limit');
	const [overAgent, inTimeAgent] = sim.data.agents.filter((agent) => agent.estado === 'online');
	if (!inTimeAgent) throw new Error('the simulator has fewer than two available agents');
	const udate = Math.floor(Date.now() / 1000) - pause.durmax + LIMIT_IN_SECONDS;
	const limitAt = (udate + pause.durmax) * 1000;
	// Sent now, as the dialer sends every event, for a pause that began earlier (its udate): a
	// delivery stamped 15 minutes back would read as the dialer's clock set back.
	const pauseIn = (usuario_id: number): AgentEvent => ({
		evento: 'agente.pause_in',
		estado: 'paused',
		t: Math.floor(Date.now() / 1000),
		usuario_id,
		pausa_id: pause.id,
		udate,
		durmax: pause.durmax,
	});
	const pauseOut = (usuario_id: number): AgentEvent => ({
		evento: 'agente.pause_out',
		estado: 'online',
		t: Math.floor(Date.now() / 1000),
		usuario_id,
	});
	const stateOf = async (agentId: number) => (await table.latestByAgent()).get(agentId)?.state;
	const inState = (agentId: number, state: string) =>
		until(`agent ${agentId} ${state} in the data table`, async () =>
			(await stateOf(agentId)) === state ? true : undefined,
		);

	await sim.webhooks.emit(pauseIn(overAgent.id));
	await sim.webhooks.emit(pauseIn(inTimeAgent.id));
	await inState(inTimeAgent.id, 'paused');
	await sim.webhooks.emit(pauseOut(inTimeAgent.id));
	await inState(inTimeAgent.id, 'online');
	if (Date.now() >= limitAt)
		throw new Error(`agent ${inTimeAgent.id}'s pause_out was handled only after the limit`);
	log(
		`agents ${overAgent.id} and ${inTimeAgent.id} in pause ${pause.id} (limit ${pause.durmax / 60} min, reached in ${LIMIT_IN_SECONDS} s); ${inTimeAgent.id} came back in time`,
	);

	const logFile = path.join(outputFolder, ALERT_LOG);
	const alertLine = await until(`the over-limit alert in ${logFile}`, async () =>
		(await readLog(logFile)).find((line) => line.includes(`\tAgent ${overAgent.id} `)),
	);
	const stillPaused = (await stateOf(overAgent.id)) === 'paused';
	const alertAt = Date.parse(alertLine.split('\t')[0]);
	if (!stillPaused) throw new Error(`agent ${overAgent.id} was no longer paused at the alert`);
	// Both waits have ended (the in-time pause's without an alert) before the agent comes back.
	assertSucceeded(alerts, await api.waitForExecutions(alerts.id, 3, EXECUTION_TIMEOUT_MS));
	const lines = await readLog(logFile);
	if (lines.length !== 1)
		throw new Error(
			`${logFile} should hold one alert, for agent ${overAgent.id}:\n${lines.join('\n')}`,
		);
	await sim.webhooks.emit(pauseOut(overAgent.id));
	const pauseOutAt = Date.now();
	await inState(overAgent.id, 'online');
	assertSucceeded(alerts, await api.waitForExecutions(alerts.id, 4, EXECUTION_TIMEOUT_MS));
	log(`alert for agent ${overAgent.id} while still paused: ${alertLine.trim()}`);
	return {
		agentId: overAgent.id,
		alertAfterLimitMs: alertAt - limitAt,
		pauseOutAfterAlertMs: pauseOutAt - alertAt,
		inTimeAgentId: inTimeAgent.id,
	};
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
	liveAlert: LiveAlert,
	wallboardLogin: BasicLogin,
): string {
	const active = examples
		.filter((example) => example.local)
		.map((example) => `    - ${example.workflow.name}`);
	const inactive = examples
		.filter((example) => !example.local)
		.map((example) => `    - ${example.workflow.name}`);
	const boardPath = examples
		.flatMap((example) => example.workflow.nodes)
		.find((node) => node.type === 'n8n-nodes-base.webhook' && node.name === 'Board on Demand')
		?.parameters.path;
	const settings = Object.entries(RECOMMENDED_N8N_SETTINGS)
		.map(([name, value]) => `${name}=${value}`)
		.join(' ');
	return [
		'',
		'Dialer demo is running.',
		'',
		`  n8n editor   ${n8n.baseUrl}`,
		`  Log in as    ${n8n.ownerEmail}  /  ${n8n.ownerPassword}`,
		`  Simulator    ${sim.apiUrl}  (state: ${sim.baseUrl}/__simulator/state)`,
		`  Files        ${outputFolder}  (removed when the demo stops)`,
		`  n8n setting  ${settings}  (n8n calls it less secure and soon deprecated; with n8n's`,
		'               defaults 150 agent events at once lost most; read docs/capacity.md for yours)',
		'',
		'What to look at:',
		'  - Overview: the Dialer API credential points at the simulator. Active examples (no outside service):',
		...active,
		`  - Overview → Data tables → ${AGENT_TABLE_NAME}: one row per agent, updated by every agent event.`,
		`  - "live over-limit pause alerts" → Executions. Before the shift, agent ${liveAlert.agentId} stayed in a`,
		`    coffee break past its limit: alerted ${liveAlert.alertAfterLimitMs} ms after the limit, while still paused`,
		`    (agent ${liveAlert.inTimeAgentId} came back in time: no alert). Alerts go to`,
		`    ${path.join(outputFolder, ALERT_LOG)}`,
		"    The shift's pauses with a limit wait for it: listed as waiting.",
		`  - Agent board: ${n8n.api.webhookBaseUrl}/webhook/${String(boardPath)}`,
		'    (it also ran once at start: agent-board.txt and .csv in the Files folder).',
		`  - Wallboard: ${wallboardUrl(n8n.api, examples, wallboardLogin)}`,
		`    (user ${wallboardLogin.user}, password ${wallboardLogin.password}): the page for the wall, live`,
		"    from the agents' data table; open it in a browser.",
		'  - "filled forms as CSV on disk" ran once at start (Executions); its CSV is in the Files folder.',
		'  - "morning digest to disk" ran once at start: yesterday\'s digest e-mail as',
		'    morning-digest-<date>.html and its day row in morning-digest.csv, in the Files folder.',
		'  - Imported inactive, they need outside credentials (Slack, SMTP, Google, Telegram, OpenAI):',
		...inactive,
		'',
		'Press Ctrl-C to stop n8n and the simulator.',
		'',
	].join('\n');
}

export async function runDemo(options: DemoOptions): Promise<void> {
	const launched = Date.now();
	// Before the simulator seeds its history: Node reads TZ again when it is assigned.
	process.env.TZ = DEMO_TIMEZONE;
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
				GENERIC_TIMEZONE: DEMO_TIMEZONE,
				N8N_RESTRICT_FILE_ACCESS_TO: outputFolder,
				...RECOMMENDED_N8N_SETTINGS,
			},
		});
		mark('n8nReady');
		const { api } = n8n;
		const credential = await api.createCredential(
			'dialerApi',
			'Dialer API (simulator)',
			simulatorCredential(sim, webhookSecret),
		);

		// n8n 2.x: the examples make the table when published; 1.x: made here, as the notes say.
		const byHand = workflowsCreateTables(n8n.n8nVersion)
			? undefined
			: await AgentTable.create(api, AGENT_TABLE_NAME);
		const tableRef: DataTableRef = byHand ?? { name: AGENT_TABLE_NAME };
		const { wallboard, login: wallboardLogin } = await createWallboardCredentials(api);

		const examples: ImportedExample[] = [];
		for (const { file, workflow } of await readExamples()) {
			const local = needsNoOutsideService(workflow);
			if (!local && SUPERVISION_EXAMPLES.includes(file))
				throw new Error(
					`${file} uses a node the demo does not run; add its type to LOCAL_NODE_TYPES`,
				);
			const created = await api.createWorkflow(
				configureExample(workflow, credential, outputFolder, tableRef, wallboard),
			);
			if (local) await api.activateWorkflow(created.id);
			examples.push({ file, workflow: created, local });
		}
		const table = byHand ?? (await AgentTable.named(api, AGENT_TABLE_NAME));
		mark('examplesImported');
		log(`imported ${examples.length} examples, ${examples.filter((e) => e.local).length} active`);

		const triggered = examples.filter(
			(e) => e.local && e.workflow.nodes.some((node) => node.type === TRIGGER_TYPE),
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
		const alerts = examples.find((e) => e.file === LIVE_ALERTS_EXAMPLE)!.workflow;
		const liveAlert = await playPauses(sim, api, alerts, table, outputFolder);
		mark('liveAlertShown');

		for (const { workflow } of examples.filter((e) => e.local)) {
			const schedule = workflow.nodes.find((node) => node.type === SCHEDULE_TYPE);
			if (!schedule) continue;
			assertSucceeded(workflow, [
				await api.runManually(workflow.id, schedule.name, EXECUTION_TIMEOUT_MS),
			]);
			log(`ran "${workflow.name}" once`);
		}
		sim.shift.start({ eventsPerSecond: options.shiftRate });
		mark('shiftStarted');
		watchShift(sim, table, options.shiftRate);

		if (!options.check) {
			process.stdout.write(banner(n8n, sim, outputFolder, examples, liveAlert, wallboardLogin));
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
		await checkWallboard(wallboardUrl(n8n.api, examples), wallboardLogin);
		mark('checked');
		const summary: DemoSummary = {
			check: 'passed',
			n8nPid: n8n.pid,
			examples: examples.length,
			active: examples.filter((e) => e.local).length,
			executions: executions.length,
			liveAlert,
			timings,
		};
		await stop();
		process.stdout.write(`${JSON.stringify(summary)}\n`);
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Saving slower than this after the event's second: alerts come late (they wait for every save). */
const SAVE_LAG_WARNING_MS = 2000;

/**
 * Every 30 s while the shift runs: the rate it sends, and how long after its second ends n8n
 * saves an event in the agents' table (the median of the agents' newest rows; at or below 0,
 * n8n keeps up), with a warning when n8n falls behind: the machine cannot hold the rate.
 */
function watchShift(sim: DialerSimulator, table: AgentTable, rate: number): void {
	let counted = sim.shift.events.length;
	let countedAt = Date.now();
	const report = async () => {
		const sent = ((sim.shift.events.length - counted) * 1000) / (Date.now() - countedAt);
		counted = sim.shift.events.length;
		countedAt = Date.now();
		const lags = (await table.newest())
			.map((row) => Date.parse(row.createdAt) - Date.parse(row.lastEventAt) - 1000)
			.sort((a, b) => a - b);
		const median = lags[Math.floor(lags.length / 2)];
		log(`shift: ${sent.toFixed(1)} events/s sent; ${savedLately(median)}`);
		if (median !== undefined && median > SAVE_LAG_WARNING_MS)
			log(
				`WARNING: n8n is ${(median / 1000).toFixed(1)} s behind the shift: this machine cannot ` +
					`hold ${rate} events/s, so over-limit alerts come that much later; ` +
					'try a lower --shift-rate, or see README.md, "Production"',
			);
	};
	setInterval(() => void report().catch(() => undefined), 30_000).unref();
}

/** What the shift's log line says of n8n's saving, from the median lag (ms after the event's second). */
export function savedLately(medianLagMs: number | undefined): string {
	if (medianLagMs === undefined) return "no event saved in the agents' table yet";
	if (medianLagMs <= 0) return "n8n keeps up: events are in the agents' table within their second";
	return (
		`n8n saves events ${(medianLagMs / 1000).toFixed(1)} s after their second (median; ` +
		'over-limit alerts wait for those saves)'
	);
}

/** The wallboard's Basic Auth login (an n8n "Basic Auth" credential's fields). */
export interface BasicLogin {
	user: string;
	password: string;
}

/** The wallboard's login and key, made as a user makes them: a random password and passphrase. */
export async function createWallboardCredentials(
	api: N8nApi,
): Promise<{ wallboard: WallboardCredentials; login: BasicLogin }> {
	const login = { user: WALLBOARD_USER, password: `wallboard-${randomBytes(6).toString('hex')}` };
	const wallboard: WallboardCredentials = {
		login: await api.createCredential('httpBasicAuth', 'Wallboard login', login),
		key: await api.createCredential('jwtAuth', 'Wallboard key', {
			keyType: 'passphrase',
			secret: randomBytes(32).toString('hex'),
			algorithm: 'HS256',
		}),
	};
	return { wallboard, login };
}

/** The wallboard example's page: its Webhook's production URL, with the login in it if given. */
export function wallboardUrl(
	api: N8nApi,
	examples: Array<{ file: string; workflow: WorkflowInput }>,
	login?: BasicLogin,
): string {
	const path = examples
		.find((example) => example.file === WALLBOARD_EXAMPLE)!
		.workflow.nodes.find((node) => node.parameters.authentication === 'basicAuth')!.parameters.path;
	const url = new URL(`${api.webhookBaseUrl}/webhook/${String(path)}`);
	if (login) [url.username, url.password] = [login.user, login.password];
	return url.href;
}

/** Where the wallboard's page reads its data, and the key it sends: what the page (with the login) carries. */
export async function openWallboard(
	url: string,
	login: BasicLogin,
): Promise<{ dataUrl: string; headers: Record<string, string> }> {
	const authorization = `Basic ${Buffer.from(`${login.user}:${login.password}`).toString('base64')}`;
	const page = await fetch(url, { headers: { authorization } });
	const html = await page.text();
	const settings = /<script id="settings" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
	if (!page.ok || !settings) throw new Error(`the wallboard page answered ${page.status}`);
	const { key, dataPath } = JSON.parse(settings) as { key: string; dataPath: string };
	return { dataUrl: new URL(dataPath, url).href, headers: { authorization: `Bearer ${key}` } };
}

/**
 * The wallboard answers its page with the login and nothing without it, and its data to the key
 * the page carries.
 */
async function checkWallboard(url: string, login: BasicLogin): Promise<void> {
	const anonymous = await fetch(url);
	if (anonymous.status !== 401)
		throw new Error(`the wallboard answered ${anonymous.status} without the login`);
	const { dataUrl, headers } = await openWallboard(url, login);
	const data = await fetch(dataUrl, { headers });
	const { agents } = (await data.json()) as { agents?: unknown[] };
	if (!agents?.length) throw new Error(`the wallboard's data (${data.status}) lists no agents`);
}

/** The files the scheduled examples write: yesterday's CSV, the morning digest, the agent board. */
async function checkFiles(outputFolder: string): Promise<void> {
	const files = await readdir(outputFolder);
	const csv = files.find((file) => file.startsWith('filled-forms-') && file.endsWith('.csv'));
	if (!csv || !(await readFile(path.join(outputFolder, csv), 'utf8')).includes('Ficha;')) {
		throw new Error(`no filled-forms CSV with a header in ${outputFolder}: ${files.join(', ')}`);
	}
	const digest = files.find((file) => /^morning-digest-.*\.html$/.test(file));
	const digestRows = await readLog(path.join(outputFolder, 'morning-digest.csv'));
	if (
		!digest ||
		!(await readFile(path.join(outputFolder, digest), 'utf8')).includes('Inbound calls')
	) {
		throw new Error(`no morning digest HTML in ${outputFolder}: ${files.join(', ')}`);
	}
	if (digestRows.length !== 1 || !/^\d{4}-\d{2}-\d{2},\d+,/.test(digestRows[0])) {
		throw new Error(`morning-digest.csv should hold one day row: ${digestRows.join(' / ')}`);
	}
	const board = path.join(outputFolder, 'agent-board.txt');
	if (!existsSync(board) || !(await readFile(board, 'utf8')).startsWith('Agent board at ')) {
		throw new Error(`${board} holds no agent board`);
	}
}

if (require.main === module) {
	runDemo(parseArgs(process.argv.slice(2))).catch((error: Error) => {
		log(error.stack ?? error.message);
		process.exitCode = 1;
	});
}
