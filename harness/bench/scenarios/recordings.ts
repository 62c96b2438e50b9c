/**
 * Scenario 6, call recordings as files: a classification report of `files` calls, each with a
 * recording of about 5 MB, downloaded into n8n's binary data in filesystem mode. This package
 * (Get Classification Results with Download Recordings, Options → Parallel Requests) against what
 * a user builds from n8n's nodes: the same report without downloads, then an HTTP Request node
 * using the Dialer API credential on each row's `arquivo`, response format File. Both in two n8n
 * settings, each variant in a fresh n8n: n8n's defaults, and V8's young generation capped. The
 * memory added is the peak of n8n's processes above their idle RSS, less the same workflow's on
 * one-second recordings (what running the workflow costs without the bytes).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DateTime } from 'luxon';

import type { NodeSpec } from '../../n8n/api';
import type { DialerSimulator } from '../../simulator/types';
import { summarize, type Summary } from '../lib/stats';
import { idleRssMb, log, timeRuns, withTarget, type Target } from '../lib/target';
import { createRunWorkflow, dialerNode } from '../lib/workflows';

export type RecordingVariant = 'dialer' | 'httpRequest';

/** One workflow's runs on `files` recordings of `fileMb` each. */
export interface RecordingMeasure {
	files: number;
	/** Downloads at a time (the node's Parallel Requests; the report's for HTTP Request). */
	parallel?: number;
	fileMb: number;
	ms: Summary;
	addedPeakMb: Summary;
	/** Recordings the simulator served per run (the warm-up included in the count). */
	served: number;
	/** V8's collections in n8n's main process per run (warm-up included), from ./gcLog.cjs. */
	gc?: GcCounts;
}

export interface GcCounts {
	minor: number;
	full: number;
	/** Time of the full collections: their pauses and their incremental marking steps. */
	fullMs: number;
}

/** One n8n setting: each variant's baseline and main measure, the node's count and size sweep. */
export interface RecordingSetting {
	/** What n8n was started with, added to NODE_OPTIONS; '' for n8n's defaults. */
	nodeOptions: string;
	variants: Array<{
		variant: RecordingVariant;
		/** The same workflow on one-second recordings, first in the same n8n. */
		tiny: RecordingMeasure;
		all: RecordingMeasure;
	}>;
	/**
	 * Download Recordings on `sweepFiles` files of each size, in the same n8n as its `all`, all in
	 * ascending order of bytes per run.
	 */
	sweep: RecordingMeasure[];
	/** Download Recordings on the main files at WIDER_PARALLEL downloads at a time, last. */
	wider?: RecordingMeasure;
}

export interface RecordingsResult {
	files: number;
	fileMb: number;
	parallel: number;
	tinyKb: number;
	settings: RecordingSetting[];
}

export interface RecordingsOptions {
	files: number;
	seconds: number;
	parallel: number;
	runs: number;
	/** Files per run of the size sweep (1, 5 and 20 MB): memory against count and size. */
	sweepFiles: number;
}

const FILESYSTEM_MODE = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' };
const BYTES_PER_SECOND = 16_000;
const WAV_HEADER = 44;
const TINY_SECONDS = 1;
/** About 1, 5 and 20 MB of 8 kHz 16-bit audio. */
const SWEEP_SECONDS = [66, 328, 1311];
/** V8's young generation capped at 1 MB: the setting the memory goal is met with. */
export const CAPPED_YOUNG_GENERATION = '--max-semi-space-size=1';
const WIDER_PARALLEL = 20;
const GC_LOG_PRELOAD = path.join(__dirname, '..', 'lib', 'gcLog.cjs');

const megabytesOf = (seconds: number) => (WAV_HEADER + seconds * BYTES_PER_SECOND) / 1_048_576;

/** `count` calls two nights back from `hour`, one a second, each recorded for `seconds`. */
function addCalls(sim: DialerSimulator, count: number, seconds: number, hour: number) {
	const start = DateTime.now().minus({ days: 2 }).startOf('day').plus({ hours: hour });
	sim.rows.add({
		report: 'getRQ4',
		count,
		at: start.toMillis(),
		stepMs: 1000,
		durationSeconds: seconds,
		recorded: true,
	});
	const format = "yyyy-MM-dd'T'HH:mm:ss";
	return {
		seconds,
		/** The period holding the first `files` of those calls. */
		period: (files: number) => ({
			period: 'custom',
			start: start.toFormat(format),
			end: start.plus({ seconds: files - 1 }).toFormat(format),
		}),
	};
}

function workflowNodes(
	variant: RecordingVariant,
	target: Target,
	period: Record<string, string>,
	parallel: number,
): NodeSpec[] {
	const report = {
		resource: 'report',
		operation: 'getClassificationResults',
		...period,
		returnAll: true,
		filters: {},
		options: { parallelRequests: parallel },
	};
	if (variant === 'dialer') {
		return [
			dialerNode(target.dialer, {
				...report,
				downloadRecordings: true,
				binaryPropertyName: 'recording',
			}),
		];
	}
	return [
		dialerNode(target.dialer, report),
		{
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				url: '={{ $json.arquivo }}',
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'dialerApi',
				options: { response: { response: { responseFormat: 'file' } } },
			},
			credentials: { dialerApi: { id: target.dialer.id, name: target.dialer.name } },
		},
	];
}

