import { DateTime } from 'luxon';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	customRange,
	isPeriodPreset,
	ParameterError,
	PERIOD_PRESETS,
	presetRange,
	toApiDateTime,
} from '../helpers/parameters';
import { rowsOf } from '../helpers/rows';
import { dialerApiRequest, type ApiEndpoint, type ApiFields } from '../transport/request';

/**
 * What reading an item's parameters needs: the action node's context, or a trigger's (one set of
 * parameters, read as item 0).
 */
export interface ItemParameters {
	getNodeParameter(
		name: string,
		itemIndex: number,
		fallbackValue?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown;
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
}

/** A description that names the API field the parameter is sent as, then says the rest. */
export function sentAs(text: string, apiField: string, rest?: string): string {
	return `${text} (sent as ${apiField})${rest === undefined ? '' : `. ${rest}`}`;
}

const periodOptions: INodePropertyOptions[] = [
	{ name: 'Custom', value: 'custom', description: 'A start and end of your choice' },
	...Object.entries(PERIOD_PRESETS).map(([value, preset]) => ({ value, ...preset })),
].sort((a, b) => a.name.localeCompare(b.name));

/** Report range: a preset or a custom start and end, in the workflow's timezone. */
export const periodProperties: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		default: 'yesterday',
		options: periodOptions,
		description:
			"Time range of the report, in the workflow's timezone (Settings > Timezone). Sent to the " +
			'dialer as de/ate in YYYYMMDDhhmmss.',
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { period: ['custom'] } },
		description:
			"First moment of the range (inclusive), in the workflow's timezone. Accepts the date " +
			'picker, ISO 8601 text (2026-11-21T08:00:00) or 14 digits (20261121080000).',
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { period: ['custom'] } },
		description:
			'Last moment of the range (inclusive), not before Start. A date without a time ' +
			'(2026-11-21) means the end of that day.',
	},
];

/** The report range as the API's `de` and `ate` fields. */
export function readPeriod(
	this: IExecuteFunctions,
	itemIndex: number,
): { de: string; ate: string } {
	const zone = this.getTimezone();
	const period = this.getNodeParameter('period', itemIndex);
	let range;
	if (period === 'custom') {
		range = customRange(
			this.getNodeParameter('start', itemIndex),
			this.getNodeParameter('end', itemIndex),
			zone,
		);
	} else if (isPeriodPreset(period)) {
		range = presetRange(period, DateTime.now().setZone(zone));
	} else {
		throw new ParameterError(
			'Period',
			`"${String(period)}" is not a known period`,
			`Choose one of ${Object.keys(PERIOD_PRESETS).join(', ')} or custom.`,
		);
	}
	return { de: toApiDateTime(range.start), ate: toApiDateTime(range.end) };
}

/** n8n's usual pair for lists: everything, or the first N. */
export const limitProperties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

/**
 * A list or report read in one request: the rows of the answer (under `listKey` when given), up
 * to Return All or Limit, one item per row.
 */
export async function listItems(
	this: IExecuteFunctions,
	itemIndex: number,
	endpoint: ApiEndpoint,
	fields: ApiFields,
	listKey?: string,
): Promise<INodeExecutionData[]> {
	const answer = await dialerApiRequest.call(this, endpoint, fields, itemIndex);
	return limitedItems.call(this, itemIndex, rowsOf(answer, listKey));
}

/** The rows up to Return All or Limit, one item per row. */
export function limitedItems(
	this: IExecuteFunctions,
	itemIndex: number,
	rows: IDataObject[],
): INodeExecutionData[] {
	return upToLimit.call(this, itemIndex, rows).map((json) => ({ json }));
}

function upToLimit(this: IExecuteFunctions, itemIndex: number, rows: IDataObject[]): IDataObject[] {
	if (this.getNodeParameter('returnAll', itemIndex) as boolean) return rows;
	const limit = this.getNodeParameter('limit', itemIndex) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw new ParameterError(
			'Limit',
			`${limit} is not a positive whole number`,
			'Set Limit to 1 or more, or turn on Return All.',
		);
	}
	return rows.slice(0, limit);
}

