import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['team'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List teams, all or those of one agent',
				action: 'Get many teams',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
