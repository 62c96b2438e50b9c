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
import { log, timeRuns, withTarget, type Target } from '../lib/target';
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
}

const FILESYSTEM_MODE = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' };
const BYTES_PER_SECOND = 16_000;

/** `files` calls two nights back, one a second, each recorded for `seconds`. */
function addCalls(sim: DialerSimulator, files: number, seconds: number) {
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
	return {
		period: 'custom',
		start: start.toFormat(format),
		end: start.plus({ seconds: files - 1 }).toFormat(format),
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

export async function runRecordings(
	sim: DialerSimulator,
	secret: string,
	options: { files: number; seconds: number; parallel: number; runs: number },
): Promise<RecordingsResult> {
	const period = addCalls(sim, options.files, options.seconds);
	const fileMb = (44 + options.seconds * BYTES_PER_SECOND) / 1_048_576;
	const variants: RecordingVariantResult[] = [];
	for (const variant of ['dialer', 'httpRequest'] as const) {
		log(`recordings: ${options.files} files of ${fileMb.toFixed(1)} MB, ${variant}`);
		const result = await withTarget(
			sim,
			secret,
			async (target) => {
				const workflow = await createRunWorkflow(
					target.api,
					workflowNodes(variant, target, period, options.parallel),
					{
						save: 'none',
						timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
						answer: 'noData',
						name: `bench recordings: ${variant}`,
					},
				);
				const servedBefore = served(sim);
				const samples = await timeRuns(target, workflow, [{}], options.runs);
				const perRun = (served(sim) - servedBefore) / (options.runs + 1);
				return { samples, perRun };
			},
			FILESYSTEM_MODE,
		);
		variants.push({
			variant,
			ms: summarize(result.samples.map((sample) => sample.ms)),
			addedPeakMb: summarize(result.samples.map((sample) => sample.addedPeakMb)),
			served: result.perRun,
		});
	}
	return { files: options.files, fileMb, parallel: options.parallel, variants };
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
		row('Report + HTTP Request (credential, response File)', http),
		'',
		`Time ratio ${(dialer.ms.median / http.ms.median).toFixed(2)}× the HTTP Request node's; ` +
			`memory goal (under 1.5× one file): ` +
			`${dialer.addedPeakMb.median < 1.5 * result.fileMb ? 'met' : 'missed'}.`,
		'',
	];
}
