import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { rowsOf } from '../../helpers/rows';
import { dialerApiRequest } from '../../transport';
import { applyLimit, limitProperties, readFilters } from '../shared';

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
				displayName: 'Agent Login',
				name: 'agent',
				type: 'string',
				default: '',
				placeholder: 'e.g. maria.souza',
				description:
					'Only the teams this agent belongs to (sent as user). Without it, all registered teams.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['team'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = readFilters.call(this, itemIndex, { agent: 'user' });
	const teams = rowsOf(await dialerApiRequest.call(this, 'getTime', fields, itemIndex), 'times');
	return applyLimit.call(this, itemIndex, teams).map((json) => ({ json }));
}
