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
		description: 'Each filter left out means all (all operations, queues, batches, teams, agents)',
		options: [
			{
				...filterProperties.agent,
				description: 'Only classifications by this agent, by numeric ID or name (sent as agente)',
			},
			{
				...filterProperties.batch,
				description: 'Only classifications of prospects of this batch (sent as lote)',
			},
			{
				...filterProperties.operation,
				description:
					'Only classifications in this operation, by numeric ID or name (sent as operacao)',
			},
			{
				...filterProperties.queue,
				description: 'Only classifications in this queue, by numeric ID or name (sent as fila)',
			},
			{
				...filterProperties.team,
				description: 'Only classifications by agents of this team (sent as time)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getClassificationResults'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fields = {
		...readPeriod.call(this, itemIndex),
		...readFilters.call(this, itemIndex, {
			operation: 'operacao',
			queue: 'fila',
			batch: 'lote',
			team: 'time',
			agent: 'agente',
		}),
	};
	const rows = rowsOf(await dialerApiRequest.call(this, 'getRQ4', fields, itemIndex));
	return applyLimit.call(this, itemIndex, rows).map((json) => ({ json }));
}
