import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireId } from '../../helpers/ids';
import { recordOf } from '../../helpers/rows';
import { dialerApiRequest } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Audio ID',
		name: 'audioId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 7',
		description: 'Numeric ID of the audio to deactivate. A deactivated audio is no longer played.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['audio'], operation: ['deactivate'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = requireId(this.getNodeParameter('audioId', itemIndex), 'Audio ID');
	const result = recordOf(await dialerApiRequest.call(this, 'desativarAudio', { id }, itemIndex));
	return [{ json: { success: true, id, ...result } }];
}
