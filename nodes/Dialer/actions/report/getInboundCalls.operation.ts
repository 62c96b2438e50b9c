import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { rowSource } from '../../../shared/reports/inboundCalls';
import { limitProperties } from '../shared/limit';
import { periodProperties } from '../shared/period';
import { inboundSummarizer, readServiceLevel, serviceLevelProperty } from './inboundSummary';
import { reportItems } from './reportItems';
import { groupByProperty, outputProperty, reportSummary, summaryWanted } from './summary';

export const option = {
	name: 'Get Inbound Calls',
	description: 'Calls received through inbound routes in a period, one item per call',
	action: 'Get inbound calls',
};

const onlyItems = { show: { output: ['items'] } };

export const properties: INodeProperties[] = [
	...periodProperties,
	outputProperty(
		'Call',
		'One item: calls offered, answered, answered within the service level, waits, per group and ' +
			'in total',
	),
	groupByProperty(inboundSummarizer(0), {
		'Destination (Queue)': 'destination',
		'Inbound Route': 'route',
		Agent: 'agent',
	}),
	serviceLevelProperty,
	...limitProperties.map((property) => ({
		...property,
		displayOptions: { show: { ...property.displayOptions?.show, ...onlyItems.show } },
	})),
	...rowSource.properties,
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	if (summaryWanted(this, itemIndex)) {
		const serviceLevelSeconds = readServiceLevel(this, itemIndex);
		return await reportSummary.call(
			this,
			itemIndex,
			rowSource,
			inboundSummarizer(serviceLevelSeconds),
			{
				serviceLevelSeconds,
			},
		);
	}
	return await reportItems.call(this, itemIndex, rowSource);
}
