import type { INodeProperties } from 'n8n-workflow';

import * as endPause from './endPause.operation';
import * as logout from './logout.operation';

export { endPause, logout };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agent'] } },
		options: [
			{
				name: 'End Pause',
				value: 'endPause',
				description: 'Take an agent out of pause so they receive calls again',
				action: 'End an agent pause',
			},
			{
				name: 'Log Out',
				value: 'logout',
				description: 'Log an agent out of the dialer',
				action: 'Log out an agent',
			},
		],
		default: 'logout',
	},
	...endPause.description,
	...logout.description,
];
