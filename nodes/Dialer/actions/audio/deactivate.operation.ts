import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireId } from '../../../shared/parameters';
import { recordOf } from '../../../shared/rows';
import {
	ACTION_TIMEOUT_MS,
	dialerApiRequest,
	type ApiEndpoint,
} from '../../../shared/transport/request';

export const option = {
	name: 'Deactivate',
	description: 'Deactivate an audio so it is no longer played',
	action: 'Deactivate an audio',
};

export const endpoint: ApiEndpoint = {
	operation: 'desativarAudio',
	streamed: false,
	defaultTimeout: ACTION_TIMEOUT_MS,
};

export const properties: INodeProperties[] = [
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = requireId(this.getNodeParameter('audioId', itemIndex), 'Audio ID');
	const result = recordOf(await dialerApiRequest.call(this, endpoint, { id }, itemIndex));
	return [{ json: { success: true, id, ...result } }];
}
