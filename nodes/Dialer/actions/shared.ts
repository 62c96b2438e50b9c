import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	customRange,
	PERIOD_PRESETS,
	presetRange,
	toApiDateTime,
	type PeriodPreset,
} from '../helpers/dates';
import { ParameterError } from '../helpers/ParameterError';

/** Report range: a preset or a custom start and end, in the workflow's timezone. */
export const periodProperties: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		default: 'yesterday',
		options: [
			{ name: 'Custom', value: 'custom', description: 'A start and end of your choice' },
			{ name: 'Last 30 Days', value: 'last30Days', description: 'Today and the 29 days before it' },
			{ name: 'Last 7 Days', value: 'last7Days', description: 'Today and the 6 days before it' },
			{ name: 'Last Month', value: 'lastMonth', description: 'The calendar month before this one' },
			{
				name: 'Last Week',
				value: 'lastWeek',
				description: 'The calendar week (Monday to Sunday) before this one',
			},
			{
				name: 'This Month',
				value: 'thisMonth',
				description: 'The calendar month containing today',
			},
			{
				name: 'This Week',
				value: 'thisWeek',
				description: 'The calendar week (Monday to Sunday) containing today',
			},
			{ name: 'Today', value: 'today', description: 'From 00:00:00 to 23:59:59 today' },
			{ name: 'Yesterday', value: 'yesterday', description: 'The whole of yesterday' },
		],
		description:
			"Time range of the report, in the workflow's timezone (Settings > Timezone). Sent to the dialer as de/ate in YYYYMMDDhhmmss.",
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { period: ['custom'] } },
		description:
			"First moment of the range (inclusive), in the workflow's timezone. Accepts the date picker, ISO 8601 text (2026-11-21T08:00:00) or 14 digits (20261121080000).",
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { period: ['custom'] } },
		description:
			'Last moment of the range (inclusive), not before Start. A date without a time (2026-11-21) means the end of that day.',
	},
];

/** The report range as the API's `de` and `ate` fields. */
export function readPeriod(
	this: IExecuteFunctions,
	itemIndex: number,
): { de: string; ate: string } {
	const zone = this.getTimezone();
	const period = this.getNodeParameter('period', itemIndex) as PeriodPreset | 'custom';
	let range;
	if (period === 'custom') {
		range = customRange(
			this.getNodeParameter('start', itemIndex),
			this.getNodeParameter('end', itemIndex),
			zone,
		);
	} else if ((PERIOD_PRESETS as readonly string[]).includes(period)) {
		range = presetRange(period, DateTime.now().setZone(zone));
	} else {
		throw new ParameterError(
			'Period',
			`"${String(period)}" is not a known period`,
			`Choose one of ${PERIOD_PRESETS.join(', ')} or custom.`,
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

export function applyLimit(
	this: IExecuteFunctions,
	itemIndex: number,
	rows: IDataObject[],
): IDataObject[] {
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

/** A batch or team picked from the dialer's list, or given by ID or by name (the API takes either). */
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
	this: IExecuteFunctions,
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

/** Report filters the API takes by ID or name; each operation's Filters collection picks from these. */
export const filterProperties = {
	operation: {
		displayName: 'Operation (ID or Name)',
		name: 'operation',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2 or Operação Cobrança',
		description: 'Only results of this operation (a group of queues), by numeric ID or exact name',
	},
	queue: {
		displayName: 'Queue (ID or Name)',
		name: 'queue',
		type: 'string',
		default: '',
		placeholder: 'e.g. 12 or Fila Ativa Cobrança',
		description: 'Only results of this queue, by numeric ID or exact description',
	},
	batch: resourcePicker('batch', {
		displayName: 'Batch',
		name: 'batch',
		description: 'Only results of this batch of prospects',
	}),
	team: resourcePicker('team', {
		displayName: 'Team',
		name: 'team',
		description: 'Only results of agents of this team',
	}),
	agent: {
		displayName: 'Agent (ID or Login)',
		name: 'agent',
		type: 'string',
		default: '',
		placeholder: 'e.g. 101 or maria.souza',
		description: 'Only results of this agent, by numeric ID or login',
	},
} satisfies Record<string, INodeProperties>;

/** Reads the Filters collection into API fields; filters left empty are not sent. */
export function readFilters(
	this: IExecuteFunctions,
	itemIndex: number,
	apiFieldByFilter: Record<string, string>,
): Record<string, string> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const fields: Record<string, string> = {};
	for (const [filter, apiField] of Object.entries(apiFieldByFilter)) {
		if (!(filter in filters)) continue;
		const value = readPicked.call(this, `filters.${filter}`, itemIndex);
		if (value !== '') fields[apiField] = value;
	}
	return fields;
}
