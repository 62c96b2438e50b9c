/**
 * Scenario 4, shift-start bursts: a floor of agents logs in or pauses within seconds, so the
 * dialer has many deliveries in flight at once, and whatever n8n answers after 5 s is lost for
 * good (one attempt, no retry). Dialer Trigger against Webhook (Header Auth) + IF, each in its own
 * fresh n8n started side by side, so both see the same machine load: at each level the client
 * keeps N deliveries in flight (the simulator's burst sender, kinds in turn, one kind wanted).
 */
import type { DialerSimulator } from '../../simulator/types';
import { summarize, type Summary } from '../lib/stats';
import { log, startTarget, untilIdle, type Target } from '../lib/target';
import type { SaveMode } from '../lib/workflows';
import { runBurst, type BurstRun } from './events';

export type BurstVariant = 'trigger' | 'generic';
export const BURST_VARIANTS: readonly BurstVariant[] = ['trigger', 'generic'];

export interface BurstOptions {
	deliveries: number;
	/** Deliveries kept in flight, ascending. */
	levels: number[];
	runs: number;
	save: SaveMode;
	/** Extra n8n settings for both instances (e.g. N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE). */
	env: Record<string, string>;
}

/** Runs at one level, summarized. */
export interface BurstLevel {
	inFlight: number;
	runs: BurstRun[];
	eventsPerSecond: Summary;
	p50Ms: Summary;
	maxMs: Summary;
	/** Deliveries not answered 2xx within the dialer's 5 s. */
	lost: Summary;
	/**
	 * Longest answer ÷ (in flight ÷ throughput), the wait a delivery would have if n8n answered
	 * in arrival order at its throughput: 1 is a fair queue, above 1 some deliveries wait longer.
	 */
	tailRatio: Summary;
}

export interface BurstPoint extends BurstLevel {
	variant: BurstVariant;
}

export interface BurstResult extends Omit<BurstOptions, 'env'> {
	env: Record<string, string>;
	points: BurstPoint[];
	/** Per variant, the lowest level at which any run lost a delivery (none: never lost). */
	firstLoss: Record<BurstVariant, number | null>;
}

export function tailRatio(run: BurstRun, inFlight: number): number {
	return run.maxMs / ((inFlight / run.eventsPerSecond) * 1000);
}

/** One run in a log line. */
export function describeRun(run: BurstRun, inFlight: number): string {
	return (
		`${run.eventsPerSecond.toFixed(1)}/s, ack p50 ${run.p50Ms.toFixed(0)} ms, ` +
		`max ${run.maxMs.toFixed(0)} ms (${tailRatio(run, inFlight).toFixed(2)}×), ${run.failed} lost, ` +
		`${run.executions} executions of ${run.wantedAccepted} wanted accepted, answers ${JSON.stringify(run.outcomes)}`
	);
}

export function burstLevel(inFlight: number, runs: BurstRun[]): BurstLevel {
	return {
		inFlight,
		runs,
		eventsPerSecond: summarize(runs.map((r) => r.eventsPerSecond)),
		p50Ms: summarize(runs.map((r) => r.p50Ms)),
		maxMs: summarize(runs.map((r) => r.maxMs)),
		lost: summarize(runs.map((r) => r.failed)),
		tailRatio: summarize(runs.map((r) => tailRatio(r, inFlight))),
	};
}

export async function runBurstScenario(
	sim: DialerSimulator,
	secret: string,
	options: BurstOptions,
): Promise<BurstResult> {
	const targets = new Map<BurstVariant, Target>();
	const runs = new Map<string, BurstRun[]>();
	try {
		for (const variant of BURST_VARIANTS)
			targets.set(variant, await startTarget(sim, secret, options.env));
		// Runs outermost and variants innermost: each level's pair is measured back to back.
		for (let run = 1; run <= options.runs; run++) {
			for (const inFlight of options.levels) {
				for (const variant of BURST_VARIANTS) {
					// The other n8n may still be working off its burst (executions answered after the
					// dialer gave up): measured beside it, this one would share the cores.
					await untilIdle([...targets.values()]);
					const measured = await runBurst(targets.get(variant)!, sim, variant, {
						count: options.deliveries,
						concurrency: inFlight,
						save: options.save,
						secret,
					});
					log(
						`burst: ${variant} ${inFlight} in flight, run ${run} of ${options.runs}: ${describeRun(measured, inFlight)}`,
					);
					const key = `${variant} ${inFlight}`;
					runs.set(key, [...(runs.get(key) ?? []), measured]);
				}
			}
		}
	} finally {
		for (const target of targets.values()) await target.stop();
	}
	const points = options.levels.flatMap((inFlight) =>
		BURST_VARIANTS.map((variant) => ({
			variant,
			...burstLevel(inFlight, runs.get(`${variant} ${inFlight}`)!),
		})),
	);
	const firstLoss = (variant: BurstVariant) =>
		points.find((p) => p.variant === variant && p.lost.max > 0)?.inFlight ?? null;
	return {
		...options,
		points,
		firstLoss: { trigger: firstLoss('trigger'), generic: firstLoss('generic') },
	};
}
