/**
 * Live supervision in real n8n, fed by the dialer simulator's webhook sender: the examples
 * "Live over-limit pause alerts to a log file" and "Agent board", imported from examples/ and
 * configured as a user does. Most pause limits are a few seconds, waits n8n keeps in memory
 * (under 65 s); one is 70 s, a wait n8n parks in its database. supervision-restart.test.ts
 * restarts an n8n while both kinds of wait are pending.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';

import { type Credential, type Workflow, type WorkflowInput } from '../../harness/n8n/api';
import type { DataTableRef } from '../../harness/n8n/dataTables';
import { registerSecret } from './setup/connection';
import {
	ALERT_LOG,
	alertsIn,
	alertsOf,
	deployAlertExample,
	failure,
	nowSeconds,
	pauseIn,
	readExample,
	settledExecutions as settled,
	type AlertDeployment,
} from './support/liveAlerts';
import {
	AgentTable,
	configureSupervisionExample,
	readLines,
	type AgentRow,
} from './support/supervision';
import { event, post, sleep, TriggerWorkflows } from './support/triggerWorkflows';

const SECRET = `e2e-supervision-secret-${randomUUID()}`;
/**
 * Every pause here starts now and reaches its maximum this many seconds later (room for the ends,
 * sent 1-5 s in, to be saved in time on a machine busy with the other lane's browser: with 6 s, an
 * end saved 3 s late was alerted)...
 */
const LIMIT_SECONDS = 15;
/** ...but one, whose wait n8n keeps in its database (waits of 65 s or more). */
const SLOW_LIMIT_SECONDS = 70;
const SLOW_AGENT = 301;

jest.setTimeout(180_000);

