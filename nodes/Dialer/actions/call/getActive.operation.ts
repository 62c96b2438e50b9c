import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireText } from '../../../shared/parameters';
import { recordOf } from '../../../shared/rows';
import {
	ACTION_TIMEOUT_MS,
	dialerApiRequest,
	type ApiEndpoint,
} from '../../../shared/transport/request';
import { sentAs } from '../../../shared/sentAs';

export const option = {
	name: 'Get Active',
	description:
		'Get the call in progress on an extension: number, prospect, queue, batch and call ID',
	action: 'Get the active call of an extension',
};

export const endpoint: ApiEndpoint = {
	operation: 'getLigacaoAtivaByRamal',
	streamed: false,
	defaultTimeout: ACTION_TIMEOUT_MS,
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Extension',
		name: 'extension',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1001',
		description: sentAs('Extension number whose current call to read, for example 1001', 'ramal'),
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const extension = requireText(this.getNodeParameter('extension', itemIndex), 'Extension', '1001');
	const answer = await dialerApiRequest.call(this, endpoint, { ramal: extension }, itemIndex);
	const call = answer === false ? {} : recordOf(answer);
	// An idle extension is an answer, not a failure: say so in the item. Servers say it with no
	// record, with false (PHP's fetch finding no row) or with a record of empty fields.
	if (Object.values(call).every((value) => value === null || value === '')) {
		return [
			{ json: { extension, active: false, message: `No active call on extension ${extension}` } },
		];
	}
	return [{ json: { extension, active: true, ...call } }];
}
