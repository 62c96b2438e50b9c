/**
 * The example "Live over-limit pause alerts to a log file" in n8n queue mode, fed by the dialer
 * simulator's webhook sender through the webhook processor: the agents' data table lives in
 * PostgreSQL, every execution runs on a worker, and a wait of 65 s or more is parked in the
 * database, then resumed by the main process on a worker when the pause's maximum comes.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import type { Credential, Execution, N8nApi } from '../../harness/n8n/api';
import { simulatorCredential } from '../../harness/n8n/dialer';
import { startedByWorker } from '../../harness/queue-mode/burst';
import { startSimulator } from '../../harness/simulator';
import type { DialerSimulator } from '../../harness/simulator/types';
import { connectN8n, registerSecret } from '../e2e/setup/connection';
import {
	agentOf,
	ALERT_LOG,
	alertsOf,
	deployAlertExample,
	failure,
	nowSeconds,
	pauseIn,
	settledExecutions,
	type Alert,
	type AlertDeployment,
} from '../e2e/support/liveAlerts';
import { readLines, type AgentRow } from '../e2e/support/supervision';
import { event, sleep } from '../e2e/support/triggerWorkflows';
import { readQueueConnection } from './setup/connection';

const SECRET = `queue-supervision-secret-${randomUUID()}`;
/** Waits a worker keeps in memory (under 65 s)... */
const LIMIT_SECONDS = 15;
/** ...and one n8n parks in the database. */
const PARKED_LIMIT_SECONDS = 70;

jest.setTimeout(240_000);

describe('live over-limit pause alerts in queue mode (examples/live-pause-alerts-to-file.json)', () => {
	const { workers } = readQueueConnection();
	/** Stay in the pause past its maximum. */
	const staying = [501, 502, 503, 504];
	const backInTime = [505, 506, 507];
	const loggedOut = [508, 509];
	const PARKED_STAYING = 520;
	const PARKED_BACK = 521;
	let api: N8nApi;
	let sim: DialerSimulator;
	let credential: Credential;
	let deployment: AlertDeployment;
	let start: number;
	let parkedStart: number;
	let executions: Execution[];
	let alerts: Alert[];

	/** Waits until each agent's latest row (as the boards read the table) passes `check`. */
	async function waitForRows(check: (rows: AgentRow[]) => boolean, what: string): Promise<void> {
		const deadline = Date.now() + 30_000;
		while (!check([...(await deployment.table.latestByAgent()).values()])) {
			if (Date.now() > deadline) throw new Error(`the data table never showed ${what}`);
			await sleep(200);
		}
	}

	beforeAll(async () => {
		registerSecret(SECRET);
		api = await connectN8n();
		sim = await startSimulator();
		registerSecret(sim.token);
		credential = await api.createCredential(
			'dialerApi',
			`Dialer supervision ${randomUUID().slice(0, 8)}`,
			simulatorCredential(sim, SECRET),
		);
		deployment = await deployAlertExample(api, credential);
		sim.webhooks.register({ url: deployment.url, secret: SECRET });
		const emit = async (...events: Parameters<typeof sim.webhooks.emit>[0][]) => {
			const deliveries = await Promise.all(events.map((e) => sim.webhooks.emit(e)));
			expect(deliveries.flat().map((delivery) => delivery.status)).toEqual(events.map(() => 200));
		};

		// The parked pauses first, so their long waits run alongside the others.
		parkedStart = nowSeconds();
		await emit(
			pauseIn(PARKED_STAYING, 7, parkedStart, PARKED_LIMIT_SECONDS),
			pauseIn(PARKED_BACK, 7, parkedStart, PARKED_LIMIT_SECONDS),
		);
		const everyone = [...staying, ...backInTime, ...loggedOut];
		start = nowSeconds();
		await emit(...everyone.map((agent) => pauseIn(agent, 6, start, LIMIT_SECONDS)));
		await waitForRows(
			(rows) => rows.filter((row) => row.state === 'paused').length === everyone.length + 2,
			'every agent paused',
		);
		await emit(
			...backInTime.map((agent) => event('agente.pause_out', agent, { t: nowSeconds() })),
			...loggedOut.map((agent) => event('agente.logout', agent, { t: nowSeconds() })),
			event('agente.pause_out', PARKED_BACK, { t: nowSeconds() }),
		);
		await waitForRows(
			(rows) => rows.filter((row) => row.state === 'paused').length === staying.length + 1,
			'only the staying agents paused',
		);
		// Two parked pauses, nine in memory, six ends; every execution finished, none waiting.
		executions = await settledExecutions(api, deployment.workflow, 17, 150_000);
		alerts = executions.flatMap(alertsOf);
	}, 240_000);

	afterAll(async () => {
		await deployment?.remove();
		if (credential) await api.deleteCredential(credential.id).catch(() => undefined);
		await sim?.close();
	});

	it('runs every execution to success on a worker, none on the main or the webhook processor', () => {
		expect(executions.filter((execution) => execution.status !== 'success').map(failure)).toEqual(
			[],
		);
		const onWorkers = startedByWorker(workers);
		expect(executions.filter((execution) => !onWorkers.has(execution.id))).toEqual([]);
	});

	it('alerts each pause over its limit exactly once, after the limit, and no other', async () => {
		expect(alerts.map((alert) => alert.agentId).sort()).toEqual([...staying, PARKED_STAYING]);
		for (const alert of alerts) {
			const started = alert.agentId === PARKED_STAYING ? parkedStart : start;
			const limit = alert.agentId === PARKED_STAYING ? PARKED_LIMIT_SECONDS : LIMIT_SECONDS;
			expect(Date.parse(alert.limitAt)).toBe((started + limit) * 1000);
			expect(alert.ranAt).toBeGreaterThanOrEqual(Date.parse(alert.limitAt));
		}
		const lateness = (alert: Alert) => alert.ranAt - Date.parse(alert.limitAt);
		console.log(
			`queue mode: in-memory waits alerted ${alerts
				.filter((alert) => alert.agentId !== PARKED_STAYING)
				.map(lateness)
				.join(', ')} ms after the maximum; the parked one ${alerts
				.filter((alert) => alert.agentId === PARKED_STAYING)
				.map(lateness)
				.join(', ')} ms`,
		);
		const lines = await readLines(path.join(deployment.outputFolder, ALERT_LOG));
		expect(lines.sort()).toEqual(alerts.map((alert) => alert.line.trimEnd()).sort());
	});

	it('resumes the wait parked in the database on a worker: the execution is started there twice', () => {
		const parked = executions.filter(
			(execution) => agentOf(execution) === PARKED_STAYING && alertsOf(execution).length > 0,
		);
		expect(parked).toHaveLength(1);
		const startedOn = startedByWorker(workers).get(parked[0].id) ?? [];
		console.log(`parked execution ${parked[0].id} started on ${startedOn.join(' then ')}`);
		expect(startedOn).toHaveLength(2);
	});

	it("keeps every agent's latest event in the PostgreSQL data table", async () => {
		const latest = await deployment.table.latestByAgent();
		const state = (agent: number) => latest.get(agent)?.state;
		expect([...staying, PARKED_STAYING].map(state)).toEqual(
			[...staying, PARKED_STAYING].map(() => 'paused'),
		);
		expect([...backInTime, PARKED_BACK].map(state)).toEqual(
			[...backInTime, PARKED_BACK].map(() => 'online'),
		);
		expect(loggedOut.map(state)).toEqual(loggedOut.map(() => 'offline'));
	});
});
