/**
 * Live supervision in real n8n, fed by the dialer simulator's webhook sender: the examples
 * "Live over-limit pause alerts to a log file" and "Agent board", imported from examples/ and
 * configured as a user does. Pause limits are a few seconds, so every wait here is one n8n keeps
 * in memory (under 65 s); waits stored in the database are not covered by this file.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';

import type { Credential, Execution, Workflow, WorkflowInput } from '../../scripts/n8n/api';
import type { AgentEvent } from '../../simulator/types';
import { registerSecret } from './setup/connection';
import {
	AgentTable,
	configureSupervisionExample,
	makeOutputFolder,
	readLines,
	removeOutputFolder,
	type AgentRow,
} from './support/supervision';
import { event, post, sleep, TriggerWorkflows } from './support/triggerWorkflows';

const SECRET = `e2e-supervision-secret-${randomUUID()}`;
const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const ALERT_LOG = 'over-limit-pauses.log';
const ALERT_NODE = 'Over-Limit Alert';
/** Every pause here starts now and reaches its maximum this many seconds later... */
const LIMIT_SECONDS = 6;
/** ...but one, whose wait n8n keeps in its database (waits of 65 s or more). */
const SLOW_LIMIT_SECONDS = 70;
const SLOW_AGENT = 301;

jest.setTimeout(180_000);

interface Alert {
	agentId: number;
	pauseId: string;
	pauseStartedAt: string;
	limitAt: string;
	limitMinutes: number;
	minutesOver: number;
	line: string;
	/** When n8n ran the alert node (ms since the epoch). */
	ranAt: number;
}

