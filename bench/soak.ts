/**
 * `npx tsx bench/soak.ts [--minutes 1] [--rate 10] [--version 2|1] [--env NAME=VALUE]
 * [--save-successful]`: the live over-limit pause alerts example
 * (examples/live-pause-alerts-to-file.json, its own settings: successful executions not saved) fed by the simulator's shift at `--rate` events per second for
 * `--minutes`, in a fresh n8n with the recommended settings. Prints, minute by minute, how far
 * behind n8n was (from an event's second to the moment its row was saved: under 2 s, the wait the
 * alert gives late events, keeps every alert right) and whether the machine held the rate.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { configureExample, EXAMPLES_DIR } from '../scripts/demo';
import type { WorkflowInput } from '../scripts/n8n/api';
import { waitUntilServed } from '../scripts/n8n/api';
import { AgentTable } from '../scripts/n8n/dataTables';
import { RECOMMENDED_N8N_SETTINGS, triggerUrl } from '../scripts/n8n/dialer';
import { N8N_VERSION_ENV, selectedN8nVersion } from '../scripts/n8n/runtime';
import { startSimulator } from '../simulator';
import { envFlags, flagValue } from './lib/args';
import { percentile } from './lib/stats';
import { log, startTarget } from './lib/target';

/** The most an event may take to be saved, from the start of its second, for alerts to stay right. */
const KEEPS_UP_MS = 3000;

interface MinuteFigures {
	minute: number;
	events: number;
	/** From the start of the event's second to its row, ms. */
	p50: number;
	p99: number;
	max: number;
}

async function main(argv: string[]): Promise<void> {
	const minutes = Number(flagValue(argv, '--minutes') ?? 1);
	const rate = Number(flagValue(argv, '--rate') ?? 10);
	const version = flagValue(argv, '--version');
	if (!(minutes > 0) || !(rate > 0)) throw new Error('--minutes and --rate take positive numbers');
	if (version) process.env[N8N_VERSION_ENV] = version;
	const secret = `soak-${Date.now()}`;
	const sim = await startSimulator();
	const target = await startTarget(sim, secret, { ...RECOMMENDED_N8N_SETTINGS, ...envFlags(argv) });
	try {
		const { api } = target;
		const table = await AgentTable.create(api);
		const file = 'live-pause-alerts-to-file.json';
		const example = JSON.parse(
			await readFile(path.join(EXAMPLES_DIR, file), 'utf8'),
		) as WorkflowInput;
		const configured = configureExample(example, target.dialer, '/tmp', table);
		// `--save-successful`: n8n also saves successful executions, which the example turns off.
		const settings = argv.includes('--save-successful') ? configured.settings : example.settings;
		const workflow = await api.createWorkflow({ ...configured, settings });
		await api.activateWorkflow(workflow.id);
		const trigger = workflow.nodes.find((node) => node.name === 'Agent Events')!;
		const url = triggerUrl(api, trigger.webhookId!);
		await waitUntilServed(url);
		sim.webhooks.register({ url, secret });

		log(`shift at ${rate} events/s for ${minutes} min into "${example.name}"`);
		const started = Date.now();
		sim.shift.start({ eventsPerSecond: rate, durationMs: minutes * 60_000 });
		await new Promise((resolve) => setTimeout(resolve, minutes * 60_000 + 1000));
		await sim.shift.stop();
		// The backlog n8n still has: wait until the rows stop growing.
		let rows = await table.rows();
		for (let previous = -1; rows.length !== previous;) {
			previous = rows.length;
			await new Promise((resolve) => setTimeout(resolve, 3000));
			rows = await table.rows();
		}

		const delivered = sim.webhooks.deliveries.filter((delivery) => delivery.status === 200);
		const lags = rows.map((row) => ({
			minute: Math.floor((Date.parse(row.lastEventAt) - started) / 60_000),
			ms: Date.parse(row.createdAt) - Date.parse(row.lastEventAt),
		}));
		const byMinute: MinuteFigures[] = [];
		for (let minute = 0; minute < Math.ceil(minutes); minute++) {
			const ms = lags.filter((lag) => lag.minute === minute).map((lag) => lag.ms);
			if (ms.length === 0) continue;
			byMinute.push({
				minute,
				events: ms.length,
				p50: percentile(ms, 50),
				p99: percentile(ms, 99),
				max: Math.max(...ms),
			});
		}
		const worst = Math.max(...byMinute.map((figures) => figures.p99));
		const held = worst <= KEEPS_UP_MS && delivered.length === sim.webhooks.deliveries.length;
		const summary = {
			n8n: selectedN8nVersion(),
			rate,
			minutes,
			events: sim.shift.events.length,
			delivered: delivered.length,
			saved: rows.length,
			byMinute,
			held,
		};
		process.stdout.write(`${JSON.stringify(summary)}\n`);
		log(
			held
				? `held ${rate} events/s: every minute's p99 from event to row ${worst} ms (at most ${KEEPS_UP_MS})`
				: `did NOT hold ${rate} events/s: p99 from event to row up to ${worst} ms, ` +
						`${sim.webhooks.deliveries.length - delivered.length} deliveries refused or lost`,
		);
	} finally {
		await target.stop();
		await sim.close();
	}
}

main(process.argv.slice(2)).catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
