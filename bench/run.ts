/**
 * `npm run bench`: this package against n8n's generic nodes, on the same n8n, simulator and data,
 * in one run; writes BENCHMARKS.md and bench/chart.svg. `--quick` is a smoke run (small sizes,
 * one shared n8n, a couple of minutes) that writes to a temporary folder unless `--out` is given;
 * `--render bench/results.json` rewrites the report from saved results.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PROJECT_ROOT } from '../scripts/n8n/instance';
import { N8N_VERSION, ensureRuntime, run } from '../scripts/n8n/runtime';
import { startSimulator } from '../simulator';
import type { DialerSimulator } from '../simulator/types';
import { ServerTrafficCounter } from './lib/connections';
import { log, startTarget, withTarget, type Target } from './lib/target';
import { chartSvg, type Panel } from './report/chart';
import {
	benchmarksMarkdown,
	burstQueueSection,
	burstSection,
	reportTriggerSection,
	type BenchResults,
	type EventsResult,
} from './report/markdown';
import { runBulk } from './scenarios/bulk';
import { runBurstScenario, type BurstOptions, type BurstResult } from './scenarios/burst';
import {
	runBurstQueueScenario,
	type BurstQueueOptions,
	type BurstQueueResult,
} from './scenarios/burstQueue';
import {
	deliveryCost,
	runBurst,
	steadyRate,
	type BurstRun,
	type DeliveryCost,
	type EventVariant,
	type RatePoint,
} from './scenarios/events';
import { callCase, fichaCase, runCurve, runReports } from './scenarios/reports';
import { runReportTrigger } from './scenarios/reportTrigger';

interface Plan {
	quick: boolean;
	fichas: number;
	calls: number;
	reportRows: number;
	/** New rows a Report Trigger poll finds. */
	pollRows: number;
	curveSizes: number[];
	runs: number;
	bulkItems: number;
	bulkParallel: number;
	events: number;
	bursts: number;
	concurrency: number;
	costDeliveries: number;
	costRounds: number;
	rates: number[];
	rateSeconds: number;
	legacyRates: number[];
	burst: Omit<BurstOptions, 'env'>;
	/** Queue-mode bursts; none in quick mode (no PostgreSQL and Redis for a smoke run). */
	burstQueue?: Omit<BurstQueueOptions, 'env'>;
}

/** The setting README Capacity recommends with Dialer Trigger 1.1; queue-mode bursts run with it. */
const RECOMMENDED_SETTINGS = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };

/**
 * n8n's defaults, then the setting that removes the expression isolate from the Dialer Trigger's
 * webhook call (n8n then builds one only for an expression, and version 1.1 evaluates none).
 */
const BURST_SETTINGS: Array<Record<string, string>> = [{}, RECOMMENDED_SETTINGS];

const FULL: Plan = {
	quick: false,
	// The biggest form gets about 42 % of the fichas: enough for 100,000 rows of one form.
	fichas: 240_000,
	calls: 100_000,
	reportRows: 100_000,
	pollRows: 10_000,
	curveSizes: [1_000, 10_000, 30_000, 100_000],
	runs: 5,
	bulkItems: 2_000,
	bulkParallel: 20,
	events: 2_000,
	bursts: 5,
	concurrency: 20,
	costDeliveries: 50,
	costRounds: 5,
	rates: [5, 10, 20, 30, 50],
	rateSeconds: 8,
	legacyRates: [20, 50],
	burst: { deliveries: 1_000, levels: [50, 100, 150, 200], runs: 3, save: 'all' },
	// From the level single mode holds with the recommended settings (about 5 min for all three).
	burstQueue: { deliveries: 1_000, levels: [150, 200, 300], runs: 3 },
};

const QUICK: Plan = {
	quick: true,
	fichas: 6_000,
	calls: 3_200,
	reportRows: 2_000,
	pollRows: 1_000,
	curveSizes: [500, 2_000],
	runs: 2,
	bulkItems: 200,
	bulkParallel: 20,
	events: 140,
	bursts: 2,
	concurrency: 20,
	costDeliveries: 10,
	costRounds: 1,
	rates: [10, 20],
	rateSeconds: 2,
	legacyRates: [],
	burst: { deliveries: 140, levels: [50], runs: 1, save: 'all' },
};

