/**
 * The live over-limit pause alerts (examples/live-pause-alerts-to-file.json) across a restart of
 * n8n while both kinds of wait are pending: waits of 65 s or more, which n8n parks in its
 * database, and shorter ones it keeps in memory. The stop's grace here is 10 s, as `docker stop`
 * gives; supervision-graceful-restart.test.ts sets n8n's graceful shutdown longer than the waits.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import type { Execution } from '../../harness/n8n/api';
import type { AgentEvent } from '../../harness/simulator/types';
import { readConnection } from './setup/connection';
import {
	agentOf,
	ALERT_LOG,
	alertsOf,
	nowSeconds,
	pauseIn,
	settledExecutions as settled,
	startOwnAlertN8n,
	type AlertDeployment,
	type OwnAlertN8n,
} from './support/liveAlerts';
import { readLines } from './support/supervision';
import { event, sleep } from './support/triggerWorkflows';

const SECRET = `e2e-supervision-restart-secret-${randomUUID()}`;

jest.setTimeout(180_000);

/**
 * Its own n8n is startN8n's default, the newest 2.x: in the n8n 1.x run (e2e-n8n1) it would
 * only repeat the e2e run's case, so it is left to that run.
 */
const n8n2Only = readConnection().n8nVersion.startsWith('2.') ? describe : describe.skip;

n8n2Only('n8n restarted while over-limit alerts wait for their pause maximum (its own n8n)', () => {
	/** n8n parks these waits in its database (65 s or more away when the Wait node runs)... */
	const PARKED_LIMIT_SECONDS = 70;
	/** ...and keeps these in memory, sleeping inside the running execution. */
	const IN_MEMORY_LIMIT_SECONDS = 40;
	const PARKED_STAYING = 401;
	const PARKED_BACK = 402;
	const IN_MEMORY_STAYING = 403;
	const IN_MEMORY_BACK = 404;
	let own: OwnAlertN8n | undefined;
	let deployment: AlertDeployment;
	let start: number;
	let executions: Execution[];
	let restartedAt: number;
	const send = (agentEvent: AgentEvent) => own!.send(agentEvent);

	beforeAll(async () => {
		own = await startOwnAlertN8n('supervision-restart', SECRET, { N8N_LOG_LEVEL: 'info' });
		const { n8n } = own;
		const { api } = n8n;
		deployment = own.deployment;
		start = nowSeconds();
		await send(pauseIn(PARKED_STAYING, 5, start, PARKED_LIMIT_SECONDS));
		await send(pauseIn(PARKED_BACK, 5, start, PARKED_LIMIT_SECONDS));
		await send(pauseIn(IN_MEMORY_STAYING, 5, start, IN_MEMORY_LIMIT_SECONDS));
		await send(pauseIn(IN_MEMORY_BACK, 5, start, IN_MEMORY_LIMIT_SECONDS));
		// Every pause is in the table and at its Wait node: two parked (listed as waiting), two
		// sleeping in running executions (the public API lists no running execution).
		const deadline = Date.now() + 30_000;
		for (;;) {
			const waiting = (await api.listExecutions(deployment.workflow.id)).filter(
				(execution) => execution.status === 'waiting',
			);
			const paused = (await deployment.table.rows()).filter((row) => row.state === 'paused');
			if (waiting.length === 2 && paused.length === 4) break;
			if (Date.now() > deadline)
				throw new Error(`before the restart: ${waiting.length} waiting, ${paused.length} paused`);
			await sleep(250);
		}
		await sleep(1000);

		const restartStarted = Date.now();
		await n8n.restart();
		restartedAt = restartStarted;
		console.log(
			`n8n restart (stop, start, ready) took ${Date.now() - restartStarted} ms, ` +
				`done ${nowSeconds() - start} s after the pauses began`,
		);
		// Two agents come back before their maximum, after the restart.
		await send(event('agente.pause_out', PARKED_BACK, { t: nowSeconds() }));
		await send(event('agente.pause_out', IN_MEMORY_BACK, { t: nowSeconds() }));
		executions = await settled(api, deployment.workflow, 6, (PARKED_LIMIT_SECONDS + 60) * 1000);
	}, 240_000);

	afterAll(() => own?.stop(), 60_000);

	it('alerts the pause parked in the database once, after its maximum, as without a restart', async () => {
		const found = executions.flatMap(alertsOf);
		expect(found).toEqual([
			expect.objectContaining({ agentId: PARKED_STAYING, pauseId: '5', limitSeconds: 70 }),
		]);
		expect(Date.parse(found[0].limitAt)).toBe((start + PARKED_LIMIT_SECONDS) * 1000);
		const lagMs = found[0].ranAt - Date.parse(found[0].limitAt);
		console.log(`parked wait across a restart: alert ran ${lagMs} ms after the pause's maximum`);
		expect(lagMs).toBeGreaterThanOrEqual(0);
		expect(await readLines(path.join(deployment.outputFolder, ALERT_LOG))).toEqual([
			found[0].line.trimEnd(),
		]);
	});

	it("reuses the agents' table when n8n starts: Instance Started finds the same table, rows kept", async () => {
		type Run = { data?: { main?: Array<Array<{ json: { id?: string } }>> } };
		const tableOf = (execution: Execution) => {
			const data = execution.data as { resultData?: { runData?: Record<string, Run[]> } };
			return data.resultData?.runData?.['Create or Reuse the Table']?.[0]?.data?.main?.[0]?.[0]
				?.json.id;
		};
		const atStart = (await own!.n8n.api.listExecutions(deployment.workflow.id, true)).filter(
			(execution) =>
				execution.mode === 'trigger' &&
				Date.parse(execution.startedAt) >= restartedAt &&
				tableOf(execution) !== undefined,
		);
		expect(atStart.map((execution) => [execution.status, tableOf(execution)])).toEqual([
			['success', deployment.table.id],
		]);
		expect((await deployment.table.rows()).length).toBeGreaterThan(0);
	});

	it('resumes the parked wait of a pause that ended after the restart, and does not alert it', () => {
		const back = executions.filter((execution) => agentOf(execution) === PARKED_BACK);
		expect(back.map((execution) => execution.status)).toEqual(['success', 'success']);
		expect(back.flatMap(alertsOf)).toEqual([]);
	});

	it('loses the waits n8n kept in memory: they end "crashed" and a pause still open past its maximum is never alerted', async () => {
		// Stopping n8n waits for running executions; the stop's grace (10 s here, as `docker stop`)
		// ends before the wait does, and the next start marks what was running as crashed.
		expect(executions.filter((execution) => execution.status === 'crashed')).toHaveLength(2);
		expect(
			executions
				.filter((execution) => execution.status === 'success')
				.map(agentOf)
				.sort(),
		).toEqual([PARKED_STAYING, PARKED_BACK, PARKED_BACK, IN_MEMORY_BACK]);
		const rows = await deployment.table.rows();
		expect(rows.find((row) => row.agentId === IN_MEMORY_STAYING)?.state).toBe('paused');
		expect(Date.now()).toBeGreaterThan((start + IN_MEMORY_LIMIT_SECONDS) * 1000);
	});
});
