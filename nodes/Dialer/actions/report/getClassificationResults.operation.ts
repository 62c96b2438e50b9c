import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { rowSource } from '../../../shared/reports/classificationResults';
import { limitProperties } from '../shared/limit';
import { periodProperties } from '../shared/period';
import { reportItems } from './reportItems';
import {
	countingTally,
	groupByProperty,
	outputProperty,
	reportSummary,
	summaryWanted,
	type Summarizer,
} from './summary';

export const option = {
	name: 'Get Classification Results',
	description: 'How agents classified their calls in a period, one item per classification',
	action: 'Get call classification results',
};

/** Classifications counted by result (resultado), each result named as it comes. */
export const classificationSummarizer: Summarizer = {
	groupFields: { agent: 'agente', queue: 'fila' },
	newTally: countingTally('classifications', 'resultado', 'results'),
};

const onlyItems = { output: ['items'] };

export const properties: INodeProperties[] = [
	...periodProperties,
	outputProperty(
		'Classification',
		'One item: classifications counted by result (resultado), per group and in total',
	),
	groupByProperty(classificationSummarizer, { Agent: 'agent', Queue: 'queue' }),
	...[...limitProperties, ...rowSource.properties].map((property) =>
		property.name === 'filters'
			? property
			: {
					...property,
					displayOptions: { show: { ...property.displayOptions?.show, ...onlyItems } },
				},
	),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	if (summaryWanted(this, itemIndex)) {
		return await reportSummary.call(this, itemIndex, rowSource, classificationSummarizer);
	}
	return await reportItems.call(this, itemIndex, rowSource);
}