const ONLY = ['burst', 'burst-queue', 'report-trigger'] as const;

interface Args {
	plan: Plan;
	outDir: string;
	build: boolean;
	/**
	 * `--only burst`, `--only burst-queue` or `--only report-trigger`: that scenario alone,
	 * printed and saved, BENCHMARKS.md untouched.
	 */
	only?: (typeof ONLY)[number];
	/** `--env NAME=VALUE` (repeatable): n8n settings for a burst-only run (burst-queue: added to the recommended ones). */
	env: Record<string, string>;
}

function parseArgs(argv: string[]): Args {
	const value = (flag: string) => {
		const index = argv.indexOf(flag);
		return index >= 0 ? argv[index + 1] : undefined;
	};
	const quick = argv.includes('--quick');
	const only = value('--only') as Args['only'];
	if (only !== undefined && !ONLY.includes(only))
		throw new Error(`--only takes ${ONLY.join(', ')}, not ${only}`);
	const out = value('--out');
	const outDir = out
		? path.resolve(out)
		: quick || only
			? path.join(os.tmpdir(), `n8n-dialer-bench-${only ?? 'quick'}`)
			: PROJECT_ROOT;
	const base = quick ? QUICK : FULL;
	// Burst-only runs may narrow the scenario: --levels 50,150 --runs 1 --deliveries 500 --save none.
	const levels = value('--levels');
	const narrowed = <T extends { deliveries: number; levels: number[]; runs: number }>(
		scenario: T,
	): T => ({
		...scenario,
		deliveries: Number(value('--deliveries') ?? scenario.deliveries),
		levels: levels ? levels.split(',').map(Number) : scenario.levels,
		runs: Number(value('--runs') ?? scenario.runs),
	});
	const burst = {
		...narrowed(base.burst),
		save: (value('--save') ?? base.burst.save) as BurstOptions['save'],
	};
	const burstQueue = narrowed(FULL.burstQueue!);
	const env: Record<string, string> = {};
	argv.forEach((arg, index) => {
		if (arg !== '--env') return;
		const [name, ...rest] = argv[index + 1].split('=');
		env[name] = rest.join('=');
	});
	return {
		plan: { ...base, burst, ...(only === 'burst-queue' ? { burstQueue } : {}) },
		outDir,
		build: !argv.includes('--no-build'),
		only,
		env,
	};
}

function git(args: string[]): string {
	try {
		return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
	} catch {
		return 'unknown';
	}
}

/**
 * Steady rates, ascending, both variants per rate. Last in an n8n's life: Webhook + IF at high
 * rates can leave n8n's SQLite unusable ("Database is not ready"), which is recorded, not fatal.
 */
async function measureRates(
	target: Target,
	sim: DialerSimulator,
	plan: Plan,
	rates: number[],
	secret: string,
): Promise<{ rates: RatePoint[]; rateFailure?: string }> {
	const points: RatePoint[] = [];
	for (const rate of rates) {
		for (const variant of ['trigger', 'generic'] as const) {
			try {
				points.push(
					await steadyRate(target, sim, variant, {
						rate,
						seconds: plan.rateSeconds,
						save: 'none',
						secret,
					}),
				);
			} catch (error) {
				const rateFailure = `${variant === 'trigger' ? 'Dialer Trigger' : 'Webhook + IF'} at ${rate} events/s: ${(error as Error).message.slice(0, 200)}`;
				log(`events: stopped, ${rateFailure}`);
				return { rates: points, rateFailure };
			}
		}
	}
	return { rates: points };
}

async function deliveryCosts(
	target: Target,
	sim: DialerSimulator,
	plan: Plan,
	cases: ReadonlyArray<readonly [EventVariant, 'ignored' | 'wanted']>,
	secret: string,
): Promise<DeliveryCost[]> {
	const costs: DeliveryCost[] = [];
	for (const [variant, kind] of cases) {
		log(`events: cost of one delivery, ${variant} ${kind}`);
		costs.push(
			await deliveryCost(target, sim, variant, kind, {
				count: plan.costDeliveries,
				rounds: plan.costRounds,
				save: 'none',
				secret,
			}),
		);
	}
	return costs;
}

