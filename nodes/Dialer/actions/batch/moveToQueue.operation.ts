import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireText } from '../../../shared/parameters';
import { recordOf } from '../../../shared/rows';
import {
	ACTION_TIMEOUT_MS,
	dialerApiRequest,
	type ApiEndpoint,
} from '../../../shared/transport/request';
import { readPicked, resourcePicker } from '../../../shared/resourcePicker';
import { sentAs } from '../../../shared/sentAs';

export const option = {
	name: 'Move to Queue',
	description: 'Move a batch of prospects to another queue',
	action: 'Move a batch to a queue',
};

export const endpoint: ApiEndpoint = {
	operation: 'changeLoteToFila',
	streamed: false,
	defaultTimeout: ACTION_TIMEOUT_MS,
};

export const properties: INodeProperties[] = [
	resourcePicker('batch', {
		displayName: 'Batch',
		name: 'batch',
		required: true,
		description: sentAs(
			'Batch of prospects to move, from the list of active batches, or by ID or name',
			'lote',
		),
	}),
	{
		displayName: 'Target Queue (ID or Name)',
		name: 'queue',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 12 or Fila Ativa Cobrança',
		description: sentAs(
			'Queue that will dial the batch from now on, by numeric ID or exact description',
			'fila',
		),
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = {
		lote: requireText(readPicked.call(this, 'batch', itemIndex), 'Batch', '42 or Lote Novembro'),
		fila: requireText(this.getNodeParameter('queue', itemIndex), 'Target Queue (ID or Name)', '12'),
	};
	const moved = recordOf(await dialerApiRequest.call(this, endpoint, fields, itemIndex));
	return [{ json: moved }];
}
