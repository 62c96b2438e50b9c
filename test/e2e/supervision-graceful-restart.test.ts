/**
 * The live over-limit pause alerts across a restart of an n8n set up for it: n8n's stop waits for
 * running executions up to N8N_GRACEFUL_SHUTDOWN_TIMEOUT, and a wait under 65 s sleeps inside a
 * running execution. With that timeout (and the stop's grace, e.g. `docker stop -t`) longer than
 * the shortest wait, those alerts are delivered before n8n exits instead of being lost
 * (supervision-restart.test.ts shows the loss with a 10 s grace). Its own n8n, the default 2.x.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import type { Execution } from '../../harness/n8n/api';
import { readConnection } from './setup/connection';
import {
	agentOf,
	ALERT_LOG,
	alertsOf,
	nowSeconds,
	pauseIn,
	settledExecutions,
	startOwnAlertN8n,
	type AlertDeployment,
	type OwnAlertN8n,
} from './support/liveAlerts';
import { readLines } from './support/supervision';

const SECRET = `e2e-graceful-restart-secret-${randomUUID()}`;
/** n8n's own setting, in seconds: how long its stop waits for running executions. */
const GRACEFUL_SHUTDOWN_SECONDS = 60;
/** Both maxima are under 65 s away, so n8n keeps these waits in memory. */
const LIMITS = new Map([
	[501, 15],
	[502, 20],
]);

const n8n2Only = readConnection().n8nVersion.startsWith('2.') ? describe : describe.skip;

n8n2Only('n8n restarted with a graceful shutdown longer than the waits (its own n8n)', () => {
	let own: OwnAlertN8n | undefined;
	let deployment: AlertDeployment;
	let start: number;
	let executions: Execution[];

	beforeAll(async () => {
		own = await startOwnAlertN8n('supervision-graceful-restart', SECRET, {
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(GRACEFUL_SHUTDOWN_SECONDS),
		});
		const { n8n } = own;
		deployment = own.deployment;
		start = nowSeconds();
		for (const [agentId, limit] of LIMITS) await own.send(pauseIn(agentId, 7, start, limit));
		// Both executions have saved the agent's row and are sleeping at their Wait node.
		while ((await deployment.table.rows()).filter((row) => row.state === 'paused').length < 2)
			await new Promise((resolve) => setTimeout(resolve, 250));

		const stopStarted = Date.now();
		await n8n.restart({ graceMs: (GRACEFUL_SHUTDOWN_SECONDS + 10) * 1000 });
		console.log(`graceful restart (stop, start, ready) took ${Date.now() - stopStarted} ms`);
		executions = await settledExecutions(n8n.api, deployment.workflow, LIMITS.size);
	}, 180_000);

	afterAll(() => own?.stop(), 60_000);

	it('delivers the alerts of waits n8n kept in memory before it exits, once each, at their maximum', async () => {
		expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		const alerts = executions.flatMap(alertsOf);
		expect(alerts.map((alert) => alert.agentId).sort()).toEqual([...LIMITS.keys()]);
		for (const alert of alerts) {
			const maximum = (start + LIMITS.get(alert.agentId)!) * 1000;
			expect(Date.parse(alert.limitAt)).toBe(maximum);
			expect(alert.ranAt).toBeGreaterThanOrEqual(maximum);
			console.log(
				`in-memory wait across a graceful restart: alert ${alert.ranAt - maximum} ms late`,
			);
		}
		expect((await readLines(path.join(deployment.outputFolder, ALERT_LOG))).sort()).toEqual(
			alerts.map((alert) => alert.line.trimEnd()).sort(),
		);
		expect(executions.map(agentOf).sort()).toEqual([...LIMITS.keys()]);
	});
});
