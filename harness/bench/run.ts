/**
 * `npm run bench`: this package against n8n's generic nodes, on the same n8n, simulator and data.
 * Measures every section in turn, saving each in harness/bench/results/<section>.json as soon as it is
 * measured, and assembles BENCHMARKS.md and harness/bench/chart.svg from the saved sections.
 * `--only <section>` measures one section again; `--render` reassembles the page, measuring
 * nothing. `--quick` (small sizes, one shared n8n, a couple of minutes) and a burst run narrowed
 * with --env, --levels, --runs, --deliveries or --save write to a temporary folder unless `--out`
 * is given: they are not figures for the page.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { RECOMMENDED_N8N_SETTINGS } from '../n8n/dialer';
import { PROJECT_ROOT } from '../n8n/instance';
import { ensureRuntime, run, type N8nRuntime } from '../n8n/runtime';
import { startSimulator } from '../simulator';
import type { DialerSimulator } from '../simulator/types';
import { ServerTrafficCounter } from './lib/connections';
import { log, startTarget, withTarget, type Target } from './lib/target';
import { benchChart } from './report/benchChart';
import { benchmarksMarkdown, sectionMarkdown, withHandWritten } from './report/markdown';
import {
	readSections,
	SECTIONS,
	writeSection,
	type EventsResult,
	type Machine,
	type SectionName,
	type SectionRecord,
	type SectionResults,
} from './report/sections';
import { runBulk } from './scenarios/bulk';
import { envFlags, flagValue } from './lib/args';
import { runBurstScenario, type BurstOptions, type BurstResult } from './scenarios/burst';
import { runBurstQueueScenario, type BurstQueueOptions } from './scenarios/burstQueue';
import { runBurstSettingsScenario, type BurstSettingsOptions } from './scenarios/burstSettings';
import { runSoakScenario, SOAK_SETTINGS, type SoakOptions } from './scenarios/soak';
import { runRefusedFloodScenario, type RefusedFloodOptions } from './scenarios/refusedFlood';
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
import { runRecordings, type RecordingsOptions } from './scenarios/recordings';
import { runReportTrigger } from './scenarios/reportTrigger';
import {
	FLOOR_OPERATIONS,
	runReportFloor,
	type FloorOperation,
	type ReportFloorResult,
} from './scenarios/reportFloor';
import { runSummaries } from './scenarios/summaries';

interface Plan {
	quick: boolean;
	fichas: number;
	calls: number;
	reportRows: number;
	/** Rows of each whole-period report in section report-floor. */
	floorRows: number;
	/** New rows a Report Trigger poll finds. */
	pollRows: number;
	/** Call recordings downloaded in one run, each `seconds` of 8 kHz 16-bit WAV (16 kB/s). */
	recordings: RecordingsOptions;
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
	/** PostgreSQL, Redis and up to six n8n processes: in quick mode only when asked for with --only. */
	burstQueue?: Omit<BurstQueueOptions, 'env'>;
	/** Six fresh n8n, one per setting: none in quick mode unless asked for with --only. */
	burstSettings?: Omit<BurstSettingsOptions, 'env'>;
	refusedFlood: Omit<RefusedFloodOptions, 'env'>;
	/** Eight fresh n8n, 10 minutes each: none in quick mode unless asked for with --only. */
	soak?: Omit<SoakOptions, 'env'>;
	/** The soak with a core taken: none in quick mode unless asked for with --only. */
	soakBusy?: Omit<SoakOptions, 'env'>;
}

/** n8n's defaults, then the recommended settings (no expression isolate per webhook call). */
const BURST_SETTINGS: Array<Record<string, string>> = [{}, RECOMMENDED_N8N_SETTINGS];

