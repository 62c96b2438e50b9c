import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ACTION_TIMEOUT_MS, type ApiEndpoint } from '../../../shared/transport/request';
import { offerFilters, sharedFilters } from '../../../shared/filters';
import { limitProperties, listItems } from '../shared/limit';

export const option = {
	name: 'Get Many',
	description: 'List active batches of prospects, optionally of one queue',
	action: 'Get many batches',
};

/** Also the list behind every batch picker. */
export const endpoint: ApiEndpoint = {
	operation: 'getLotesAtivos',
	streamed: false,
	defaultTimeout: ACTION_TIMEOUT_MS,
};
/** Where the answer keeps the batches. */
export const listKey = 'lotes';

const filters = offerFilters([
	[
		sharedFilters.queue,
		'Only batches of this queue, by numeric ID or exact description',
		'Without it, all active batches.',
	],
]);

export const properties: INodeProperties[] = [...limitProperties, filters.property];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = filters.read(this, itemIndex);
	return await listItems.call(this, itemIndex, endpoint, fields, listKey);
}
