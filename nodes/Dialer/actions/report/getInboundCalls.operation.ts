import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { rowsOf } from '../../helpers/rows';
import { dialerApiRequest } from '../../transport';
import {
	applyLimit,
	filterProperties,
	limitProperties,
	periodProperties,
	readFilters,
	readPeriod,
} from '../shared';

const properties: INodeProperties[] = [
	...periodProperties,
	...limitProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Inbound Route (ID or Name)',
				name: 'inboundRoute',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3 or SAC 0800',
				description:
					'Only calls that came in through this inbound route, by ID or description (sent as rotaEntrada). Without it, all routes.',
			},
			{
				...filterProperties.queue,
				description:
					'Only calls routed to this queue, by numeric ID or description (sent as fila). Without it, all queues.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getInboundCalls'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = {
		...readPeriod.call(this, itemIndex),
		...readFilters.call(this, itemIndex, { queue: 'fila', inboundRoute: 'rotaEntrada' }),
	};
	const calls = rowsOf(await dialerApiRequest.call(this, 'getRE2', fields, itemIndex), 'resultado');
	return applyLimit.call(this, itemIndex, calls).map((json) => ({ json }));
}
