import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['queue'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create an active (outbound) queue and return its ID',
				action: 'Create an active queue',
			},
		],
		default: 'create',
	},
	...create.description,
];
