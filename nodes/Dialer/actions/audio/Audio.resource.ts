import type { INodeProperties } from 'n8n-workflow';

import * as deactivate from './deactivate.operation';

export { deactivate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['audio'] } },
		options: [
			{
				name: 'Deactivate',
				value: 'deactivate',
				description: 'Deactivate an audio so it is no longer played',
				action: 'Deactivate an audio',
			},
		],
		default: 'deactivate',
	},
	...deactivate.description,
];