type PickableResource = 'batch' | 'team';

const PICKERS: Record<
	PickableResource,
	{ searchListMethod: string; label: string; idExample: string; nameExample: string }
> = {
	batch: {
		searchListMethod: 'searchBatches',
		label: 'batch',
		idExample: '42',
		nameExample: 'Lote Novembro',
	},
	team: {
		searchListMethod: 'searchTeams',
		label: 'team',
		idExample: '3',
		nameExample: 'Equipe Vendas',
	},
};

/**
 * A batch or team picked from the dialer's list, or given by ID or by name (the API takes
 * either).
 */
export function resourcePicker(
	resource: PickableResource,
	property: Pick<INodeProperties, 'displayName' | 'name' | 'description'> & { required?: boolean },
): INodeProperties {
	const picker = PICKERS[resource];
	return {
		...property,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${picker.label}...`,
				typeOptions: { searchListMethod: picker.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${picker.idExample}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*\\d+\\s*$',
							errorMessage: `A ${picker.label} ID is a whole number`,
						},
					},
				],
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: `e.g. ${picker.nameExample}`,
			},
		],
	};
}

/** The picked value as sent to the API (ID or name), trimmed; empty when nothing was picked. */
export function readPicked(
	this: ItemParameters,
	name: string,
	itemIndex: number,
	fallback = '',
): string {
	const value = this.getNodeParameter(name, itemIndex, fallback, { extractValue: true });
	if (typeof value === 'object' && value !== null) {
		return String((value as IDataObject).value ?? '').trim();
	}
	return String(value ?? '').trim();
}

/** A filter of a list: its parameter, and the API field it is sent as. */
export interface Filter {
	apiField: string;
	/** The parameter, without its description: each operation describes what it filters. */
	property: Omit<INodeProperties, 'description'>;
}

/** Filters the API takes by ID or name, offered by several lists and reports. */
export const sharedFilters = {
	operation: {
		apiField: 'operacao',
		property: {
			displayName: 'Operation (ID or Name)',
			name: 'operation',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2 or Operação Cobrança',
		},
	},
	queue: {
		apiField: 'fila',
		property: {
			displayName: 'Queue (ID or Name)',
			name: 'queue',
			type: 'string',
			default: '',
			placeholder: 'e.g. 12 or Fila Ativa Cobrança',
		},
	},
	batch: {
		apiField: 'lote',
		property: resourcePicker('batch', { displayName: 'Batch', name: 'batch' }),
	},
	team: {
		apiField: 'time',
		property: resourcePicker('team', { displayName: 'Team', name: 'team' }),
	},
	agent: {
		apiField: 'agente',
		property: {
			displayName: 'Agent (ID or Login)',
			name: 'agent',
			type: 'string',
			default: '',
			placeholder: 'e.g. 101 or maria.souza',
		},
	},
} satisfies Record<string, Filter>;

/** A filter as one operation offers it: what it keeps, and what else to say after the field. */
export type FilterOffer = [filter: Filter, keeps: string, rest?: string];

/** The Filters collection of an operation, and the reading of it into API fields. */
export interface OfferedFilters {
	property: INodeProperties;
	/** The filters set on this item as API fields; filters left empty are not sent. */
	read(context: ItemParameters, itemIndex: number): Record<string, string>;
}

export function offerFilters(
	offers: FilterOffer[],
	collection: Pick<INodeProperties, 'description'> = {},
): OfferedFilters {
	return {
		property: {
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			...collection,
			options: offers.map(([filter, keeps, rest]) => ({
				...filter.property,
				description: sentAs(keeps, filter.apiField, rest),
			})),
		},
		read(context, itemIndex) {
			const set = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
			const fields: Record<string, string> = {};
			for (const [{ apiField, property }] of offers) {
				if (!(property.name in set)) continue;
				const value = readPicked.call(context, `filters.${property.name}`, itemIndex);
				if (value !== '') fields[apiField] = value;
			}
			return fields;
		},
	};
}