/** What harness/bench/lib/gcLog.cjs wrote for `pid` (n8n's main process) since `from`, per run. */
function gcCounts(log: string, from: number, pid: number, runs: number): GcCounts {
	const counts = { minor: 0, full: 0, fullMs: 0 };
	for (const line of log.slice(from).split('\n')) {
		const [linePid, kind, ms] = line.split(' ');
		if (Number(linePid) !== pid) continue;
		if (kind === 'minor') counts.minor++;
		if (kind === 'major') counts.full++;
		if (kind === 'major' || kind === 'incremental') counts.fullMs += Number(ms);
	}
	return { minor: counts.minor / runs, full: counts.full / runs, fullMs: counts.fullMs / runs };
}

const served = (sim: DialerSimulator) =>
	sim.requests.filter((request) => request.operation === 'recording' && request.status === 200)
		.length;

export async function runRecordings(
	sim: DialerSimulator,
	secret: string,
	options: RecordingsOptions,
	env: Record<string, string> = {},
): Promise<RecordingsResult> {
	const main = addCalls(sim, options.files, options.seconds, 2);
	const tiny = addCalls(sim, options.files, TINY_SECONDS, 4);
	const sweep = SWEEP_SECONDS.map((seconds, index) =>
		seconds === options.seconds ? main : addCalls(sim, options.sweepFiles, seconds, 6 + index),
	);
	/** Measures in a fresh n8n in filesystem mode; memory above its idle RSS. */
	const inFreshN8n = <T>(
		variant: RecordingVariant,
		nodeOptions: string,
		work: (
			measure: (calls: typeof main, files: number, parallel?: number) => Promise<RecordingMeasure>,
		) => Promise<T>,
	) => {
		const gcLog = path.join(tmpdir(), `dialer-bench-gc-${randomUUID()}.log`);
		writeFileSync(gcLog, '');
		const n8nEnv = {
			...FILESYSTEM_MODE,
			...env,
			NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${GC_LOG_PRELOAD} ${nodeOptions}`.trim(),
			BENCH_GC_FILE: gcLog,
		};
		return withTarget(
			sim,
			secret,
			async (target) => {
				const baselineMb = await idleRssMb(target);
				const { pid } = target.n8n;
				return work(async (calls, files, parallel = options.parallel) => {
					const workflow = await createRunWorkflow(
						target.api,
						workflowNodes(variant, target, calls.period(files), parallel),
						{
							save: 'none',
							timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
							answer: 'noData',
							name: `bench recordings: ${variant}, ${files} files of ${calls.seconds} s`,
						},
					);
					const servedBefore = served(sim);
					const logBefore = readFileSync(gcLog, 'utf8').length;
					const samples = await timeRuns(target, workflow, [{}], options.runs, { baselineMb });
					const log = readFileSync(gcLog, 'utf8');
					return {
						files,
						parallel,
						fileMb: megabytesOf(calls.seconds),
						ms: summarize(samples.map((sample) => sample.ms)),
						addedPeakMb: summarize(samples.map((sample) => sample.addedPeakMb)),
						served: (served(sim) - servedBefore) / (options.runs + 1),
						gc: gcCounts(log, logBefore, pid, options.runs + 1),
					};
				});
			},
			n8nEnv,
		).finally(() => rmSync(gcLog, { force: true }));
	};
	const settings: RecordingSetting[] = [];
	for (const nodeOptions of ['', CAPPED_YOUNG_GENERATION]) {
		const setting: RecordingSetting = { nodeOptions, variants: [], sweep: [] };
		for (const variant of ['dialer', 'httpRequest'] as const) {
			log(`recordings: ${variant}, n8n ${nodeOptions || 'defaults'}`);
			await inFreshN8n(variant, nodeOptions, async (measure) => {
				// The tiny files first: they also take what a fresh n8n's first runs cost.
				const tinyRun = await measure(tiny, options.files);
				if (variant !== 'dialer') {
					setting.variants.push({
						variant,
						tiny: tinyRun,
						all: await measure(main, options.files),
					});
					return;
				}
				// Fewest bytes first: each peak also holds what earlier runs left in n8n's RSS, so
				// memory growing with count or size would show.
				const points = [
					{ calls: main, files: options.files },
					...sweep.map((calls) => ({ calls, files: options.sweepFiles })),
				].sort((a, b) => a.files * a.calls.seconds - b.files * b.calls.seconds);
				for (const point of points) {
					const measured = await measure(point.calls, point.files);
					if (point.calls === main && point.files === options.files)
						setting.variants.push({ variant, tiny: tinyRun, all: measured });
					else setting.sweep.push(measured);
				}
				// Last, the node at more downloads at a time: whether the time left to HTTP Request's
				// is the parallelism.
				setting.wider = await measure(main, options.files, WIDER_PARALLEL);
			});
		}
		settings.push(setting);
	}
	return {
		files: options.files,
		fileMb: megabytesOf(options.seconds),
		parallel: options.parallel,
		tinyKb: (WAV_HEADER + TINY_SECONDS * BYTES_PER_SECOND) / 1024,
		settings,
	};
}
