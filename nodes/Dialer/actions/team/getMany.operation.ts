import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ACTION_TIMEOUT_MS, type ApiEndpoint } from '../../../shared/transport/request';
import { offerFilters } from '../../../shared/filters';
import { limitProperties, listItems } from '../shared/limit';

export const option = {
	name: 'Get Many',
	description: 'List teams, all or those of one agent',
	action: 'Get many teams',
};

/** Also the list behind every team picker. */
export const endpoint: ApiEndpoint = {
	operation: 'getTime',
	streamed: false,
	defaultTimeout: ACTION_TIMEOUT_MS,
};
/** Where the answer keeps the teams. */
export const listKey = 'times';

const filters = offerFilters([
	[
		{
			apiField: 'user',
			property: {
				displayName: 'Agent Login',
				name: 'agent',
				type: 'string',
				default: '',
				placeholder: 'e.g. maria.souza',
			},
		},
		'Only the teams this agent belongs to',
		'Without it, all registered teams.',
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
