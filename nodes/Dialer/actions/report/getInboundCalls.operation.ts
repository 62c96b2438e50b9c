import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { REPORT_TIMEOUT_MS, type ApiEndpoint } from '../../transport/request';
import {
	limitProperties,
	listItems,
	offerFilters,
	periodProperties,
	readPeriod,
	sharedFilters,
} from '../shared';

export const option = {
	name: 'Get Inbound Calls',
	description: 'Calls received through inbound routes in a period, one item per call',
	action: 'Get inbound calls',
};

/** Answered in one piece for the whole period: parsed while it arrives. */
export const endpoint: ApiEndpoint = {
	operation: 'getRE2',
	streamed: true,
	defaultTimeout: REPORT_TIMEOUT_MS,
};

const filters = offerFilters([
	[
		{
			apiField: 'rotaEntrada',
			property: {
				displayName: 'Inbound Route (ID or Name)',
				name: 'inboundRoute',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3 or SAC 0800',
			},
		},
		'Only calls that came in through this inbound route, by ID or description',
		'Without it, all routes.',
	],
	[
		sharedFilters.queue,
		'Only calls routed to this queue, by numeric ID or description',
		'Without it, all queues.',
	],
]);

export const properties: INodeProperties[] = [
	...periodProperties,
	...limitProperties,
	filters.property,
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = { ...readPeriod.call(this, itemIndex), ...filters.read(this, itemIndex) };
	return await listItems.call(this, itemIndex, endpoint, fields, 'resultado');
}
