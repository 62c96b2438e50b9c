/** getRE2, calls received through inbound routes: the rows the report node and trigger read. */
import { offerFilters, sharedFilters } from '../filters';
import { rowsOf } from '../rows';
import { REPORT_TIMEOUT_MS, type ApiEndpoint } from '../transport/request';
import { rowsCarrying, type ReportRowSource, type RowIdentityRule } from './rowSource';

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
	name: 'Inbound Calls',
	identity,
	endpoint,
	properties: [filters.property],
	fields: async (context, itemIndex) => filters.read(context, itemIndex),
	rows: (answer) => rowsCarrying(rowsOf(answer, 'resultado'), identity),
};