describe('live over-limit pause alerts (examples/live-pause-alerts-to-file.json)', () => {
	let workflows: TriggerWorkflows;
	let credential: Credential;
	let alertWorkflow: Workflow;
	let table: AgentTable;
	/** What the board names beside the alerts: the same table. */
	let tableRef: DataTableRef;
	let outputFolder: string;
	/** A second copy, for the one pause whose wait n8n stores in its database. */
	let slow: AlertDeployment;
	let slowPauseSentAt: number;
	/** What n8n made of that execution once the Wait node ran: "waiting" when parked in the database. */
	let slowWaitStatus: string | undefined;
	const deployments: AlertDeployment[] = [];
	const created: Workflow[] = [];

	/** Waits until the workflow has `count` finished executions and none waiting; all succeeded. */
	async function settledExecutions(count: number, workflow = alertWorkflow, timeoutMs = 60_000) {
		const all = await settled(workflows.api, workflow, count, timeoutMs);
		expect(all.filter((execution) => execution.status !== 'success').map(failure)).toEqual([]);
		return all;
	}

	/** The status the workflow's first execution takes once it stops running. */
	async function statusAfterRunning(workflow: Workflow): Promise<string | undefined> {
		const deadline = Date.now() + 20_000;
		while (Date.now() < deadline) {
			// Not the run that made the table when the workflow was published (an n8n Trigger's).
			const [execution] = (await workflows.api.listExecutions(workflow.id)).filter(
				(candidate) => candidate.mode !== 'trigger',
			);
			if (execution && !['new', 'running'].includes(execution.status)) return execution.status;
			await sleep(200);
		}
		return undefined;
	}

	const alerts = (workflow = alertWorkflow) => alertsIn(workflows.api, workflow);

	/** Waits until each agent's latest row (as the boards read the table) passes `check`. */
	async function waitForRows(check: (rows: AgentRow[]) => boolean, what: string): Promise<void> {
		const deadline = Date.now() + 30_000;
		while (!check([...(await table.latestByAgent()).values()])) {
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
		const deployment = await deployAlertExample(workflows.api, credential);
		deployments.push(deployment);
		return deployment;
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

		const main = await deployAlerts();
		({ workflow: alertWorkflow, table, tableRef, outputFolder } = main);
		workflows.simulator.webhooks.clear();
		workflows.simulator.webhooks.register({ url: main.url, secret: SECRET });
	});

	afterAll(async () => {
		for (const workflow of created) {
			await workflows.api.deactivateWorkflow(workflow.id).catch(() => undefined);
			await workflows.api.deleteWorkflow(workflow.id).catch(() => undefined);
		}
		for (const deployment of deployments) await deployment.remove();
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
			// A pause starting in the same second as the resume would count as ended by it (README,
			// Supervision): the next pause starts a second later.
			// Sent when it happens, as the dialer does (never with a time still to come).
			await sleep(Math.max(0, (secondStart + 1) * 1000 - Date.now()));
			await webhooks.emit(pauseIn(PAUSED_AGAIN, 1, secondStart + 1, LIMIT_SECONDS));
			// 4 first pauses, 3 ends, the second pause: every execution finished, none waiting.
			await settledExecutions(8);
		});

		it("keeps each agent's latest event with its state and open pause", async () => {
			const rows = [...(await table.latestByAgent()).values()];
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
					limitSeconds: LIMIT_SECONDS,
					line: expect.stringMatching(
						new RegExp(
							`^\\S+\\tAgent 101 still paused, ${LIMIT_SECONDS}-s limit reached at \\d\\d:\\d\\d \\(pause 1 since \\d\\d:\\d\\d\\)\\n$`,
						),
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
			expect(Date.parse(found[0].pauseStartedAt)).toBe((secondStart + 1) * 1000);
		});
	});

	describe('the agent board (examples/agent-board.json)', () => {
		let board: Workflow;
		let boardUrl: string;

		/** `count` runs of the board, and the one that made (reused) the table when published. */
		async function settledBoardExecutions(count: number): Promise<void> {
			const executions = await workflows.api.waitForExecutions(board.id, count + 1);
			expect(executions.map((execution) => execution.status)).toEqual(
				executions.map(() => 'success'),
			);
		}

		beforeAll(async () => {
			board = await activate(
				configureSupervisionExample(await readExample('agent-board.json'), {
					credential,
					table: tableRef,
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
			// The board reads the rows saved at least 2 s before it starts.
			await sleep(2000);
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
			expect(lines[4]).toMatch(/^Offline: 103$/);
			// The request is answered before the files are written.
			await settledBoardExecutions(1);
			expect(await readFile(path.join(outputFolder, 'agent-board.txt'), 'utf8')).toBe(text);
			// One line per agent, the table's own id and timestamps left out, a final newline.
			const csv = await readFile(path.join(outputFolder, 'agent-board.csv'), 'utf8');
			const csvLines = csv.split('\n');
			expect(csvLines[0]).toBe('agentId,state,since,pauseId,lastEvent,lastEventAt');
			expect(csvLines.filter((line) => /^105,busy,\S+,,agente\.busy,/.test(line))).toHaveLength(1);
			expect(csvLines.at(-1)).toBe('');
			expect(csvLines.slice(1, -1).map((line) => Number(line.split(',')[0]))).toEqual(
				[...(await table.latestByAgent()).keys()].sort((a, b) => a - b),
			);
		});

		it('every 15 minutes writes the same board to the files (run once now, as "Execute workflow" does)', async () => {
			await rm(path.join(outputFolder, 'agent-board.txt'));
			const execution = await workflows.api.runManually(board.id, 'Every 15 Minutes');
			expect(execution.status).toBe('success');
			const text = await readFile(path.join(outputFolder, 'agent-board.txt'), 'utf8');
			expect(text).toMatch(/^Agent board at .*\nPaused: 101 .*\nOn a call: 105 /s);
		});
	});

	describe('every 10 minutes (run once now, as "Execute workflow" does)', () => {
		it("removes events over two hours old, except each agent's newest and newest pause edge", async () => {
			const own = await deployAlerts();
			const now = nowSeconds();
			const row = (agentId: number, secondsAgo: number, state = 'online') => {
				const at = new Date((now - secondsAgo) * 1000).toISOString();
				return {
					agentId,
					state,
					lastEvent: `agente.${state}`,
					lastEventAt: at,
					eventOrder: (now - secondsAgo) * 10 + 2,
					since: at,
					pauseId: null,
					pauseStartedAt: null,
					pauseLimitAt: null,
					endsPause: ['logout', 'paused'].includes(state) ? 1 : 0,
					receivedAtMs: (now - secondsAgo) * 1000,
				};
			};
			const HOUR = 3600;
			const hours = (count: number) => Math.round(count * HOUR);
			await own.table.insert([
				// Busy all along: three events over two hours old, one within.
				row(701, hours(3)),
				row(701, hours(2.5), 'busy'),
				row(701, hours(2.2)),
				row(701, hours(1.5), 'busy'),
				// Logged out five hours ago and silent since: the board still shows when.
				row(702, hours(5.2)),
				row(702, hours(5), 'logout'),
				// Only recent events.
				row(703, 600),
				row(703, 60, 'busy'),
				// Paused three hours ago, calls inside since: the pause is kept with the newest call.
				row(704, hours(3), 'paused'),
				row(704, hours(2.5), 'busy'),
				row(704, hours(2.2)),
			]);
			const execution = await workflows.api.runManually(own.workflow.id, 'Every 10 Minutes');
			expect(execution.status).toBe('success');
			const left = (await own.table.rows())
				.map((kept) => [kept.agentId, (now * 10 + 2 - kept.eventOrder) / 10])
				.sort(([a, ageA], [b, ageB]) => a - b || ageB - ageA);
			expect(left).toEqual([
				[701, hours(2.2)],
				[701, hours(1.5)],
				[702, hours(5.2)],
				[702, hours(5)],
				[703, 600],
				[703, 60],
				[704, hours(3)],
				[704, hours(2.2)],
			]);
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
				expect.objectContaining({ agentId: SLOW_AGENT, pauseId: '3', limitSeconds: 70 }),
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
