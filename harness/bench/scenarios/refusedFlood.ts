/**
 * Section 6, refused deliveries amid accepted ones: whoever floods the Dialer Trigger's URL
 * (wrong secret, or from an address not in Allowed Addresses) must not slow the dialer's own
 * deliveries. One fresh n8n; in each run, `deliveries` events at `inFlight` at a time go to a
 * Dialer Trigger that accepts them, alone (the peer) and then with a refused delivery sent
 * alongside each one, to the same URL with a wrong secret or to a trigger that allows only
 * another address. Every accepted delivery starts one execution; a refused one none.
 */
import { createTriggerFlow } from '../../n8n/dialer';
import { countBy, deliveryOutcome } from '../../queue-mode/burst';
import { eventKinds } from '../../simulator/agent-states';
import type { Delivery, DialerSimulator } from '../../simulator/types';
import { percentile, summarize, type Summary } from '../lib/stats';
import { log, startTarget, type Target } from '../lib/target';
import { burst, settledExecutions } from './events';

export type FloodKind = 'none' | 'wrongSecret' | 'address';
export const FLOOD_KINDS: readonly FloodKind[] = ['none', 'wrongSecret', 'address'];

export interface RefusedFloodOptions {
	deliveries: number;
	inFlight: number;
	runs: number;
	env: Record<string, string>;
}

export interface FloodRun {
	acceptedPerSecond: number;
	acceptedP50Ms: number;
	acceptedMaxMs: number;
	/** Deliveries meant to be accepted that were not answered 2xx within the dialer's 5 s. */
	lost: number;
	refusedP50Ms: number;
	refusedOutcomes: Record<string, number>;
	/** Executions started, against the accepted deliveries. */
	executions: number;
	accepted: number;
}

export interface FloodPoint {
	kind: FloodKind;
	runs: FloodRun[];
	acceptedPerSecond: Summary;
	acceptedP50Ms: Summary;
	acceptedMaxMs: Summary;
	lost: Summary;
	refusedP50Ms: Summary;
}

export interface RefusedFloodResult extends RefusedFloodOptions {
	points: FloodPoint[];
	/** Every run of every kind: executions = accepted deliveries, no refused one answered 2xx. */
	exactlyOnce: boolean;
}

const answeredOk = (d: Delivery) => d.status !== undefined && d.status >= 200 && d.status < 300;

async function floodRun(
	target: Target,
	sim: DialerSimulator,
	secret: string,
	kind: FloodKind,
	options: RefusedFloodOptions,
): Promise<FloodRun> {
	const flows = [];
	const accepting = await createTriggerFlow(target.api, {
		name: 'bench refused flood accepting',
		credential: target.dialer,
		events: [...eventKinds],
		timezone: 'UTC',
	});
	flows.push(accepting);
	const acceptId = sim.webhooks.register({ url: accepting.url, secret });
	const receivers = [acceptId];
	if (kind === 'wrongSecret')
		receivers.push(sim.webhooks.register({ url: accepting.url, secret: `${secret}-wrong` }));
	if (kind === 'address') {
		const elsewhere = await createTriggerFlow(target.api, {
			name: 'bench refused flood other address',
			credential: target.dialer,
			events: [...eventKinds],
			triggerOptions: { allowedAddresses: '192.0.2.1' },
			timezone: 'UTC',
		});
		flows.push(elsewhere);
		receivers.push(sim.webhooks.register({ url: elsewhere.url, secret }));
	}
	try {
		const { deliveries, elapsedMs } = await burst(sim, options.deliveries, options.inFlight);
		const accepted = deliveries.filter((d) => d.receiverId === acceptId);
		const refused = deliveries.filter((d) => d.receiverId !== acceptId);
		const executions = await settledExecutions(target, accepting.workflow.id);
		return {
			acceptedPerSecond: (accepted.length * 1000) / elapsedMs,
			acceptedP50Ms: percentile(
				accepted.map((d) => d.ms),
				50,
			),
			acceptedMaxMs: Math.max(...accepted.map((d) => d.ms)),
			lost: accepted.filter((d) => !answeredOk(d)).length,
			refusedP50Ms: refused.length
				? percentile(
						refused.map((d) => d.ms),
						50,
					)
				: NaN,
			refusedOutcomes: countBy(refused, deliveryOutcome),
			executions,
			accepted: accepted.filter(answeredOk).length,
		};
	} finally {
		for (const id of receivers) sim.webhooks.unregister(id);
		for (const { workflow } of flows) {
			await target.api.deactivateWorkflow(workflow.id);
			await target.api.deleteWorkflow(workflow.id);
		}
	}
}

/** In its own fresh n8n, or in `shared` (quick mode). */
export async function runRefusedFloodScenario(
	sim: DialerSimulator,
	secret: string,
	options: RefusedFloodOptions,
	shared?: Target,
): Promise<RefusedFloodResult> {
	const target = shared ?? (await startTarget(sim, secret, options.env));
	const runs = new Map<FloodKind, FloodRun[]>();
	try {
		// A warm-up burst, not recorded: n8n's first webhook calls are slower.
		await floodRun(target, sim, secret, 'none', { ...options, deliveries: 100 });
		for (let run = 1; run <= options.runs; run++) {
			for (const kind of FLOOD_KINDS) {
				const measured = await floodRun(target, sim, secret, kind, options);
				log(
					`refused flood: ${kind}, run ${run} of ${options.runs}: ` +
						`${measured.acceptedPerSecond.toFixed(1)} accepted/s, ack p50 ` +
						`${measured.acceptedP50Ms.toFixed(0)} ms, max ${measured.acceptedMaxMs.toFixed(0)} ms, ` +
						`${measured.lost} lost, ${measured.executions} executions of ${measured.accepted} ` +
						`accepted; refused ${JSON.stringify(measured.refusedOutcomes)} p50 ` +
						`${measured.refusedP50Ms.toFixed(0)} ms`,
				);
				runs.set(kind, [...(runs.get(kind) ?? []), measured]);
			}
		}
	} finally {
		if (!shared) await target.stop();
	}
	const points = FLOOD_KINDS.map((kind) => {
		const kindRuns = runs.get(kind)!;
		const of = (pick: (run: FloodRun) => number) => summarize(kindRuns.map(pick));
		return {
			kind,
			runs: kindRuns,
			acceptedPerSecond: of((r) => r.acceptedPerSecond),
			acceptedP50Ms: of((r) => r.acceptedP50Ms),
			acceptedMaxMs: of((r) => r.acceptedMaxMs),
			lost: of((r) => r.lost),
			refusedP50Ms: of((r) => r.refusedP50Ms),
		};
	});
	const exactlyOnce = points.every((point) =>
		point.runs.every((run) => run.executions === run.accepted && !run.refusedOutcomes['200']),
	);
	return { ...options, points, exactlyOnce };
}
