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
}

const FILESYSTEM_MODE = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' };
const BYTES_PER_SECOND = 16_000;

const TINY_SECONDS = 1;

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
	const variants: RecordingVariantResult[] = [];
	const tinyVariants: RecordingVariantResult[] = [];
	let fewer: RecordingsResult['fewer'];
	for (const variant of ['dialer', 'httpRequest'] as const) {
		log(`recordings: ${options.files} files of ${fileMb.toFixed(1)} MB, ${variant}`);
		await withTarget(
			sim,
			secret,
			async (target) => {
				const baselineMb = await idleRssMb(target);
				const measure = async (period: Record<string, string>, files: number) => {
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
				};
				// The tiny files first: they also take what a fresh n8n's first runs cost.
				tinyVariants.push(await measure(tiny, options.files));
				if (variant === 'dialer') {
					fewer = { ...(await measure(big(fewerFiles), fewerFiles)), files: fewerFiles };
				}
				variants.push(await measure(big(options.files), options.files));
			},
			{ ...FILESYSTEM_MODE, ...env },
		);
	}
	const tinyKb = (44 + TINY_SECONDS * BYTES_PER_SECOND) / 1024;
	return {
		files: options.files,
		fileMb,
		parallel: options.parallel,
		variants,
		fewer,
		tiny: tinyVariants,
		tinyKb,
	};
}

const served = (sim: DialerSimulator) =>
	sim.requests.filter((request) => request.operation === 'recording' && request.status === 200)
		.length;

export function recordingsSection(result: RecordingsResult): string[] {
	const [dialer, http] = result.variants;
	const [dialerTiny, httpTiny] = result.tiny ?? [];
	const mb = (value: number) => `${Math.round(value)} MB`;
	const spread = (s: Summary, unit: (value: number) => string) =>
		s.runs > 1 ? `${unit(s.median)} (${unit(s.min)}–${unit(s.max)})` : unit(s.median);
	const row = (name: string, v: RecordingVariantResult, tinyRun?: RecordingVariantResult) => {
		const bytes = tinyRun ? v.addedPeakMb.median - tinyRun.addedPeakMb.median : undefined;
		return (
			`| ${name} | ${spread(v.ms, (ms) => `${Math.round(ms).toLocaleString('en-US')} ms`)} | ` +
			`${spread(v.addedPeakMb, mb)} | ` +
			(result.tiny
				? `${bytes === undefined ? '' : `${mb(bytes)} (${(bytes / result.fileMb).toFixed(2)}×)`} | `
				: `${(v.addedPeakMb.median / result.fileMb).toFixed(2)}× | `) +
			`${v.served} of ${result.files} |`
		);
	};
	const tinyName = `${result.files} recordings of ${Math.round(result.tinyKb ?? 0)} kB`;
	const byBytes = dialerTiny
		? dialer.addedPeakMb.median - dialerTiny.addedPeakMb.median
		: dialer.addedPeakMb.median;
	return [
		`## Call recordings: ${result.files} files of ${result.fileMb.toFixed(1)} MB, filesystem binary mode`,
		'',
		result.tiny
			? '| Variant | Time (median) | Memory added (median) | Added by the file bytes (× one file) | Served per run |'
			: '| Variant | Time (median) | Memory added (median) | In files | Served per run |',
		'| --- | --- | --- | --- | --- |',
		...(dialerTiny ? [row(`Download Recordings, ${tinyName} (baseline)`, dialerTiny)] : []),
		row(`Download Recordings, ${result.parallel} in parallel`, dialer, dialerTiny),
		...(result.fewer
			? [
					row(
						`Download Recordings, only ${result.fewer.files} of the files`,
						result.fewer,
						dialerTiny,
					),
				]
			: []),
		...(httpTiny ? [row(`Report + HTTP Request, ${tinyName} (baseline)`, httpTiny)] : []),
		row('Report + HTTP Request (credential, response File)', http, httpTiny),
		'',
		`Time ratio ${(dialer.ms.median / http.ms.median).toFixed(2)}× the HTTP Request node's. ` +
			'Memory added is the peak RSS of n8n’s processes during a run above the idle n8n before ' +
			'its first run. ' +
			(dialerTiny
				? 'Added by the file bytes is that minus the same workflow’s on one-second recordings in ' +
					'the same n8n (measured first), i.e. what the bytes add beyond running the workflow. '
				: '') +
			`Memory goal (the bytes add under 1.5× one file, ${(1.5 * result.fileMb).toFixed(1)} MB): ` +
			`${byBytes < 1.5 * result.fileMb ? 'met' : 'missed'}.`,
		'',
	];
}
