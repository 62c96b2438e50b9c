import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { rowsOf } from '../../../shared/rows';
import { REPORT_TIMEOUT_MS, type ApiEndpoint } from '../../../shared/transport/request';
import { offerFilters, sharedFilters } from '../../../shared/filters';
import { limitProperties } from '../shared/limit';
import { periodProperties } from '../shared/period';
import { inboundSummarizer, readServiceLevel, serviceLevelProperty } from './inboundSummary';
import { reportItems, rowsCarrying, type ReportRowSource, type RowIdentityRule } from './rowSource';
import { groupByProperty, outputProperty, reportSummary, summaryWanted } from './summary';

export const option = {
	name: 'Get Inbound Calls',
	description: 'Calls received through inbound routes in a period, one item per call',
	action: 'Get inbound calls',
};

/** Answered in one piece for the whole period: parsed while it arrives. */
export const endpoint: ApiEndpoint = {
	operation: 'getRE2',
	streamed: true,
	defaultTimeout: REPORT_TIMEOUT_MS,
};

const filters = offerFilters([
	[
		{
			apiField: 'rotaEntrada',
			property: {
				displayName: 'Inbound Route (ID or Name)',
				name: 'inboundRoute',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3 or SAC 0800',
			},
		},
		'Only calls that came in through this inbound route, by ID or description',
		'Without it, all routes.',
	],
	[
		sharedFilters.queue,
		'Only calls routed to this queue, by numeric ID or description',
		'Without it, all queues.',
	],
]);

/**
 * One call. The report has no call ID: every field written with the call tells calls apart (two
 * calls from a withheld number through one route in one second differ in who answered them); the
 * result the agent classifies later does not.
 */
const identity: RowIdentityRule = {
	identityFields: [
		'data_hora',
		'origem',
		'roteamento',
		'prospect',
		'tipo_destino',
		'destino',
		'status',
		'tempo_fila',
		'tempo_atendimento',
		'agente',
	],
	timeField: 'data_hora',
};

export const rowSource: ReportRowSource = {
	identity,
	endpoint,
	properties: [filters.property],
	fields: async (context, itemIndex) => filters.read(context, itemIndex),
	rows: (answer) => rowsCarrying(rowsOf(answer, 'resultado'), identity),
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
