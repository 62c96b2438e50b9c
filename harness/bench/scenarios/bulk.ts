/**
 * Scenario 2, bulk actions: 2,000 input items each moving a batch to a queue (changeLoteToFila),
 * the Dialer node with Parallel Requests against HTTP Request. HTTP Request has no concurrency
 * setting: by default it starts every item's request at once, and its Batching option only
 * spaces out starts (N items every M ms) without waiting for answers. So both of its ways are
 * measured, and the simulator reports how many connections were open at once and
 * how many TCP connections were opened. Variants alternate round by round in one n8n, so
 * load from outside the benchmark hits them alike.
 */
import type { DialerSimulator } from '../../simulator/types';
import type { ServerTrafficCounter } from '../lib/connections';
import { summarize, type Summary } from '../lib/stats';
import { log, timeRuns, type Target } from '../lib/target';
import {
	createRunWorkflow,
	dialerNode,
	httpRequestNode,
	type Json,
	type RunWorkflow,
	type SaveMode,
} from '../lib/workflows';

export interface BulkVariant {
	name: string;
	description: string;
	ms: Summary;
	mainThreadMs: Summary;
	addedPeakMb: Summary;
	connections: Summary;
	maxOpenConnections: Summary;
	requests: number;
}

export interface BulkResult {
	items: number;
	parallel: number;
	save: SaveMode;
	variants: BulkVariant[];
}

function bulkItems(sim: DialerSimulator, count: number): Json[] {
	const batches = sim.data.batches.filter((batch) => batch.ativo);
	const queues = sim.data.queues.filter((queue) => queue.direcao === 'ativa');
	return Array.from({ length: count }, (_, index) => ({
		lote: String(batches[index % batches.length].id),
		fila: String(queues[index % queues.length].id),
	}));
}

export async function runBulk(
	target: Target,
	sim: DialerSimulator,
	traffic: ServerTrafficCounter,
	options: { items: number; parallel: number; runs: number; save: SaveMode },
): Promise<BulkResult> {
	const { parallel } = options;
	const fields = { lote: '={{ $json.lote }}', fila: '={{ $json.fila }}' };
	const url = `${sim.apiUrl}/changeLoteToFila`;
	const variants: Array<{
		name: string;
		description: string;
		nodes: Parameters<typeof createRunWorkflow>[1];
	}> = [
		{
			name: `Dialer, Parallel Requests ${parallel}`,
			description: `Batch → Move to Queue, Options → Parallel Requests ${parallel}`,
			nodes: [
				dialerNode(target.dialer, {
					resource: 'batch',
					operation: 'moveToQueue',
					batch: { __rl: true, mode: 'id', value: '={{ $json.lote }}' },
					queue: '={{ $json.fila }}',
					options: { parallelRequests: parallel },
				}),
			],
		},
		{
			name: 'HTTP Request, default',
			description: 'every item’s request started at once (n8n’s default)',
			nodes: [httpRequestNode(target.apiToken, url, fields)],
		},
		{
			name: `HTTP Request, batching ${parallel} / 1 ms`,
			description: `Options → Batching: ${parallel} items per batch, 1 ms interval (the closest it has to a concurrency limit)`,
			nodes: [
				httpRequestNode(target.apiToken, url, fields, {
					batching: { batch: { batchSize: parallel, batchInterval: 1 } },
				}),
			],
		},
	];
	const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
	const workflows: RunWorkflow[] = [];
	for (const variant of variants) {
		workflows.push(
			await createRunWorkflow(target.api, variant.nodes, {
				save: options.save,
				timezone,
				answer: 'noData',
				name: `bench bulk ${variant.name}`,
			}),
		);
	}
	const items = bulkItems(sim, options.items);
	const samples = variants.map(() => ({
		ms: [] as number[],
		cpu: [] as number[],
		memory: [] as number[],
		connections: [] as number[],
		open: [] as number[],
		requests: 0,
	}));
	// One warm-up round, then `runs` rounds with the variants in turn.
	for (let round = 0; round <= options.runs; round++) {
		for (const [index, workflow] of workflows.entries()) {
			sim.clearRequests();
			traffic.take();
			const [sample] = await timeRuns(target, workflow, items, 1, { warmup: 0 });
			const seen = traffic.take();
			const moved = sim.requests.filter(
				(r) => r.operation === 'changeLoteToFila' && r.status === 200,
			).length;
			if (moved !== items.length)
				throw new Error(`${variants[index].name}: ${moved} of ${items.length} batches moved`);
			if (round === 0) continue;
			const into = samples[index];
			into.ms.push(sample.ms);
			into.cpu.push(sample.mainThreadMs);
			into.memory.push(sample.addedPeakMb);
			into.connections.push(seen.connections);
			into.open.push(seen.maxOpenConnections);
			into.requests = seen.requests;
		}
		log(`bulk: round ${round}${round === 0 ? ' (warm-up)' : ''} done`);
	}
	return {
		items: options.items,
		parallel,
		save: options.save,
		variants: variants.map((variant, index) => ({
			name: variant.name,
			description: variant.description,
			ms: summarize(samples[index].ms),
			mainThreadMs: summarize(samples[index].cpu),
			addedPeakMb: summarize(samples[index].memory),
			connections: summarize(samples[index].connections),
			maxOpenConnections: summarize(samples[index].open),
			requests: samples[index].requests,
		})),
	};
}