/** Deliveries timed one at a time with every engine: n8n's bare webhook, the trigger ignoring and starting. */
const TRIGGER_COSTS = [
	['bareWebhook', 'ignored'],
	['trigger', 'ignored'],
	['trigger', 'wanted'],
] as const;

async function runEvents(
	sim: DialerSimulator,
	plan: Plan,
	secret: string,
	shared?: Target,
): Promise<EventsResult> {
	const save = 'all' as const;
	const perBurst = Math.ceil(plan.events / plan.bursts);
	const measure = async (target: Target) => {
		const costs = await deliveryCosts(
			target,
			sim,
			plan,
			[...TRIGGER_COSTS, ['generic', 'ignored']],
			secret,
		);
		const bursts = {} as EventsResult['bursts'];
		for (const variant of ['trigger', 'generic'] as const) {
			const runs: BurstRun[] = [];
			for (let index = 0; index < plan.bursts; index++) {
				log(`events: ${variant} burst ${index + 1} of ${plan.bursts}`);
				runs.push(
					await runBurst(target, sim, variant, {
						count: perBurst,
						concurrency: plan.concurrency,
						save,
						secret,
					}),
				);
			}
			bursts[variant] = { runs, executions: runs.reduce((total, r) => total + r.executions, 0) };
		}
		return { costs, bursts, ...(await measureRates(target, sim, plan, plan.rates, secret)) };
	};
	const measured = shared ? await measure(shared) : await withTarget(sim, secret, measure);
	const result: EventsResult = {
		count: perBurst * plan.bursts,
		concurrency: plan.concurrency,
		save,
		...measured,
	};
	if (plan.legacyRates.length > 0) {
		log('events: n8n with the legacy expression engine');
		result.legacyEngine = await withTarget(
			sim,
			secret,
			async (target) => ({
				costs: await deliveryCosts(target, sim, plan, TRIGGER_COSTS, secret),
				...(await measureRates(target, sim, plan, plan.legacyRates, secret)),
			}),
			// n8n's previous engine evaluates expressions in the main isolate: no isolate per webhook call.
			{ N8N_EXPRESSION_ENGINE: 'legacy' },
		);
	}
	return result;
}

function chart(results: BenchResults): string {
	const colors = { dialer: '#1f77b4', generic: '#ff7f0e', bare: '#2ca02c' };
	const sizePanel = (
		title: string,
		yLabel: string,
		pick: (p: BenchResults['curve'][number]) => number,
	): Panel => ({
		title,
		xLabel: 'rows',
		yLabel,
		logX: true,
		series: (
			[
				['dialer', 'Dialer'],
				['generic', 'HTTP Request + Split Out'],
				['bare', 'bare fetch + JSON.parse'],
			] as const
		).map(([variant, name]) => ({
			name,
			color: colors[variant],
			points: results.curve
				.filter((p) => p.variant === variant)
				.map((p): [number, number] => [p.rows, pick(p)]),
		})),
	});
	const ratePanel = (
		title: string,
		yLabel: string,
		pick: (r: RatePoint) => number,
		goal?: Panel['goal'],
	): Panel => ({
		title,
		xLabel: 'events/s sent (7 kinds, 1 wanted)',
		yLabel,
		goal,
		series: (
			[
				['trigger', 'Dialer Trigger', colors.dialer],
				['generic', 'Webhook + IF', colors.generic],
			] as const
		).map(([variant, name, color]) => ({
			name,
			color,
			points: results.events.rates
				.filter((r) => r.variant === variant)
				.map((r): [number, number] => [r.targetRate, pick(r)]),
		})),
	});
	return chartSvg(`n8n-nodes-dialer vs n8n's generic nodes (n8n ${N8N_VERSION})`, [
		sizePanel('getFP1 to items: wall time (saving off)', 'ms (median)', (p) => p.ms.median),
		sizePanel(
			'getFP1 to items: peak RSS above idle n8n',
			'MB (median)',
			(p) => p.addedPeakMb.median,
		),
		ratePanel('Agent events: p99 acknowledgement', 'ms', (r) => r.p99Ms, {
			y: 100,
			label: 'goal 100 ms',
		}),
		ratePanel('Agent events: n8n main thread busy', '% of one core', (r) => r.mainThreadLoad * 100),
	]);
}

