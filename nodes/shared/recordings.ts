import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import { inParallel } from './parallel';
import { numberFromText, ParameterError, switchOn, timeoutOf } from './parameters';
import { downloadFile } from './transport/download';
import { REPORT_TIMEOUT_MS } from './transport/request';
import { asNodeError } from './errors';
import type { ItemParameters } from './itemParameters';

/**
 * Call recordings as files: the parameters the classification report, the Report Trigger and
 * Recording → Download share, and the download of each row's `arquivo` into its item.
 */

export const DEFAULT_RECORDING_FIELD = 'recording';
const DEFAULT_MAX_MB = 200;

/** Where the file goes and how large it may be. */
export const fileProperties: INodeProperties[] = [
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: DEFAULT_RECORDING_FIELD,
		required: true,
		hint: 'The name of the output binary field to put the recording in',
		description:
			'Binary field of the output item that receives the recording (file name and MIME type ' +
			'from the answer, else from the link)',
	},
	{
		displayName: 'Max File Size (MB)',
		name: 'maxFileSize',
		type: 'number',
		default: DEFAULT_MAX_MB,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'A download that announces or reaches more megabytes than this stops with an error, so a ' +
			'wrong link cannot fill the disk',
	},
];

/** The switch and settings a report row source offers (the report and the Report Trigger). */
export const recordingProperties: INodeProperties[] = [
	{
		displayName: 'Download Recordings',
		name: 'downloadRecordings',
		type: 'boolean',
		default: false,
		description:
			"Whether to download each row's recording (its arquivo link) into the item's binary " +
			'data. Rows without a recording keep their item, with recordingStatus "no recording".',
	},
	...fileProperties.map((property) => ({
		...property,
		displayOptions: { show: { downloadRecordings: [true] } },
	})),
];

export interface FileSettings {
	field: string;
	maxBytes: number;
	timeout: number;
}

/** Where and how large, checked before any download; Options → Timeout when the node has it. */
export function readFileSettings(context: ItemParameters, itemIndex: number): FileSettings {
	const field = String(context.getNodeParameter('binaryPropertyName', itemIndex, '')).trim();
	if (field === '') {
		throw new ParameterError(
			'Put Output File in Field',
			'is empty',
			`Enter the name of a binary field, for example ${DEFAULT_RECORDING_FIELD}.`,
		);
	}
	const given: unknown = context.getNodeParameter('maxFileSize', itemIndex, DEFAULT_MAX_MB);
	// Text from an expression ("200") is read as a number; anything else that is no number (true,
	// null, "200 MB") is refused as the user gave it, not as Number() would make it (1, 0, NaN).
	const maxMb = numberFromText(given);
	if (typeof maxMb !== 'number' || !Number.isFinite(maxMb) || maxMb <= 0) {
		throw new ParameterError(
			'Max File Size (MB)',
			`${JSON.stringify(given) ?? String(given)} is not a positive number`,
			`Enter a size in megabytes, for example ${DEFAULT_MAX_MB}.`,
		);
	}
	return {
		field,
		maxBytes: Math.round(maxMb * 1_048_576),
		timeout: timeoutOf(
			context.getNodeParameter('options.timeout', itemIndex, 0),
			REPORT_TIMEOUT_MS,
		),
	};
}

/** Whether the rows' recordings are wanted, and how (undefined: they are not). */
export function recordingsWanted(
	context: ItemParameters,
	itemIndex: number,
): FileSettings | undefined {
	return switchOn(
		context.getNodeParameter('downloadRecordings', itemIndex, false),
		'Download Recordings',
	)
		? readFileSettings(context, itemIndex)
		: undefined;
}

const text = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

/** One call's recording into n8n's binary store, named after its protocolo when nothing else. */
export async function downloadRecording(
	this: IExecuteFunctions | IPollFunctions,
	link: string,
	row: IDataObject,
	settings: FileSettings,
	itemIndex?: number,
): Promise<IBinaryData> {
	const protocolo = text(row.protocolo);
	return await downloadFile.call(this, {
		link,
		subject: protocolo === '' ? 'the recording' : `the recording of call ${protocolo}`,
		fallbackName: protocolo === '' ? DEFAULT_RECORDING_FIELD : protocolo,
		maxBytes: settings.maxBytes,
		timeout: settings.timeout,
		itemIndex,
	});
}

export type RecordingStatus = 'downloaded' | 'no recording' | 'failed';

/**
 * Says what became of the row's recording. A row can come back with an earlier attempt's
 * failure on it (emitted again by the Report Trigger, or a failed item retried through
 * Recording → Download): that `recordingError` goes unless this attempt failed too.
 */
export function markRecording(json: IDataObject, status: RecordingStatus, error?: string): void {
	json.recordingStatus = status;
	if (error !== undefined) json.recordingError = error;
	else if ('recordingError' in json) delete json.recordingError;
}

/**
 * Downloads each row's recording into its item, `parallel` at a time. A row with an empty
 * `arquivo` keeps its item, marked "no recording". A failed download fails the whole run unless
 * `keepFailures` (continue on fail, or a trigger): then that item says why in `recordingError`
 * and every other item keeps its recording.
 */
export async function attachRecordings(
	this: IExecuteFunctions | IPollFunctions,
	items: INodeExecutionData[],
	settings: FileSettings,
	options: { parallel: number; keepFailures: boolean; itemIndex?: number },
): Promise<void> {
	const failures: Error[] = [];
	await inParallel(
		items.length,
		options.parallel,
		async (index) => {
			const { json } = items[index];
			const link = text(json.arquivo);
			if (link === '') {
				markRecording(json, 'no recording');
				return;
			}
			try {
				const file = await downloadRecording.call(this, link, json, settings, options.itemIndex);
				items[index].binary = { ...items[index].binary, [settings.field]: file };
				markRecording(json, 'downloaded');
			} catch (error) {
				const nodeError = asNodeError(this, error, options.itemIndex);
				if (!options.keepFailures) {
					failures[index] = nodeError;
					return;
				}
				markRecording(json, 'failed', nodeError.message);
			}
		},
		() => failures.length > 0,
	);
	const first = failures.find(Boolean);
	if (first) throw first;
}
