import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { rowsOf } from '../../../shared/rows';
import { REPORT_TIMEOUT_MS, type ApiEndpoint } from '../../../shared/transport/request';
import { offerFilters, sharedFilters } from '../../../shared/filters';
import { limitProperties } from '../shared/limit';
import { periodProperties } from '../shared/period';
import { recordingProperties } from '../../../shared/recordings';
import { reportItems, rowsCarrying, type ReportRowSource, type RowIdentityRule } from './rowSource';
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

/** Answered in one piece for the whole period: parsed while it arrives. */
export const endpoint: ApiEndpoint = {
	operation: 'getRQ4',
	streamed: true,
	defaultTimeout: REPORT_TIMEOUT_MS,
};

const filters = offerFilters(
	[
		[sharedFilters.agent, 'Only classifications by this agent, by numeric ID or name'],
		[sharedFilters.batch, 'Only classifications of prospects of this batch'],
		[sharedFilters.operation, 'Only classifications in this operation, by numeric ID or name'],
		[sharedFilters.queue, 'Only classifications in this queue, by numeric ID or name'],
		[sharedFilters.team, 'Only classifications by agents of this team'],
	],
	{
		description: 'Each filter left out means all (all operations, queues, batches, teams, agents)',
	},
);

/**
 * One classification: a call classified again (another time, another result) is a new
 * classification result, so the protocol alone does not name a row.
 */
const identity: RowIdentityRule = {
	identityFields: ['protocolo', 'datahora', 'resultado', 'agente', 'numero', 'codigo'],
	timeField: 'datahora',
};

export const rowSource: ReportRowSource = {
	identity,
	endpoint,
	properties: [filters.property, ...recordingProperties],
	fields: async (context, itemIndex) => filters.read(context, itemIndex),
	rows: (answer) => rowsCarrying(rowsOf(answer), identity),
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
