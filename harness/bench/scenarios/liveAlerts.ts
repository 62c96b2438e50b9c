/**
 * The live alerts example (examples/live-pause-alerts-to-file.json) behind the Dialer Trigger, as
 * a floor runs it: imported, configured and published through the target's n8n API, the dialer's
 * webhooks pointed at it, and its executions counted through that API. The same in single mode
 * (SQLite, executions on the main) and in queue mode (PostgreSQL, executions on the workers, the
 * trigger served by every webhook processor): the API reads the shared database either way.
 */
import type { Execution } from '../../n8n/api';
import { waitUntilServed } from '../../n8n/api';
import { exampleTable } from '../../n8n/dataTables';
import { triggerUrl } from '../../n8n/dialer';
import { configureExample, EXAMPLES_DIR, readExamples } from '../../demo';
import type { DialerSimulator } from '../../simulator/types';
import type { Target } from '../lib/target';
import { whenDatabaseReady } from './events';

export const LIVE_ALERTS = 'live-pause-alerts-to-file.json';

export interface LiveAlerts {
	workflowId: string;
	/** Its executions so far, to tell the next burst's own apart. */
	executionIds(): Promise<Set<string>>;
	/**
	 * The executions started since `before` once they have settled: at least `expected` (the
	 * example wants every kind, so one per accepted delivery), then none new for 3 s, for
	 * deliveries n8n answered after the dialer gave up, and none still queued or running (at most
	 * two minutes). In single mode n8n's public API leaves out the executions its process is
	 * running; in queue mode it lists those the workers run, so their status is what tells.
	 */
	settledSince(before: Set<string>, expected: number): Promise<Execution[]>;
}

/** Executions that ran to their end (not failed, not parked at the Wait for a pause's maximum). */
export const finished = (executions: Execution[]): Execution[] =>
	executions.filter((execution) => execution.status === 'success' && execution.stoppedAt);

/** The example, active on a fresh agents table, its trigger answering on every webhook server. */
async function deploy(target: Target, secret: string, outputFolder: string) {
	const example = (await readExamples()).find(({ file }) => file === LIVE_ALERTS);
	if (!example) throw new Error(`${LIVE_ALERTS} is not in ${EXAMPLES_DIR}`);
	const table = await exampleTable(target.api);
	const workflow = await target.api.createWorkflow(
		configureExample(example.workflow, target.dialer, outputFolder, table.ref),
	);
	await target.api.activateWorkflow(workflow.id);
	const webhookId = workflow.nodes.find((node) => node.webhookId)!.webhookId!;
	const url = triggerUrl(target.api, webhookId);
	// Published, the example makes its table in an execution of its own (on a worker in queue mode).
	await table.made();
	for (const server of target.webhookServers)
		await waitUntilServed(url.replace(target.api.webhookBaseUrl, server), {
			'x-webhook-secret': secret,
		});
	return { workflowId: workflow.id, url };
}

/** Deploys the example, points the dialer's webhooks at it for `work`, and unregisters after. */
export async function withLiveAlerts<T>(
	target: Target,
	sim: DialerSimulator,
	secret: string,
	outputFolder: string,
	work: (alerts: LiveAlerts) => Promise<T>,
): Promise<T> {
	const { workflowId, url } = await deploy(target, secret, outputFolder);
	const list = () => whenDatabaseReady(() => target.api.listExecutions(workflowId));
	const alerts: LiveAlerts = {
		workflowId,
		executionIds: async () => new Set((await list()).map((execution) => execution.id)),
		async settledSince(before, expected) {
			const deadline = Date.now() + 120_000;
			let previous = -1;
			let sameSince = Date.now();
			for (;;) {
				const started = (await list()).filter((execution) => !before.has(execution.id));
				if (started.length !== previous) sameSince = Date.now();
				previous = started.length;
				const quiet = Date.now() - sameSince >= 3_000;
				const ended = started.every(({ status }) => status !== 'new' && status !== 'running');
				if ((started.length >= expected && quiet && ended) || Date.now() > deadline) return started;
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		},
	};
	const id = sim.webhooks.register({ url, secret });
	try {
		return await work(alerts);
	} finally {
		sim.webhooks.unregister(id);
	}
}
