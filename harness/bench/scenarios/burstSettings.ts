/**
 * n8n's expression-engine settings side by side under shift-start bursts, in one run: n8n's
 * defaults, lazy isolate acquisition (experimental in n8n), pools of 2, 4 and 8 isolates and the
 * legacy engine, each in a fresh n8n, one after another. Behind the Dialer Trigger runs the live
 * alerts example (examples/live-pause-alerts-to-file.json), the workflow a floor runs on these
 * events: besides what the dialer sees (deliveries lost, the longest answer), what the burst costs
 * that workflow (its executions' durations) and n8n's main thread (event-loop delay, from n8n's
 * own metrics: N8N_METRICS=true, whose histogram restarts at every read).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';

import type { Execution } from '../../n8n/api';
import type { DialerSimulator } from '../../simulator/types';
import { percentile, summarize, type Summary } from '../lib/stats';
import { log, startTarget, untilIdle, type Target } from '../lib/target';
import { acks, burst, type Acks } from './events';
import { finished, withLiveAlerts, type LiveAlerts } from './liveAlerts';

/** The configurations compared, by the name the page gives them. */
export const ENGINE_SETTINGS: ReadonlyArray<{ name: string; env: Record<string, string> }> = [
	{ name: "n8n's defaults", env: {} },
	{ name: 'lazy acquire', env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } },
	...[2, 4, 8].map((size) => ({
		name: `pool of ${size}`,
		env: { N8N_EXPRESSION_ENGINE_POOL_SIZE: String(size) },
	})),
	{ name: 'legacy engine', env: { N8N_EXPRESSION_ENGINE: 'legacy' } },
];

export interface BurstSettingsOptions {
	deliveries: number;
	/** Deliveries kept in flight, ascending. */
	levels: number[];
	runs: number;
	/** Settings every configuration gets on top of its own (--env). */
	env: Record<string, string>;
}

export interface SettingsRun extends Acks {
	eventsPerSecond: number;
	/** The live alerts example's executions the burst started, finished or parked at their Wait. */
	executions: number;
	/** Finished ones, start to stop (parked ones wait for a pause's maximum, minutes away). */
	executionP50Ms: number;
	executionP99Ms: number;
	/** n8n's main thread from the burst's start until its executions settled. */
	loopDelayP99Ms: number;
	loopDelayMaxMs: number;
}

export interface SettingsPoint {
	settings: string;
	env: Record<string, string>;
	inFlight: number;
	runs: SettingsRun[];
	lost: Summary;
	maxMs: Summary;
	eventsPerSecond: Summary;
	executionP50Ms: Summary;
	executionP99Ms: Summary;
	loopDelayP99Ms: Summary;
	loopDelayMaxMs: Summary;
}

export interface BurstSettingsResult extends BurstSettingsOptions {
	points: SettingsPoint[];
}

/** n8n's event-loop delay since the last read, in ms (prom-client resets it at each read). */
async function loopDelay(target: Target): Promise<{ p99Ms: number; maxMs: number }> {
	const res = await request(`${target.api.baseUrl}/metrics`);
	const text = await res.body.text();
	// The sample line (`n8n_nodejs_eventloop_lag_p99_seconds 0.012`), not its # HELP line.
	const seconds = (name: string) =>
		Number(
			new RegExp(`^\\w*nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(
				text,
			)?.[1],
		);
	return { p99Ms: seconds('p99') * 1000, maxMs: seconds('max') * 1000 };
}

const durationMs = (execution: Execution) =>
	Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt);

async function measureRun(
	target: Target,
	sim: DialerSimulator,
	alerts: LiveAlerts,
	options: { deliveries: number; inFlight: number },
): Promise<SettingsRun> {
	// Executions of the run before that outlived its settling wait would share the cores.
	await untilIdle([target]);
	const before = await alerts.executionIds();
	await loopDelay(target);
	const { deliveries, elapsedMs } = await burst(sim, options.deliveries, options.inFlight);
	const answered = acks(deliveries);
	const started = await alerts.settledSince(before, answered.deliveries - answered.failed);
	const delay = await loopDelay(target);
	const durations = finished(started).map(durationMs);
	return {
		...answered,
		eventsPerSecond: (options.deliveries * 1000) / elapsedMs,
		executions: started.length,
		executionP50Ms: percentile(durations, 50),
		executionP99Ms: percentile(durations, 99),
		loopDelayP99Ms: delay.p99Ms,
		loopDelayMaxMs: delay.maxMs,
	};
}

export async function runBurstSettingsScenario(
	sim: DialerSimulator,
	secret: string,
	options: BurstSettingsOptions,
): Promise<BurstSettingsResult> {
	const points: SettingsPoint[] = [];
	const outputFolder = await mkdtemp(path.join(os.tmpdir(), 'dialer-bench-alerts-'));
	try {
		for (const { name, env } of ENGINE_SETTINGS) {
			const settings = { ...env, ...options.env, N8N_METRICS: 'true' };
			log(`burst-settings: ${name}, n8n settings ${JSON.stringify(settings)}`);
			const target = await startTarget(sim, secret, settings);
			try {
				await withLiveAlerts(target, sim, secret, outputFolder, async (alerts) => {
					for (const inFlight of options.levels) {
						const runs: SettingsRun[] = [];
						for (let run = 1; run <= options.runs; run++) {
							const measured = await measureRun(target, sim, alerts, {
								deliveries: options.deliveries,
								inFlight,
							});
							log(
								`burst-settings: ${name}, ${inFlight} in flight, run ${run}: ${measured.failed} lost, ` +
									`longest ${measured.maxMs.toFixed(0)} ms, executions ${measured.executions} ` +
									`(p50 ${measured.executionP50Ms.toFixed(0)} / p99 ${measured.executionP99Ms.toFixed(0)} ms), ` +
									`event-loop delay p99 ${measured.loopDelayP99Ms.toFixed(0)} / max ${measured.loopDelayMaxMs.toFixed(0)} ms`,
							);
							runs.push(measured);
						}
						points.push(settingsPoint(name, env, inFlight, runs));
					}
				});
			} finally {
				await target.stop();
			}
		}
	} finally {
		await rm(outputFolder, { recursive: true, force: true });
	}
	return { ...options, points };
}

function settingsPoint(
	settings: string,
	env: Record<string, string>,
	inFlight: number,
	runs: SettingsRun[],
): SettingsPoint {
	const of = (pick: (run: SettingsRun) => number) => summarize(runs.map(pick));
	return {
		settings,
		env,
		inFlight,
		runs,
		lost: of((r) => r.failed),
		maxMs: of((r) => r.maxMs),
		eventsPerSecond: of((r) => r.eventsPerSecond),
		executionP50Ms: of((r) => r.executionP50Ms),
		executionP99Ms: of((r) => r.executionP99Ms),
		loopDelayP99Ms: of((r) => r.loopDelayP99Ms),
		loopDelayMaxMs: of((r) => r.loopDelayMaxMs),
	};
}
