/** getFP1, the fichas (filled forms) of a form: the rows the report node and trigger read. */
import type { INodeProperties } from 'n8n-workflow';

import { dialerCredentials } from '../credentials';
import { offerFilters, sharedFilters } from '../filters';
import type { ItemParameters } from '../itemParameters';
import { requireText } from '../parameters';
import { rowsOf } from '../rows';
import { sentAs } from '../sentAs';
import { REPORT_TIMEOUT_MS, type ApiEndpoint, type ApiFields } from '../transport/request';
import { rowsCarrying, type ReportRowSource, type RowIdentityRule } from './rowSource';

/** Answered in one piece for the whole period, as JSON or CSV: JSON is parsed while it arrives. */
export const endpoint: ApiEndpoint = {
	operation: 'getFP1',
	streamed: true,
	defaultTimeout: REPORT_TIMEOUT_MS,
};

export const filters = offerFilters([
	[sharedFilters.agent, 'Only fichas filled by this agent, by numeric ID or login'],
	[sharedFilters.batch, 'Only fichas of prospects of this batch'],
	[sharedFilters.operation, 'Only fichas in this operation, by numeric ID or name'],
	[
		{
			apiField: 'prospect',
			property: {
				displayName: 'Prospect Name',
				name: 'prospect',
				type: 'string',
				default: '',
				placeholder: 'e.g. Ana Lima',
			},
		},
		'Only fichas of prospects with this name',
	],
	[sharedFilters.queue, 'Only fichas in this queue, by numeric ID or name'],
	[
		{
			apiField: 'status',
			property: {
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'e.g. Finalizada',
			},
		},
		'Only fichas with this status, as the dialer names it',
	],
	[sharedFilters.team, 'Only fichas filled by agents of this team'],
]);

export const formProperty: INodeProperties = {
	displayName: 'Form (ID or Name)',
	name: 'form',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 4 or Pesquisa de Satisfação',
	description: sentAs('Form whose filled fichas to read, by numeric ID or exact name', 'form'),
};

export function readForm(context: ItemParameters, itemIndex: number): string {
	return requireText(
		context.getNodeParameter('form', itemIndex),
		'Form (ID or Name)',
		'Pesquisa de Satisfação',
	);
}

/** Filters, format and the report login: sent however the fichas are selected. */
export async function commonFields(
	context: ItemParameters,
	itemIndex: number,
	format: 'json' | 'csv',
): Promise<ApiFields> {
	// The report login is only sent when set: servers without permission checks do not expect it.
	const credentials = await dialerCredentials(context);
	const reportLogin: ApiFields = credentials.reportUser
		? { user: String(credentials.reportUser), senha: String(credentials.reportPassword ?? '') }
		: {};
	return {
		...filters.read(context, itemIndex),
		formato: format,
		...reportLogin,
	};
}

/** One ficha, whatever its status becomes. */
const identity: RowIdentityRule = {
	keyField: 'ficha',
	identityFields: ['data', 'agente', 'codigo'],
	timeField: 'data',
	statusField: 'status',
};

/** The fichas of one form, as items. */
export const rowSource: ReportRowSource = {
	name: 'Filled Forms',
	identity,
	endpoint,
	properties: [formProperty, filters.property],
	fields: async (context, itemIndex) => ({
		form: readForm(context, itemIndex),
		...(await commonFields(context, itemIndex, 'json')),
	}),
	rows: (answer) => rowsCarrying(rowsOf(answer), identity),
};
