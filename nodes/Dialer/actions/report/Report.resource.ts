import type { INodeProperties } from 'n8n-workflow';

import * as getCallHistory from './getCallHistory.operation';
import * as getClassificationResults from './getClassificationResults.operation';
import * as getFilledForms from './getFilledForms.operation';
import * as getInboundCalls from './getInboundCalls.operation';

export { getCallHistory, getClassificationResults, getFilledForms, getInboundCalls };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['report'] } },
		options: [
			{
				name: 'Get Call History',
				value: 'getCallHistory',
				description:
					'Calls made and received by one extension or agent in a period, one item per call',
				action: 'Get the call history of an extension or agent',
			},
			{
				name: 'Get Classification Results',
				value: 'getClassificationResults',
				description: 'How agents classified their calls in a period, one item per classification',
				action: 'Get call classification results',
			},
			{
				name: 'Get Filled Forms',
				value: 'getFilledForms',
				description:
					'Fichas (filled forms) of a form in a period, or by ID, as items or as a CSV file',
				action: 'Get filled forms',
			},
			{
				name: 'Get Inbound Calls',
				value: 'getInboundCalls',
				description: 'Calls received through inbound routes in a period, one item per call',
				action: 'Get inbound calls',
			},
		],
		default: 'getFilledForms',
	},
	...getCallHistory.description,
	...getClassificationResults.description,
	...getFilledForms.description,
	...getInboundCalls.description,
];
