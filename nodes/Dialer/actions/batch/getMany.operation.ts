import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { rowsOf } from '../../helpers/rows';
import { dialerApiRequest } from '../../transport';
import { applyLimit, filterProperties, limitProperties, readFilters } from '../shared';

const properties: INodeProperties[] = [
	...limitProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				...filterProperties.queue,
				description:
					'Only batches of this queue, by numeric ID or exact description (sent as fila). Without it, all active batches.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['batch'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = readFilters.call(this, itemIndex, { queue: 'fila' });
	const batches = rowsOf(
		await dialerApiRequest.call(this, 'getLotesAtivos', fields, itemIndex),
		'lotes',
	);
	return applyLimit.call(this, itemIndex, batches).map((json) => ({ json }));
}
