/**
 * Scenario 5, shift-start bursts in queue mode: the burst of scenario 4 into the Dialer Trigger's
 * production URL served by one, then two webhook processors (two behind the round-robin front of
 * harness/bench/lib/front.ts), executions on two workers, PostgreSQL and Redis. The peer is the same
 * trigger in one single-mode n8n (SQLite), measured in the same run. Each deployment is started
 * fresh and alone on the machine, measured at every level, and stopped before the next.
 */
import type { DialerSimulator } from '../../simulator/types';
import { log, startQueueTarget, startTarget, type Target } from '../lib/target';
import { burstLevel, describeRun, type BurstLevel } from './burst';
import { runBurst, type BurstRun } from './events';

export type Deployment = 'single' | 'queue1' | 'queue2';
export const DEPLOYMENTS: readonly Deployment[] = ['single', 'queue1', 'queue2'];

export const DEPLOYMENT_NAMES: Record<Deployment, string> = {
	single: 'single mode (SQLite)',
	queue1: 'queue mode, 1 webhook processor',
	queue2: 'queue mode, 2 webhook processors',
};

export interface BurstQueueOptions {
	deliveries: number;
	/** Deliveries kept in flight, ascending. */
	levels: number[];
	runs: number;
	/** n8n settings for every process of every deployment. */
	env: Record<string, string>;
}

export interface BurstQueuePoint extends BurstLevel {
	deployment: Deployment;
	/** Every run made exactly one execution per wanted delivery answered 2xx. */
	exactlyOnce: boolean;
}

export interface BurstQueueResult extends BurstQueueOptions {
	points: BurstQueuePoint[];
}

function start(
	sim: DialerSimulator,
	secret: string,
	deployment: Deployment,
	env: Record<string, string>,
) {
	if (deployment === 'single') return startTarget(sim, secret, env);
	return startQueueTarget(sim, secret, deployment === 'queue1' ? 1 : 2, env);
}

export async function runBurstQueueScenario(
	sim: DialerSimulator,
	secret: string,
	options: BurstQueueOptions,
): Promise<BurstQueueResult> {
	const points: BurstQueuePoint[] = [];
	for (const deployment of DEPLOYMENTS) {
		const target: Target = await start(sim, secret, deployment, options.env);
		const runs = new Map<number, BurstRun[]>(options.levels.map((level) => [level, []]));
		try {
			for (let run = 1; run <= options.runs; run++) {
				for (const inFlight of options.levels) {
					const measured = await runBurst(target, sim, 'trigger', {
						count: options.deliveries,
						concurrency: inFlight,
						save: 'all',
						secret,
					});
					log(
						`burst-queue: ${deployment} ${inFlight} in flight, run ${run} of ${options.runs}: ${describeRun(measured, inFlight)}`,
					);
					runs.get(inFlight)!.push(measured);
				}
			}
		} finally {
			await target.stop();
		}
		for (const [inFlight, measured] of runs) {
			points.push({
				deployment,
				...burstLevel(inFlight, measured),
				exactlyOnce: measured.every((r) => r.executions === r.wantedAccepted),
			});
		}
	}
	return { ...options, points };
}
