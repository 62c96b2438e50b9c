import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireText } from '../../helpers/ids';
import { recordOf } from '../../helpers/rows';
import { dialerApiRequest } from '../../transport';
import { readPicked, resourcePicker } from '../shared';

const properties: INodeProperties[] = [
	resourcePicker('batch', {
		displayName: 'Batch',
		name: 'batch',
		required: true,
		description:
			'Batch of prospects to move, from the list of active batches, or by ID or name (sent as lote)',
	}),
	{
		displayName: 'Target Queue (ID or Name)',
		name: 'queue',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 12 or Fila Ativa Cobrança',
		description:
			'Queue that will dial the batch from now on, by numeric ID or exact description (sent as fila)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['batch'], operation: ['moveToQueue'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = {
		lote: requireText(readPicked.call(this, 'batch', itemIndex), 'Batch', '42 or Lote Novembro'),
		fila: requireText(this.getNodeParameter('queue', itemIndex), 'Target Queue (ID or Name)', '12'),
	};
	const moved = recordOf(await dialerApiRequest.call(this, 'changeLoteToFila', fields, itemIndex));
	return [{ json: moved }];
}
