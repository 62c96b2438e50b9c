import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireText } from '../../helpers/ids';
import { recordOf } from '../../helpers/rows';
import { dialerApiRequest } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Extension',
		name: 'extension',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1001',
		description: 'Extension number whose current call to read, for example 1001 (sent as ramal)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['call'], operation: ['getActive'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const extension = requireText(this.getNodeParameter('extension', itemIndex), 'Extension', '1001');
	const call = recordOf(
		await dialerApiRequest.call(this, 'getLigacaoAtivaByRamal', { ramal: extension }, itemIndex),
	);
	// An idle extension is an answer, not a failure: say so in the item.
	if (Object.keys(call).length === 0) {
		return [
			{ json: { extension, active: false, message: `No active call on extension ${extension}` } },
		];
	}
	return [{ json: { extension, active: true, ...call } }];
}
