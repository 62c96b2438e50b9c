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
}

const FILESYSTEM_MODE = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' };
const BYTES_PER_SECOND = 16_000;

/**
 * `files` calls two nights back, one a second, each recorded for `seconds`; the periods of all of
 * them and of the first `fewer`.
 */
function addCalls(sim: DialerSimulator, files: number, seconds: number, fewer: number) {
	const start = DateTime.now().minus({ days: 2 }).startOf('day').plus({ hours: 2 });
	sim.rows.add({
		report: 'getRQ4',
		count: files,
		at: start.toMillis(),
		stepMs: 1000,
		durationSeconds: seconds,
		recorded: true,
	});
	const format = "yyyy-MM-dd'T'HH:mm:ss";
	const period = (count: number) => ({
		period: 'custom',
		start: start.toFormat(format),
		end: start.plus({ seconds: count - 1 }).toFormat(format),
	});
	return { all: period(files), fewer: period(fewer) };
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
): Promise<RecordingsResult> {
	const fewerFiles = Math.max(1, Math.round(options.files / 10));
	const periods = addCalls(sim, options.files, options.seconds, fewerFiles);
	const fileMb = (44 + options.seconds * BYTES_PER_SECOND) / 1_048_576;
	const variants: RecordingVariantResult[] = [];
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
				if (variant === 'dialer') {
					fewer = { ...(await measure(periods.fewer, fewerFiles)), files: fewerFiles };
				}
				variants.push(await measure(periods.all, options.files));
			},
			FILESYSTEM_MODE,
		);
	}
	return { files: options.files, fileMb, parallel: options.parallel, variants, fewer };
}

const served = (sim: DialerSimulator) =>
	sim.requests.filter((request) => request.operation === 'recording' && request.status === 200)
		.length;

export function recordingsSection(result: RecordingsResult): string[] {
	const [dialer, http] = result.variants;
	const row = (name: string, v: RecordingVariantResult) =>
		`| ${name} | ${Math.round(v.ms.median).toLocaleString('en-US')} ms | ` +
		`${Math.round(v.addedPeakMb.median)} MB | ${(v.addedPeakMb.median / result.fileMb).toFixed(2)}× | ` +
		`${v.served} of ${result.files} |`;
	return [
		`## Call recordings: ${result.files} files of ${result.fileMb.toFixed(1)} MB, filesystem binary mode`,
		'',
		'| Variant | Time (median) | Memory added (median) | In files | Served per run |',
		'| --- | --- | --- | --- | --- |',
		row(`Download Recordings, ${result.parallel} in parallel`, dialer),
		...(result.fewer
			? [row(`Download Recordings, only ${result.fewer.files} of the files`, result.fewer)]
			: []),
		row('Report + HTTP Request (credential, response File)', http),
		'',
		`Time ratio ${(dialer.ms.median / http.ms.median).toFixed(2)}× the HTTP Request node's; ` +
			`memory goal (under 1.5× one file): ` +
			`${dialer.addedPeakMb.median < 1.5 * result.fileMb ? 'met' : 'missed'}. Memory added ` +
			'is measured above the idle n8n, before its first run: it includes what running the ' +
			'workflow costs n8n, and the network buffers V8 lets pile up before it collects them ' +
			'(up to 64 MB of external memory), which do not grow with the count.',
		'',
	];
}
