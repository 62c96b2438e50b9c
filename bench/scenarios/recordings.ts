/**
 * Scenario 6, call recordings as files: a classification report of `files` calls, each with a
 * recording of about 5 MB, downloaded into n8n's binary data in filesystem mode. This package
 * (Get Classification Results with Download Recordings, Options → Parallel Requests) against what
 * a user builds from n8n's nodes: the same report without downloads, then an HTTP Request node
 * using the Dialer API credential on each row's `arquivo`, response format File. Each variant
 * runs in a fresh n8n; the memory added is the peak of n8n's processes above their idle RSS.
 */
import { DateTime } from 'luxon';

import type { NodeSpec } from '../../scripts/n8n/api';
import type { DialerSimulator } from '../../simulator/types';
import { summarize, type Summary } from '../lib/stats';
import { idleRssMb, log, timeRuns, withTarget, type Target } from '../lib/target';
import { createRunWorkflow, dialerNode } from '../lib/workflows';

export type RecordingVariant = 'dialer' | 'httpRequest';

export interface RecordingVariantResult {
	variant: RecordingVariant;
	ms: Summary;
	addedPeakMb: Summary;
	/** Recordings the simulator served in the measured runs, over the files wanted. */
	served: number;
}

export interface RecordingsResult {
	files: number;
	fileMb: number;
	parallel: number;
	variants: RecordingVariantResult[];
	/** Download Recordings on a tenth of the files, in the same n8n first: memory against count. */
	fewer?: RecordingVariantResult & { files: number };
	/**
	 * Each variant first on as many recordings of one second (`tinyKb`), in the same n8n: what the
	 * run costs without the bytes, so that the difference is the memory the file bytes add.
	 */
	tiny?: RecordingVariantResult[];
	tinyKb?: number;
	/**
	 * Download Recordings again, baseline then all files, in an n8n started with `nodeOptions`
	 * (V8's young generation capped): whether what the bytes add is garbage V8 frees in batches.
	 */
	cappedYoung?: { nodeOptions: string; tiny: RecordingVariantResult; all: RecordingVariantResult };
}

const FILESYSTEM_MODE = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' };
const BYTES_PER_SECOND = 16_000;

const TINY_SECONDS = 1;
const CAPPED_YOUNG_GENERATION = '--max-semi-space-size=1';

/** `count` calls two nights back from `hour`, one a second, each recorded for `seconds`; their period. */
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
	return (first: number) => ({
		period: 'custom',
		start: start.toFormat(format),
		end: start.plus({ seconds: first - 1 }).toFormat(format),
	});
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

export async function runRecordings(
	sim: DialerSimulator,
	secret: string,
	options: { files: number; seconds: number; parallel: number; runs: number },
	env: Record<string, string> = {},
): Promise<RecordingsResult> {
	const fewerFiles = Math.max(1, Math.round(options.files / 10));
	const big = addCalls(sim, options.files, options.seconds, 2);
	const tiny = addCalls(sim, options.files, TINY_SECONDS, 4)(options.files);
	const fileMb = (44 + options.seconds * BYTES_PER_SECOND) / 1_048_576;
	/** Measures `work` in a fresh n8n in filesystem mode; memory above its idle RSS. */
	const inFreshN8n = <T>(
		variant: RecordingVariant,
		n8nEnv: Record<string, string>,
		work: (
			measure: (period: Record<string, string>, files: number) => Promise<RecordingVariantResult>,
		) => Promise<T>,
	) =>
		withTarget(
			sim,
			secret,
			async (target) => {
				const baselineMb = await idleRssMb(target);
				return work(async (period, files) => {
					const workflow = await createRunWorkflow(
						target.api,
						workflowNodes(variant, target, period, options.parallel),
						{
							save: 'none',
							timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
							answer: 'noData',
							name: `bench recordings: ${variant}, ${files} files`,
						},
					);
					const servedBefore = served(sim);
					const samples = await timeRuns(target, workflow, [{}], options.runs, { baselineMb });
					return {
						variant,
						ms: summarize(samples.map((sample) => sample.ms)),
						addedPeakMb: summarize(samples.map((sample) => sample.addedPeakMb)),
						served: (served(sim) - servedBefore) / (options.runs + 1),
					};
				});
			},
			{ ...FILESYSTEM_MODE, ...env, ...n8nEnv },
		);
	const variants: RecordingVariantResult[] = [];
	const tinyVariants: RecordingVariantResult[] = [];
	let fewer: RecordingsResult['fewer'];
	for (const variant of ['dialer', 'httpRequest'] as const) {
		log(`recordings: ${options.files} files of ${fileMb.toFixed(1)} MB, ${variant}`);
		await inFreshN8n(variant, {}, async (measure) => {
			// The tiny files first: they also take what a fresh n8n's first runs cost.
			tinyVariants.push(await measure(tiny, options.files));
			if (variant === 'dialer') {
				fewer = { ...(await measure(big(fewerFiles), fewerFiles)), files: fewerFiles };
			}
			variants.push(await measure(big(options.files), options.files));
		});
	}
	log(`recordings: dialer, n8n with ${CAPPED_YOUNG_GENERATION}`);
	const nodeOptions = `${env.NODE_OPTIONS ?? ''} ${CAPPED_YOUNG_GENERATION}`.trim();
	const cappedYoung = await inFreshN8n(
		'dialer',
		{ NODE_OPTIONS: nodeOptions },
		async (measure) => ({
			nodeOptions,
			tiny: await measure(tiny, options.files),
			all: await measure(big(options.files), options.files),
		}),
	);
	const tinyKb = (44 + TINY_SECONDS * BYTES_PER_SECOND) / 1024;
	return {
		files: options.files,
		fileMb,
		parallel: options.parallel,
		variants,
		fewer,
		tiny: tinyVariants,
		tinyKb,
		cappedYoung,
	};
}

