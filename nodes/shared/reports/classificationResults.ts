/** getRQ4, how agents classified their calls: the rows the report node and trigger read. */
import { offerFilters, sharedFilters } from '../filters';
import { recordingProperties } from '../recordings';
import { rowsOf } from '../rows';
import { REPORT_TIMEOUT_MS, type ApiEndpoint } from '../transport/request';
import { rowsCarrying, type ReportRowSource, type RowIdentityRule } from './rowSource';

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
	name: 'Classification Results',
	identity,
	endpoint,
	properties: [filters.property, ...recordingProperties],
	fields: async (context, itemIndex) => filters.read(context, itemIndex),
	rows: (answer) => rowsCarrying(rowsOf(answer), identity),
};