async function readExample(file: string): Promise<WorkflowInput> {
	return JSON.parse(await readFile(path.join(EXAMPLES, file), 'utf8')) as WorkflowInput;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function pauseIn(agentId: number, pauseId: number, udate: number, durmax: number): AgentEvent {
	return event('agente.pause_in', agentId, { t: udate, pausa_id: pauseId, udate, durmax });
}

function alertsOf(execution: Execution): Alert[] {
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

/** A waiting execution parked in the database has a stoppedAt too: only its status tells. */
function isFinished(execution: Execution): boolean {
	return Boolean(execution.stoppedAt) && execution.status !== 'waiting';
}

/** What went wrong in an execution, as the editor shows it. */
function failure(execution: Execution): string {
	const { resultData } = execution.data as {
		resultData: { error?: { message?: string }; lastNodeExecuted?: string };
	};
	return `${execution.status} in ${resultData.lastNodeExecuted}: ${resultData.error?.message}`;
}

/** One copy of the alert example, active, with its own data table and output folder. */
interface AlertDeployment {
	workflow: Workflow;
	url: string;
	table: AgentTable;
	outputFolder: string;
}

describe('live over-limit pause alerts (examples/live-pause-alerts-to-file.json)', () => {
	let workflows: TriggerWorkflows;
	let credential: Credential;
	let alertWorkflow: Workflow;
	let table: AgentTable;
	let outputFolder: string;
	/** A second copy, for the one pause whose wait n8n stores in its database. */
	let slow: AlertDeployment;
	let slowPauseSentAt: number;
	/** What n8n made of that execution once the Wait node ran: "waiting" when parked in the database. */
	let slowWaitStatus: string | undefined;
	const created: Workflow[] = [];
	const tables: AgentTable[] = [];
	const folders: string[] = [];

	async function executionsOf(workflow: Workflow, includeData = false): Promise<Execution[]> {
		return workflows.api.listExecutions(workflow.id, includeData);
	}

	/** Waits until the workflow has `count` finished executions and no waiting one; returns all. */
	async function settledExecutions(
		count: number,
		workflow = alertWorkflow,
		timeoutMs = 60_000,
	): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const executions = await executionsOf(workflow);
			const finished = executions.filter(isFinished);
			if (finished.length >= count && finished.length === executions.length) {
				const all = await executionsOf(workflow, true);
				expect(all.filter((execution) => execution.status !== 'success').map(failure)).toEqual([]);
				return all;
			}
			if (Date.now() > deadline)
				throw new Error(`${finished.length} of ${count} executions finished in ${timeoutMs} ms`);
			await sleep(250);
		}
	}

	/** The status the workflow's first execution takes once it stops running. */
	async function statusAfterRunning(workflow: Workflow): Promise<string | undefined> {
		const deadline = Date.now() + 20_000;
		while (Date.now() < deadline) {
			const [execution] = await executionsOf(workflow);
			if (execution && !['new', 'running'].includes(execution.status)) return execution.status;
			await sleep(200);
		}
		return undefined;
	}

	async function alerts(workflow = alertWorkflow): Promise<Alert[]> {
		const executions = await executionsOf(workflow, true);
		return executions.filter(isFinished).flatMap(alertsOf);
	}

	async function waitForRows(check: (rows: AgentRow[]) => boolean, what: string): Promise<void> {
		const deadline = Date.now() + 30_000;
		while (!check(await table.rows())) {
			if (Date.now() > deadline) throw new Error(`the data table never showed ${what}`);
			await sleep(200);
		}
	}

	async function activate(workflow: WorkflowInput): Promise<Workflow> {
		const made = await workflows.api.createWorkflow(workflow);
		created.push(made);
		await workflows.api.activateWorkflow(made.id);
		return made;
	}

	async function deployAlerts(): Promise<AlertDeployment> {
		const deployment = {
			table: await AgentTable.create(workflows.api),
			outputFolder: await makeOutputFolder(),
		};
		tables.push(deployment.table);
		folders.push(deployment.outputFolder);
		const workflow = await activate(
			configureSupervisionExample(await readExample('live-pause-alerts-to-file.json'), {
				credential,
				...deployment,
			}),
		);
		const trigger = workflow.nodes.find((node) => node.name === 'Agent Events')!;
		const url = `${workflows.api.webhookBaseUrl}/webhook/${trigger.webhookId}/webhook`;
		for (let i = 0; i < 50; i++) {
			const probe = await post(url, '{}', { 'content-type': 'application/json' });
			if (probe.status !== 404) break;
			await sleep(200);
		}
		return { workflow, url, ...deployment };
	}

	beforeAll(async () => {
		registerSecret(SECRET);
		workflows = await TriggerWorkflows.start();
		credential = await workflows.createCredential(SECRET);
		// The slow pause first, so its long wait runs alongside everything else.
		slow = await deployAlerts();
		slowPauseSentAt = nowSeconds();
		const sent = await post(
			slow.url,
			JSON.stringify(pauseIn(SLOW_AGENT, 3, slowPauseSentAt, SLOW_LIMIT_SECONDS)),
			{ 'content-type': 'application/json', 'x-webhook-secret': SECRET },
		);
		expect(sent.status).toBe(200);
		slowWaitStatus = await statusAfterRunning(slow.workflow);

		({ workflow: alertWorkflow, table, outputFolder } = await deployAlerts());
		const url = `${workflows.api.webhookBaseUrl}/webhook/${
			alertWorkflow.nodes.find((node) => node.name === 'Agent Events')!.webhookId
		}/webhook`;
		workflows.simulator.webhooks.clear();
		workflows.simulator.webhooks.register({ url, secret: SECRET });
	});

	afterAll(async () => {
		for (const workflow of created) {
			await workflows.api.deactivateWorkflow(workflow.id).catch(() => undefined);
			await workflows.api.deleteWorkflow(workflow.id).catch(() => undefined);
		}
		for (const made of tables) await made.delete().catch(() => undefined);
		for (const folder of folders) await removeOutputFolder(folder);
		await workflows?.close();
	});

	describe('four agents, one pause each, all reaching their maximum at the same moment', () => {
		const OVER = 101;
		const IN_TIME = 102;
		const LOGGED_OUT = 103;
		const PAUSED_AGAIN = 104;
		let firstStart: number;
		let secondStart: number;

		beforeAll(async () => {
			const { webhooks } = workflows.simulator;
			firstStart = nowSeconds();
			await Promise.all(
				[OVER, IN_TIME, LOGGED_OUT, PAUSED_AGAIN].map((agent) =>
					webhooks.emit(pauseIn(agent, 1, firstStart, LIMIT_SECONDS)),
				),
			);
			await waitForRows(
				(rows) => rows.filter((row) => row.state === 'paused').length === 4,
				'four paused agents',
			);
			// The agent who pauses again starts the second pause a second later, as the dialer's
			// whole-second times would show it.
			await sleep(1100);
			secondStart = nowSeconds();
			await webhooks.emit(event('agente.pause_out', IN_TIME, { t: secondStart }));
			await webhooks.emit(event('agente.logout', LOGGED_OUT, { t: secondStart }));
			await webhooks.emit(event('agente.pause_out', PAUSED_AGAIN, { t: secondStart }));
			await waitForRows(
				(rows) => rows.find((row) => row.agentId === PAUSED_AGAIN)?.state === 'online',
				'agent 104 back from the first pause',
			);
			await webhooks.emit(pauseIn(PAUSED_AGAIN, 1, secondStart, LIMIT_SECONDS));
			// 4 first pauses, 3 ends, the second pause: every execution finished, none waiting.
			await settledExecutions(8);
		});

		it('keeps one row per agent with its state, last event and open pause', async () => {
			const rows = await table.rows();
			expect(rows.map((row) => row.agentId).sort()).toEqual([101, 102, 103, 104]);
			const byAgent = new Map(rows.map((row) => [row.agentId, row]));
			expect(byAgent.get(OVER)).toMatchObject({
				state: 'paused',
				lastEvent: 'agente.pause_in',
				pauseId: '1',
				pauseStartedAt: expect.stringMatching(/-03:00$/),
				pauseLimitAt: expect.stringMatching(/-03:00$/),
			});
			expect(byAgent.get(IN_TIME)).toMatchObject({
				state: 'online',
				lastEvent: 'agente.pause_out',
				pauseId: null,
			});
			expect(byAgent.get(LOGGED_OUT)).toMatchObject({
				state: 'offline',
				lastEvent: 'agente.logout',
				pauseId: null,
			});
			expect(
				Date.parse(byAgent.get(OVER)!.pauseLimitAt!) - Date.parse(byAgent.get(OVER)!.since),
			).toBe(LIMIT_SECONDS * 1000);
		});

		it('alerts a pause over its limit exactly once, when the limit passes and not before', async () => {
			const found = (await alerts()).filter((alert) => alert.agentId === OVER);
			expect(found).toEqual([
				expect.objectContaining({
					agentId: OVER,
					pauseId: '1',
					limitMinutes: 0,
					minutesOver: 0,
					line: expect.stringMatching(
						/^\S+\tAgent 101 is still in pause 1: limit 0 min, reached at \d\d:\d\d:\d\d, 0 min over\n$/,
					),
				}),
			]);
			const [alert] = found;
			expect(Date.parse(alert.limitAt)).toBe((firstStart + LIMIT_SECONDS) * 1000);
			const lagMs = alert.ranAt - Date.parse(alert.limitAt);
			console.log(`over-limit alert ran ${lagMs} ms after the pause's maximum`);
			expect(lagMs).toBeGreaterThanOrEqual(0);
			const lines = await readLines(path.join(outputFolder, ALERT_LOG));
			expect(lines.filter((line) => line.includes('Agent 101 '))).toEqual([alert.line.trimEnd()]);
		});

		it('never alerts a pause that ended in time, or an agent who logged out', async () => {
			const found = await alerts();
			expect(found.filter((alert) => [IN_TIME, LOGGED_OUT].includes(alert.agentId))).toEqual([]);
		});

		it("alerts the agent's next pause at its own limit, never the earlier one", async () => {
			const found = (await alerts()).filter((alert) => alert.agentId === PAUSED_AGAIN);
			expect(found).toHaveLength(1);
			expect(Date.parse(found[0].pauseStartedAt)).toBe(secondStart * 1000);
		});
	});

	describe('50 agents pausing at once', () => {
		const agents = Array.from({ length: 50 }, (_, i) => 201 + i);
		/** Every third agent stays in the pause; the others come back or log out in time. */
		const staying = agents.filter((agent) => agent % 3 === 0);
		let executionsBefore = 0;

		beforeAll(async () => {
			const { webhooks } = workflows.simulator;
			executionsBefore = (await workflows.api.listExecutions(alertWorkflow.id)).length;
			const start = nowSeconds();
			// Long enough for n8n to take in 50 events and 34 ends before the limit.
			const limit = 15;
			const deliveries = await Promise.all(
				agents.map((agent) => webhooks.emit(pauseIn(agent, 2, start, limit))),
			);
			expect(deliveries.flat().map((delivery) => delivery.status)).toEqual(agents.map(() => 200));
			await waitForRows(
				(rows) => rows.filter((row) => agents.includes(row.agentId)).length === agents.length,
				'a row for each of the 50 agents',
			);
			const leaving = agents.filter((agent) => !staying.includes(agent));
			await Promise.all(
				leaving.map((agent) =>
					webhooks.emit(
						event(agent % 2 ? 'agente.logout' : 'agente.pause_out', agent, { t: nowSeconds() }),
					),
				),
			);
			await settledExecutions(executionsBefore + agents.length + leaving.length);
		});

		it('alerts exactly the agents still paused at the limit, once each', async () => {
			const found = (await alerts()).filter((alert) => agents.includes(alert.agentId));
			expect(found.map((alert) => alert.agentId).sort()).toEqual(staying);
			const lines = await readLines(path.join(outputFolder, ALERT_LOG));
			const alerted = lines
				.map((line) => /\tAgent (\d+) is still in pause 2:/.exec(line)?.[1])
				.filter(Boolean)
				.map(Number)
				.sort();
			expect(alerted).toEqual(staying);
		});

		it("never lets one agent's event overwrite another's row", async () => {
			const rows = (await table.rows()).filter((row) => agents.includes(row.agentId));
			expect(rows).toHaveLength(agents.length);
			for (const row of rows) {
				const expected = staying.includes(row.agentId)
					? 'paused'
					: row.agentId % 2
						? 'offline'
						: 'online';
				expect({ agent: row.agentId, state: row.state }).toEqual({
					agent: row.agentId,
					state: expected,
				});
			}
		});
	});

	describe('the agent board (examples/agent-board.json)', () => {
		let board: Workflow;
		let boardUrl: string;

		async function settledBoardExecutions(count: number): Promise<void> {
			const executions = await workflows.api.waitForExecutions(board.id, count);
			expect(executions.map((execution) => execution.status)).toEqual(
				executions.map(() => 'success'),
			);
		}

		beforeAll(async () => {
			board = await activate(
				configureSupervisionExample(await readExample('agent-board.json'), {
					credential,
					table,
					outputFolder,
				}),
			);
			const webhook = board.nodes.find((node) => node.name === 'Board on Demand')!;
			boardUrl = `${workflows.api.webhookBaseUrl}/webhook/${String(webhook.parameters.path)}`;
			await workflows.simulator.webhooks.emit(
				event('agente.busy', 105, { t: nowSeconds(), udate: nowSeconds() }),
			);
			await waitForRows(
				(rows) => rows.some((row) => row.agentId === 105 && row.state === 'busy'),
				'agent 105 on a call',
			);
		});

		it('answers on demand with who is paused and since when, who is on a call, who is offline', async () => {
			let res = await request(boardUrl);
			for (let i = 0; i < 50 && res.statusCode === 404; i++) {
				await res.body.dump();
				await sleep(200);
				res = await request(boardUrl);
			}
			const text = await res.body.text();
			expect(res.statusCode).toBe(200);
			const lines = text.split('\n');
			expect(lines[0]).toMatch(/^Agent board at \d{4}-\d\d-\d\d \d\d:\d\d$/);
			expect(lines[1]).toMatch(/^Paused: 101 \(pause 1 since \d\d:\d\d\), 104 \(pause 1 since/);
			expect(lines[2]).toMatch(/^On a call: 105 \(since \d\d:\d\d\)$/);
			expect(lines[3]).toContain('Available: 102');
			expect(lines[4]).toMatch(/^Offline: 103, 203, /);
			// The request is answered before the files are written.
			await settledBoardExecutions(1);
			expect(await readFile(path.join(outputFolder, 'agent-board.txt'), 'utf8')).toBe(text);
			const csv = (await readFile(path.join(outputFolder, 'agent-board.csv'), 'utf8')).split('\n');
			expect(csv[0]).toContain('agentId');
			expect(csv.filter((line) => /(^|,)105,busy,/.test(line))).toHaveLength(1);
		});

		it('every 15 minutes writes the same board to the files (run once now, as "Execute workflow" does)', async () => {
			await rm(path.join(outputFolder, 'agent-board.txt'));
			const { executionId } = await workflows.api.rest<{ executionId: string }>(
				'POST',
				`/rest/workflows/${board.id}/run`,
				{ triggerToStartFrom: { name: 'Every 15 Minutes' } },
			);
			const deadline = Date.now() + 30_000;
			let execution = await workflows.api.getExecution(executionId);
			while (!execution.stoppedAt && Date.now() < deadline) {
				await sleep(250);
				execution = await workflows.api.getExecution(executionId);
			}
			expect(execution.status).toBe('success');
			const text = await readFile(path.join(outputFolder, 'agent-board.txt'), 'utf8');
			expect(text).toMatch(/^Agent board at .*\nPaused: 101 .*\nOn a call: 105 /s);
		});
	});

	describe(`a pause whose maximum is ${SLOW_LIMIT_SECONDS} s away (n8n stores the wait in its database)`, () => {
		it('is parked as a waiting execution, then alerted once when the maximum passes', async () => {
			expect(slowWaitStatus).toBe('waiting');
			const [execution] = await settledExecutions(
				1,
				slow.workflow,
				(SLOW_LIMIT_SECONDS + 60) * 1000,
			);
			const found = alertsOf(execution);
			expect(found).toEqual([
				expect.objectContaining({ agentId: SLOW_AGENT, pauseId: '3', limitMinutes: 1 }),
			]);
			expect(Date.parse(found[0].limitAt)).toBe((slowPauseSentAt + SLOW_LIMIT_SECONDS) * 1000);
			const lagMs = found[0].ranAt - Date.parse(found[0].limitAt);
			console.log(`database-stored wait: alert ran ${lagMs} ms after the pause's maximum`);
			expect(lagMs).toBeGreaterThanOrEqual(0);
			expect(await readLines(path.join(slow.outputFolder, ALERT_LOG))).toEqual([
				found[0].line.trimEnd(),
			]);
		});
	});
});