const served = (sim: DialerSimulator) =>
	sim.requests.filter((request) => request.operation === 'recording' && request.status === 200)
		.length;

export function recordingsSection(result: RecordingsResult): string[] {
	const [dialer, http] = result.variants;
	const [dialerTiny, httpTiny] = result.tiny ?? [];
	const capped = result.cappedYoung;
	const mb = (value: number) => `${Math.round(value)} MB`;
	const spread = (s: Summary, unit: (value: number) => string) =>
		s.runs > 1 ? `${unit(s.median)} (${unit(s.min)}–${unit(s.max)})` : unit(s.median);
	const bytesOf = (v: RecordingVariantResult, tinyRun?: RecordingVariantResult) =>
		tinyRun ? v.addedPeakMb.median - tinyRun.addedPeakMb.median : v.addedPeakMb.median;
	const row = (name: string, v: RecordingVariantResult, tinyRun?: RecordingVariantResult) => {
		const bytes = bytesOf(v, tinyRun);
		return (
			`| ${name} | ${spread(v.ms, (ms) => `${Math.round(ms).toLocaleString('en-US')} ms`)} | ` +
			`${spread(v.addedPeakMb, mb)} | ` +
			(!result.tiny
				? `${(bytes / result.fileMb).toFixed(2)}× | `
				: tinyRun
					? bytes > 0
						? `${mb(bytes)} (${(bytes / result.fileMb).toFixed(2)}×) | `
						: `none: peak ${mb(-bytes)} below the baseline's | `
					: '| ') +
			`${v.served} of ${result.files} |`
		);
	};
	const tinyName = `${result.files} recordings of ${Math.round(result.tinyKb ?? 0)} kB (baseline)`;
	const inParallel = `${result.parallel} in parallel`;
	const goal = 1.5 * result.fileMb;
	const verdict = (bytes: number) => (bytes < goal ? 'met' : 'missed');
	return [
		`## Call recordings: ${result.files} files of ${result.fileMb.toFixed(1)} MB, filesystem binary mode`,
		'',
		result.tiny
			? '| Variant | Time (median) | Memory added (median) | Added by the file bytes (× one file) | Served per run |'
			: '| Variant | Time (median) | Memory added (median) | In files | Served per run |',
		'| --- | --- | --- | --- | --- |',
		...(dialerTiny ? [row(`Download Recordings, ${tinyName}`, dialerTiny)] : []),
		row(`Download Recordings, ${inParallel}`, dialer, dialerTiny),
		...(result.fewer
			? [
					row(
						`Download Recordings, only ${result.fewer.files} of the files`,
						result.fewer,
						dialerTiny,
					),
				]
			: []),
		...(capped
			? [
					row(`Download Recordings, \`${capped.nodeOptions}\`, ${tinyName}`, capped.tiny),
					row(
						`Download Recordings, \`${capped.nodeOptions}\`, ${inParallel}`,
						capped.all,
						capped.tiny,
					),
				]
			: []),
		...(httpTiny ? [row(`Report + HTTP Request, ${tinyName}`, httpTiny)] : []),
		row('Report + HTTP Request (credential, response File)', http, httpTiny),
		'',
		`Time ratio ${(dialer.ms.median / http.ms.median).toFixed(2)}× the HTTP Request node's. ` +
			'Memory added is the peak RSS of n8n’s processes during a run above the idle n8n before ' +
			'its first run. ' +
			(dialerTiny
				? 'Added by the file bytes is that minus the same workflow’s on one-second recordings in ' +
					'the same n8n (measured first), i.e. what the bytes add beyond running the workflow. '
				: '') +
			`Memory goal (the bytes add under 1.5× one file, ${goal.toFixed(1)} MB): ` +
			`${verdict(bytesOf(dialer, dialerTiny))} with n8n’s defaults` +
			(capped
				? `, ${verdict(bytesOf(capped.all, capped.tiny))} in an n8n started with ` +
					`\`NODE_OPTIONS=${capped.nodeOptions}\` (V8’s young generation capped at 1 MB, so ` +
					'it collects the network buffers already written to disk sooner).'
				: '.'),
		'',
	];
}
