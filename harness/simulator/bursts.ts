/** Bursts of generated events for delivery benchmarks: N events, at most C in flight. */
import { eventKinds, type AgentStates, type EventKind } from './agent-states';
import type { SeededData } from './model';
import type { Delivery } from './types';
import type { WebhookHub } from './webhooks';

export interface BurstRequest {
	count: number;
	concurrency: number;
	kinds?: string[];
}

export interface BurstSummary {
	events: number;
	deliveries: number;
	succeeded: number;
	failed: number;
	elapsedMs: number;
	p50Ms: number;
	p95Ms: number;
	maxMs: number;
}

export async function emitBurst(
	hub: WebhookHub,
	states: AgentStates,
	data: SeededData,
	request: BurstRequest,
) {
	const kinds = (request.kinds?.length ? request.kinds : eventKinds) as EventKind[];
	const unknown = kinds.filter((kind) => !eventKinds.includes(kind));
	if (unknown.length > 0) throw new Error(`Unknown event kinds: ${unknown.join(', ')}`);
	if (!(request.count > 0) || !(request.concurrency > 0))
		throw new Error('count and concurrency must be positive');
	const deliveries: Delivery[] = [];
	let next = 0;
	const started = Date.now();
	const worker = async () => {
		for (let index = next++; index < request.count; index = next++) {
			const event = states.sample(
				kinds[index % kinds.length],
				data.agents[index % data.agents.length],
			);
			deliveries.push(...(await hub.emit(event)));
		}
	};
	await Promise.all(Array.from({ length: Math.min(request.concurrency, request.count) }, worker));
	return { deliveries, summary: summarize(request.count, deliveries, Date.now() - started) };
}

function summarize(events: number, deliveries: Delivery[], elapsedMs: number): BurstSummary {
	const times = deliveries.map((delivery) => delivery.ms).sort((a, b) => a - b);
	const percentile = (p: number) =>
		times.length ? times[Math.min(times.length - 1, Math.floor(p * times.length))] : 0;
	const succeeded = deliveries.filter(
		(delivery) => delivery.status !== undefined && delivery.status >= 200 && delivery.status < 300,
	).length;
	return {
		events,
		deliveries: deliveries.length,
		succeeded,
		failed: deliveries.length - succeeded,
		elapsedMs,
		p50Ms: percentile(0.5),
		p95Ms: percentile(0.95),
		maxMs: times.at(-1) ?? 0,
	};
}
