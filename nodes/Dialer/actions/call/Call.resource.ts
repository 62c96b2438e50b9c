import type { INodeProperties } from 'n8n-workflow';

import * as getActive from './getActive.operation';

export { getActive };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['call'] } },
		options: [
			{
				name: 'Get Active',
				value: 'getActive',
				description:
					'Get the call in progress on an extension: number, prospect, queue, batch and call ID',
				action: 'Get the active call of an extension',
			},
		],
		default: 'getActive',
	},
	...getActive.description,
];