const FULL: Plan = {
	quick: false,
	// The biggest form gets about 42 % of the fichas: enough for 100,000 rows of one form.
	fichas: 240_000,
	// Half as many inbound calls, 60 % of them classified: 100,000 of each for report-floor.
	calls: 200_000,
	reportRows: 100_000,
	floorRows: 100_000,
	pollRows: 10_000,
	// 328 s of audio: 5.0 MB a file.
	recordings: { files: 200, seconds: 328, parallel: 5, runs: 3, sweepFiles: 50 },
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
	// From a level single mode holds on its defaults to one it loses at.
	burstQueue: { deliveries: 1_000, levels: [50, 150, 300], runs: 2 },
	// The level n8n's defaults already lose at, and the largest the recommended setting held.
	burstSettings: { deliveries: 1_000, levels: [150, 600], runs: 3 },
	refusedFlood: { deliveries: 1_000, inFlight: 50, runs: 3 },
	soak: {
		rates: [2, 5, 10, 20],
		minutes: 10,
		settings: ['defaults', 'recommended'],
	},
	soakBusy: { rates: [2, 5, 10], minutes: 10, settings: ['defaultsBusy'] },
};

const QUICK: Plan = {
	quick: true,
	fichas: 6_000,
	calls: 3_200,
	reportRows: 2_000,
	floorRows: 1_000,
	pollRows: 1_000,
	recordings: { files: 20, seconds: 328, parallel: 5, runs: 1, sweepFiles: 5 },
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
	burstQueue: { deliveries: 140, levels: [50], runs: 1 },
	refusedFlood: { deliveries: 100, inFlight: 20, runs: 1 },
};

interface Args {
	plan: Plan;
	outDir: string;
	build: boolean;
	/** `--only <section>`: that section alone, printed, saved and put on the page. */
	only?: SectionName;
	/**
	 * `--env NAME=VALUE` (repeatable): n8n settings for a burst or recordings run (burst-queue:
	 * every process of every deployment).
	 */
	env: Record<string, string>;
	/** report-floor: `--cases getFP1,getRQ4` measures those reports only. */
	floorOperations: FloorOperation[];
	/** report-floor: `--append` adds this run's round to the saved ones instead of replacing them. */
	append: boolean;
	/** `--runs N` (burst sections, report-trigger). */
	runs?: number;
}

