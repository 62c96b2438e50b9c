import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { filters, rowSource, whoseProperties } from '../../../shared/reports/callHistory';
import { limitProperties } from '../shared/limit';
import { periodProperties } from '../shared/period';
import { reportItems } from './reportItems';

export const option = {
	name: 'Get Call History',
	description: 'Calls made and received by one extension or agent in a period, one item per call',
	action: 'Get the call history of an extension or agent',
};

export const properties: INodeProperties[] = [
	...whoseProperties,
	...periodProperties,
	...limitProperties,
	filters.property,
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await reportItems.call(this, itemIndex, rowSource);
}
