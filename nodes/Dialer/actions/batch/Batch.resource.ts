import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as moveToQueue from './moveToQueue.operation';

export { getMany, moveToQueue };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['batch'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List active batches of prospects, optionally of one queue',
				action: 'Get many batches',
			},
			{
				name: 'Move to Queue',
				value: 'moveToQueue',
				description: 'Move a batch of prospects to another queue',
				action: 'Move a batch to a queue',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...moveToQueue.description,
];
