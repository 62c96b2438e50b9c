/**
 * Scenario 5, shift-start bursts in queue mode on n8n's defaults: the Dialer Trigger with the
 * live alerts example behind it (./liveAlerts) at its production URL, served by one, then two
 * webhook processors (two behind the round-robin front of harness/bench/lib/front.ts), executions on two
 * workers, PostgreSQL and Redis. The peer is the same workflow in one single-mode n8n (SQLite),
 * measured in the same run. Each deployment is started fresh and alone on the machine, measured
 * at every level, and stopped before the next.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { DialerSimulator } from '../../simulator/types';
import { summarize, type Summary } from '../lib/stats';
import { log, startQueueTarget, startTarget, untilIdle, type Target } from '../lib/target';
import { acks, burst, type Acks } from './events';
import { finished, LIVE_ALERTS, withLiveAlerts, type LiveAlerts } from './liveAlerts';

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
	/** n8n settings for every process of every deployment (--env; none: n8n's defaults). */
	env: Record<string, string>;
}

/** Why deliveries were lost: each is lost for good (one attempt, no retry). */
export interface LostBy {
	/** n8n answered 503 (e.g. its database or queue not ready). */
	unavailable: number;
	/** No answer within the dialer's 5 s. */
	timedOut: number;
	/** The connection was refused: nothing listening, or the backlog full. */
	refused: number;
	/** Any other status or socket error. */
	other: number;
}

export interface QueueRun extends Acks {
	eventsPerSecond: number;
	/** Deliveries answered 2xx within the dialer's 5 s. */
	answered: number;
	lostBy: LostBy;
	/** The live alerts' executions the burst started. */
	executions: number;
	/** Of those, the ones that ran to their end (others failed or wait for a pause's maximum). */
	finished: number;
}

export interface BurstQueuePoint {
	deployment: Deployment;
	inFlight: number;
	runs: QueueRun[];
	eventsPerSecond: Summary;
	answered: Summary;
	lost: Summary;
	lostBy: Record<keyof LostBy, Summary>;
	p99Ms: Summary;
	/**
	 * Executions ÷ deliveries answered 2xx. Above 1 are deliveries n8n took after the dialer gave
	 * up (timed out, executed all the same) or a job a worker ran twice after a stall.
	 */
	executionsPerAnswered: Summary;
	finished: Summary;
	/** Every run made at least one execution per delivery answered 2xx. */
	atLeastOnce: boolean;
}

export interface BurstQueueResult extends BurstQueueOptions {
	/** The workflow behind the trigger (results saved before it was there have none). */
	behindTrigger: typeof LIVE_ALERTS;
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

function lostBy(outcomes: Record<string, number>, lost: number): LostBy {
	const unavailable = outcomes['503'] ?? 0;
	const timedOut = outcomes.timeout ?? 0;
	const refused = outcomes.ECONNREFUSED ?? 0;
	return { unavailable, timedOut, refused, other: lost - unavailable - timedOut - refused };
}

async function measureRun(
	target: Target,
	sim: DialerSimulator,
	alerts: LiveAlerts,
	options: { deliveries: number; inFlight: number },
): Promise<QueueRun> {
	// A worker still running the last burst's jobs would share the cores.
	await untilIdle([target]);
	const before = await alerts.executionIds();
	const { deliveries, elapsedMs } = await burst(sim, options.deliveries, options.inFlight);
	const answered = acks(deliveries);
	const accepted = answered.deliveries - answered.failed;
	// Counted once the workers have run the queue down, not while jobs still wait in Redis.
	await untilIdle([target]);
	const started = await alerts.settledSince(before, accepted);
	return {
		...answered,
		eventsPerSecond: (options.deliveries * 1000) / elapsedMs,
		answered: accepted,
		lostBy: lostBy(answered.outcomes, answered.failed),
		executions: started.length,
		finished: finished(started).length,
	};
}

export function queuePoint(
	deployment: Deployment,
	inFlight: number,
	runs: QueueRun[],
): BurstQueuePoint {
	const of = (pick: (run: QueueRun) => number) => summarize(runs.map(pick));
	return {
		deployment,
		inFlight,
		runs,
		eventsPerSecond: of((r) => r.eventsPerSecond),
		answered: of((r) => r.answered),
		lost: of((r) => r.failed),
		lostBy: {
			unavailable: of((r) => r.lostBy.unavailable),
			timedOut: of((r) => r.lostBy.timedOut),
			refused: of((r) => r.lostBy.refused),
			other: of((r) => r.lostBy.other),
		},
		p99Ms: of((r) => r.p99Ms),
		executionsPerAnswered: of((r) => r.executions / r.answered),
		finished: of((r) => r.finished),
		atLeastOnce: runs.every((r) => r.executions >= r.answered),
	};
}

export async function runBurstQueueScenario(
	sim: DialerSimulator,
	secret: string,
	options: BurstQueueOptions,
): Promise<BurstQueueResult> {
	const points: BurstQueuePoint[] = [];
	const outputFolder = await mkdtemp(path.join(os.tmpdir(), 'dialer-bench-alerts-'));
	try {
		for (const deployment of DEPLOYMENTS) {
			const target = await start(sim, secret, deployment, options.env);
			const runs = new Map<number, QueueRun[]>(options.levels.map((level) => [level, []]));
			try {
				await withLiveAlerts(target, sim, secret, outputFolder, async (alerts) => {
					for (let run = 1; run <= options.runs; run++) {
						for (const inFlight of options.levels) {
							const measured = await measureRun(target, sim, alerts, {
								deliveries: options.deliveries,
								inFlight,
							});
							log(
								`burst-queue: ${deployment} ${inFlight} in flight, run ${run} of ${options.runs}: ` +
									`${measured.eventsPerSecond.toFixed(1)}/s, ${measured.answered} answered 2xx, ` +
									`lost ${JSON.stringify(measured.lostBy)}, p99 ${measured.p99Ms.toFixed(0)} ms, ` +
									`${measured.executions} executions (${measured.finished} finished)`,
							);
							runs.get(inFlight)!.push(measured);
						}
					}
				});
			} finally {
				await target.stop();
			}
			for (const [inFlight, measured] of runs)
				points.push(queuePoint(deployment, inFlight, measured));
		}
	} finally {
		await rm(outputFolder, { recursive: true, force: true });
	}
	return { ...options, behindTrigger: LIVE_ALERTS, points };
}