function writeReport(results: BenchResults, outDir: string): void {
	mkdirSync(path.join(outDir, 'bench'), { recursive: true });
	writeFileSync(path.join(outDir, 'bench', 'chart.svg'), chart(results));
	writeFileSync(path.join(outDir, 'BENCHMARKS.md'), benchmarksMarkdown(results, 'bench/chart.svg'));
	writeFileSync(
		path.join(outDir, 'bench', 'results.json'),
		`${JSON.stringify(results, null, '\t')}\n`,
	);
	log(`wrote ${path.join(outDir, 'BENCHMARKS.md')}, bench/chart.svg and bench/results.json`);
}

/**
 * `--only burst` (with the given n8n settings), `--only burst-queue` (the recommended settings
 * and the given ones) or `--only report-trigger`: measures that scenario alone, prints its table
 * and saves its results.
 */
async function onlyRun(
	only: NonNullable<Args['only']>,
	plan: Plan,
	outDir: string,
	secret: string,
	env: Record<string, string>,
) {
	const sim = await startSimulator();
	try {
		let section: string[];
		let result: unknown;
		if (only === 'burst') {
			const burst = await runBurstScenario(sim, secret, { ...plan.burst, env });
			[result, section] = [burst, burstSection(burst)];
		} else if (only === 'burst-queue') {
			const burstQueue = await runBurstQueueScenario(sim, secret, {
				...plan.burstQueue!,
				env: { ...RECOMMENDED_SETTINGS, ...env },
			});
			[result, section] = [burstQueue, burstQueueSection(burstQueue)];
		} else {
			const polls = await runReportTrigger(sim, secret, { rows: plan.pollRows, runs: plan.runs });
			[result, section] = [polls, reportTriggerSection(polls)];
		}
		mkdirSync(path.join(outDir, 'bench'), { recursive: true });
		const file = path.join(outDir, 'bench', `${only}-results.json`);
		writeFileSync(file, `${JSON.stringify(result, null, '\t')}\n`);
		process.stdout.write(`${section.join('\n')}\n`);
		log(`wrote ${file}`);
	} finally {
		await sim.close();
	}
}

