import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ParameterError } from '../../../shared/parameters';
import {
	downloadRecording,
	fileProperties,
	markRecording,
	readFileSettings,
} from '../../../shared/recordings';

export const option = {
	name: 'Download',
	description: 'Download a call recording from its link into a binary field',
	action: 'Download a call recording',
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Recording Link',
		name: 'link',
		type: 'string',
		default: '={{ $json.arquivo }}',
		required: true,
		placeholder: 'e.g. https://acme.dialer.example:8607/ipbox/gravacoes/1234.wav',
		description:
			'Link to the recording, as in the arquivo field of Get Classification Results: absolute, ' +
			'or a path on the dialer (resolved against the base URL of the credential). The token is ' +
			'sent only to the base URL’s own scheme, host and port.',
	},
	...fileProperties,
];

/** The input item's fields stay, with the recording in its binary field. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const value = this.getNodeParameter('link', itemIndex);
	// An expression that maps a whole object or list would be sent to the dialer as "[object …]".
	if (
		typeof value !== 'string' &&
		typeof value !== 'number' &&
		value !== null &&
		value !== undefined
	) {
		const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : value;
		throw new ParameterError(
			'Recording Link',
			`is ${String(kind)}, not a link`,
			'Map the link text itself, for example {{ $json.arquivo }}.',
		);
	}
	const link = String(value ?? '').trim();
	if (link === '') {
		throw new ParameterError(
			'Recording Link',
			'is empty',
			'Calls without a recording (unanswered or not recorded) have an empty arquivo: leave them ' +
				'out before this node (an If node on arquivo is not empty), or check the expression.',
		);
	}
	const settings = readFileSettings(this, itemIndex);
	const input = this.getInputData()[itemIndex];
	const file = await downloadRecording.call(this, link, input.json, settings, itemIndex);
	const json = { ...input.json };
	// A row whose download failed in the report (continue on fail), retried here, has it now.
	if ('recordingStatus' in json) markRecording(json, 'downloaded');
	return [{ json, binary: { ...input.binary, [settings.field]: file } }];
}