function parseArgs(argv: string[]): Args {
	const value = (flag: string) => flagValue(argv, flag);
	const quick = argv.includes('--quick');
	const only = value('--only') as Args['only'];
	if (only !== undefined && !SECTIONS.includes(only))
		throw new Error(`--only takes ${SECTIONS.join(', ')}, not ${only}`);
	const out = value('--out');
	const narrowing = [
		'--env',
		'--levels',
		'--runs',
		'--deliveries',
		'--save',
		'--rates',
		'--minutes',
		'--settings',
	];
	const outDir = out
		? path.resolve(out)
		: quick || narrowing.some((flag) => argv.includes(flag))
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
	const burstQueue = narrowed(base.burstQueue!);
	const burstSettings = narrowed(FULL.burstSettings!);
	// Soak runs may narrow too: --rates 10 --minutes 2 --settings recommended.
	const rates = value('--rates');
	const soakLike = (scenario: Omit<SoakOptions, 'env'>) => ({
		rates: rates ? rates.split(',').map(Number) : scenario.rates,
		minutes: Number(value('--minutes') ?? scenario.minutes),
		settings: value('--settings')?.split(',') ?? scenario.settings,
	});
	const soak = soakLike(FULL.soak!);
	const soakBusy = soakLike(FULL.soakBusy!);
	const unknownSettings = [...soak.settings, ...soakBusy.settings].filter(
		(key) => !SOAK_SETTINGS.some((s) => s.key === key),
	);
	if (unknownSettings.length)
		throw new Error(
			`--settings takes ${SOAK_SETTINGS.map((s) => s.key).join(', ')}, not ${unknownSettings.join(', ')}`,
		);
	return {
		plan: {
			...base,
			burst,
			// --files 50: fewer recordings for a first measurement.
			recordings: { ...base.recordings, files: Number(value('--files') ?? base.recordings.files) },
			burstQueue: only === 'burst-queue' || !quick ? burstQueue : undefined,
			...(only === 'burst-settings' || !quick ? { burstSettings } : {}),
			...(only === 'soak' || !quick ? { soak } : {}),
			...(only === 'soak-busy' || !quick ? { soakBusy } : {}),
		},
		outDir,
		build: !argv.includes('--no-build'),
		only,
		env: envFlags(argv),
		floorOperations: (value('--cases')?.split(',') ?? FLOOR_OPERATIONS) as FloorOperation[],
		append: argv.includes('--append'),
		runs: value('--runs') === undefined ? undefined : Number(value('--runs')),
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

/** BENCHMARKS.md (its hand-written part kept) and harness/bench/chart.svg from the sections in `outDir`. */
function writePage(outDir: string): void {
	const saved = readSections(outDir);
	const chart = benchChart(saved);
	if (chart) writeFileSync(path.join(outDir, 'harness', 'bench', 'chart.svg'), chart);
	const page = path.join(outDir, 'BENCHMARKS.md');
	const current = existsSync(page) ? readFileSync(page, 'utf8') : undefined;
	writeFileSync(
		page,
		withHandWritten(benchmarksMarkdown(saved, 'harness/bench/chart.svg'), current),
	);
	log(`wrote ${page} from ${Object.keys(saved).join(', ')}`);
}

interface Context {
	sim: DialerSimulator;
	traffic: ServerTrafficCounter;
	plan: Plan;
	secret: string;
	/** n8n settings given with --env (burst sections, report-trigger). */
	env: Record<string, string>;
	/** report-trigger: `--runs N` measured polls of each kind (a profile run). */
	runs?: number;
	/** Quick mode: one n8n for every section. */
	shared?: Target;
	floorOperations: FloorOperation[];
	/** The rounds of report-floor saved before this run, when they are to be kept. */
	floorBefore?: ReportFloorResult;
}

/** How each section is measured. */
const MEASURE: { [Name in SectionName]: (context: Context) => Promise<SectionResults[Name]> } = {
	async reports({ sim, secret, plan, shared }) {
		const reports = await runReports(
			sim,
			secret,
			{
				cases: [
					{ measured: fichaCase(sim, plan.reportRows), check: fichaCase(sim, plan.curveSizes[0]) },
					{ measured: callCase(sim, undefined, plan.reportRows), check: callCase(sim, 1) },
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
		return { reports, curve };
	},
	async 'report-floor'({ sim, secret, plan, floorOperations, floorBefore }) {
		const loadBefore = os.loadavg()[0];
		const cases = await runReportFloor(sim, secret, {
			operations: floorOperations,
			rows: plan.floorRows,
			runs: plan.runs,
		});
		const round = {
			...{ date: new Date().toISOString(), commit: commitOf(), loadBefore },
			...{ replayedAnswers: true, cases },
		};
		return { rounds: [...(floorBefore?.rounds ?? []), round] };
	},
	'report-trigger': ({ sim, secret, plan, shared, env, runs }) => {
		// Scheduled polls are two minutes apart: none in a quick run.
		const polls = runs ?? plan.runs;
		const scheduledRuns = plan.quick ? 0 : polls;
		return runReportTrigger(
			sim,
			secret,
			{ rows: plan.pollRows, runs: polls, scheduledRuns },
			shared,
			env,
		);
	},
	summaries: ({ sim, secret, plan }) => runSummaries(sim, secret, plan.runs),
	recordings: ({ sim, secret, plan, env }) => runRecordings(sim, secret, plan.recordings, env),
	async bulk({ sim, traffic, secret, plan, shared }) {
		const bulkOn = (target: Target) =>
			runBulk(target, sim, traffic, {
				items: plan.bulkItems,
				parallel: plan.bulkParallel,
				runs: plan.runs,
				save: 'none',
			});
		return shared ? await bulkOn(shared) : await withTarget(sim, secret, bulkOn);
	},
	events: ({ sim, plan, secret, shared }) => runEvents(sim, plan, secret, shared),
	async burst({ sim, secret, plan, env }) {
		const bursts: BurstResult[] = [];
		for (const settings of Object.keys(env).length > 0 ? [env] : BURST_SETTINGS) {
			log(`shift-start bursts, n8n settings ${JSON.stringify(settings)}`);
			bursts.push(await runBurstScenario(sim, secret, { ...plan.burst, env: settings }));
		}
		return bursts;
	},
	'burst-settings': ({ sim, secret, plan, env }) =>
		runBurstSettingsScenario(sim, secret, { ...plan.burstSettings!, env }),
	'burst-queue': ({ sim, secret, plan, env }) => {
		log(`shift-start bursts in queue mode, n8n settings ${JSON.stringify(env)}`);
		return runBurstQueueScenario(sim, secret, { ...plan.burstQueue!, env });
	},
	soak: ({ sim, secret, plan, env }) => runSoakScenario(sim, secret, { ...plan.soak!, env }),
	'soak-busy': ({ sim, secret, plan, env }) =>
		runSoakScenario(sim, secret, { ...plan.soakBusy!, env }),
	'refused-flood': ({ sim, secret, plan, env, shared }) => {
		const settings = { ...RECOMMENDED_N8N_SETTINGS, ...env };
		log(`refused deliveries amid accepted ones, n8n settings ${JSON.stringify(settings)}`);
		return runRefusedFloodScenario(sim, secret, { ...plan.refusedFlood, env: settings }, shared);
	},
};

/** How every section is measured, said once on the page. */
function settingsOf(plan: Plan): Record<string, string> {
	return {
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
	};
}

/** The commit measured, and whether the nodes had changes not yet committed. */
const commitOf = () =>
	`${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--', 'nodes', 'credentials']) ? ' (with uncommitted node changes)' : ''}`;

/** The machine, n8n and duration of a section that started at `started`. */
function machineOf(
	runtime: N8nRuntime,
	plan: Plan,
	started: number,
	loadBefore: number[],
): Machine {
	return {
		date: new Date(started).toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
		commit: commitOf(),
		cpu: os.cpus()[0]?.model ?? 'unknown CPU',
		cores: os.cpus().length,
		memoryGb: os.totalmem() / 2 ** 30,
		kernel: os.release(),
		benchNode: process.versions.node,
		n8nNode: execFileSync(runtime.nodeBin, ['--version'], { encoding: 'utf8' })
			.trim()
			.replace(/^v/, ''),
		n8nVersion: runtime.n8nVersion,
		loadBefore,
		loadAfter: os.loadavg(),
		durationMin: (Date.now() - started) / 60_000,
		quick: plan.quick,
	};
}

async function main(): Promise<void> {
	const { plan, outDir, build, only, env, floorOperations, append, runs } = parseArgs(
		process.argv.slice(2),
	);
	// --render: rewrite the page from the saved sections (after a change of wording), measuring nothing.
	if (process.argv.includes('--render')) {
		writePage(outDir);
		return;
	}
	const sections = only
		? [only]
		: SECTIONS.filter(
				(name) =>
					(name !== 'burst-queue' || plan.burstQueue) &&
					(name !== 'burst-settings' || plan.burstSettings) &&
					(name !== 'soak' || plan.soak) &&
					(name !== 'soak-busy' || plan.soakBusy),
			);
	log(
		`${plan.quick ? 'quick' : 'full'} run of ${sections.join(', ')}, load average ${os
			.loadavg()
			.map((v) => v.toFixed(2))
			.join(' ')}`,
	);
	if (build) await run('npm', ['run', 'build'], { cwd: PROJECT_ROOT });
	const runtime = await ensureRuntime();
	const secret = `bench-secret-${randomUUID()}`;
	const sim = await startSimulator({ fichas: plan.fichas, calls: plan.calls });
	const traffic = new ServerTrafficCounter(Number(new URL(sim.baseUrl).port));
	// Quick mode shares one n8n; the full run starts a fresh one wherever memory is compared.
	const shared = plan.quick ? await startTarget(sim, secret) : undefined;
	try {
		for (const section of sections) {
			const started = Date.now();
			const loadBefore = os.loadavg();
			log(`section ${section}`);
			const floorBefore = append ? readSections(outDir)['report-floor']?.result : undefined;
			const result = await MEASURE[section]({
				...{ sim, traffic, plan, secret, env, shared },
				...{ floorOperations, floorBefore, runs },
			});
			const record = {
				section,
				machine: machineOf(runtime, plan, started, loadBefore),
				settings: settingsOf(plan),
				result,
			} as SectionRecord;
			log(`wrote ${writeSection(outDir, record)}`);
			if (only) process.stdout.write(`${sectionMarkdown(record).join('\n')}\n`);
			// After every section, so that an interrupted run keeps what it measured.
			writePage(outDir);
		}
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