async function main(): Promise<void> {
	const { plan, outDir, build, only, env } = parseArgs(process.argv.slice(2));
	// --render FILE: rewrite the report from a saved results.json (after a change of wording), measuring nothing.
	const renderIndex = process.argv.indexOf('--render');
	if (renderIndex >= 0) {
		writeReport(
			JSON.parse(readFileSync(process.argv[renderIndex + 1], 'utf8')) as BenchResults,
			outDir,
		);
		return;
	}
	const started = Date.now();
	const loadBefore = os.loadavg();
	log(
		`${plan.quick ? 'quick' : 'full'} run, load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')}`,
	);
	if (build) await run('npm', ['run', 'build'], { cwd: PROJECT_ROOT });
	const runtime = await ensureRuntime();
	const secret = `bench-secret-${randomUUID()}`;
	if (only) {
		await onlyRun(only, plan, outDir, secret, env);
		return;
	}
	const sim = await startSimulator({ fichas: plan.fichas, calls: plan.calls });
	const traffic = new ServerTrafficCounter(Number(new URL(sim.baseUrl).port));
	// Quick mode shares one n8n; the full run starts a fresh one wherever memory is compared.
	const shared = plan.quick ? await startTarget(sim, secret) : undefined;
	try {
		const reports = await runReports(
			sim,
			secret,
			{
				cases: [
					{ measured: fichaCase(sim, plan.reportRows), check: fichaCase(sim, plan.curveSizes[0]) },
					{ measured: callCase(sim), check: callCase(sim, 1) },
				],
				saves: ['none', 'all'],
				runs: plan.runs,
			},
			shared,
		);
		const curve = await runCurve(
			sim,
			secret,
			plan.curveSizes.filter((rows) => rows < plan.reportRows),
			plan.runs,
			shared,
		);
		// The largest size is the headline case, measured above in its own n8n.
		for (const result of reports.filter((r) => r.operation === 'getFP1')) {
			curve.push({ rows: result.rows, variant: 'bare', ...result.bare });
			for (const v of result.variants.filter((variant) => variant.save === 'none')) {
				curve.push({ rows: result.rows, variant: v.variant, ms: v.ms, addedPeakMb: v.addedPeakMb });
			}
		}
		const reportTrigger = await runReportTrigger(
			sim,
			secret,
			{ rows: plan.pollRows, runs: plan.runs },
			shared,
		);
		log('bulk actions');
		const bulkOn = (target: Target) =>
			runBulk(target, sim, traffic, {
				items: plan.bulkItems,
				parallel: plan.bulkParallel,
				runs: plan.runs,
				save: 'none',
			});
		const bulk = shared ? await bulkOn(shared) : await withTarget(sim, secret, bulkOn);
		const events = await runEvents(sim, plan, secret, shared);
		const bursts: BurstResult[] = [];
		for (const env of BURST_SETTINGS) {
			log(`shift-start bursts, n8n settings ${JSON.stringify(env)}`);
			bursts.push(await runBurstScenario(sim, secret, { ...plan.burst, env }));
		}
		let burstQueue: BurstQueueResult | undefined;
		if (plan.burstQueue) {
			log(`shift-start bursts in queue mode, n8n settings ${JSON.stringify(RECOMMENDED_SETTINGS)}`);
			burstQueue = await runBurstQueueScenario(sim, secret, {
				...plan.burstQueue,
				env: RECOMMENDED_SETTINGS,
			});
		}

		const results: BenchResults = {
			machine: {
				date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
				commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--', 'nodes', 'credentials']) ? ' (with uncommitted node changes)' : ''}`,
				cpu: os.cpus()[0]?.model ?? 'unknown CPU',
				cores: os.cpus().length,
				memoryGb: os.totalmem() / 2 ** 30,
				kernel: os.release(),
				benchNode: process.versions.node,
				n8nNode: execFileSync(runtime.nodeBin, ['--version'], { encoding: 'utf8' })
					.trim()
					.replace(/^v/, ''),
				n8nVersion: N8N_VERSION,
				loadBefore,
				loadAfter: os.loadavg(),
				durationMin: (Date.now() - started) / 60_000,
				quick: plan.quick,
			},
			settings: {
				Runs: `${plan.runs} measured runs per variant after 1 warm-up run; medians with min–max`,
				Isolation: plan.quick
					? 'one n8n for everything (quick mode)'
					: 'a fresh n8n for each report variant and save mode (memory is compared between processes in the same state); the size curve and the Report Trigger poll in one fresh n8n per variant; bulk actions and events each in one n8n with variants in turn',
				Simulator: `in the bench process, seeded with ${plan.fichas.toLocaleString('en-US')} fichas and ${plan.calls.toLocaleString('en-US')} calls`,
				'Saving execution data':
					'`none` = successful executions not saved (workflow setting), `all` = n8n’s default',
				Memory:
					'sum over n8n’s process group of each process’s VmHWM, reset through /proc/<pid>/clear_refs before each run',
				CPU: 'utime + stime of n8n’s main thread (/proc/<pid>/task/<pid>/stat), 10 ms resolution',
			},
			reports,
			curve,
			reportTrigger,
			bulk,
			events,
			bursts,
			...(burstQueue ? { burstQueue } : {}),
		};
		writeReport(results, outDir);
	} finally {
		traffic.close();
		await shared?.stop();
		await sim.close();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		// exit() runs the harness's exit hook, which stops any n8n still running.
		process.exit(1);
	},
);
