import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { parseFichaIds, requireText } from '../../../shared/parameters';
import {
	commonFields,
	endpoint,
	filters,
	formProperty,
	readForm,
	rowSource,
} from '../../../shared/reports/filledForms';
import { sentAs } from '../../../shared/sentAs';
import {
	dialerApiDownload,
	dialerApiRequest,
	type ApiFields,
} from '../../../shared/transport/request';
import { limitedItems, limitProperties } from '../shared/limit';
import { periodProperties, readPeriod } from '../shared/period';
import {
	countingTally,
	groupByProperty,
	groupFieldOf,
	summaryItems,
	type Summarizer,
} from './summary';

export const option = {
	name: 'Get Filled Forms',
	description: 'Fichas (filled forms) of a form in a period, or by ID, as items or as a CSV file',
	action: 'Get filled forms',
};

const byFormAndPeriod = { selectBy: ['formAndPeriod'] };

/** Fichas counted by status, each status named as it comes. */
const filledFormsSummarizer: Summarizer = {
	groupFields: { agent: 'agente', team: 'time' },
	newTally: countingTally('fichas', 'status', 'statuses'),
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Select Fichas By',
		name: 'selectBy',
		type: 'options',
		default: 'formAndPeriod',
		options: [
			{
				name: 'Form and Period',
				value: 'formAndPeriod',
				description: 'All fichas of one form filled in a period',
			},
			{
				name: 'Ficha IDs',
				value: 'fichaIds',
				description: 'Specific fichas by ID; they must all belong to the same form',
			},
		],
		description: 'Whether to read the fichas of a form in a period, or specific fichas by ID',
	},
	{ ...formProperty, displayOptions: { show: byFormAndPeriod } },
	...periodProperties.map((property) => ({
		...property,
		displayOptions: { show: { ...property.displayOptions?.show, ...byFormAndPeriod } },
	})),
	{
		displayName: 'Ficha IDs',
		name: 'fichaIds',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { selectBy: ['fichaIds'] } },
		placeholder: 'e.g. 1200,1203,1210-1220',
		description: sentAs(
			'Comma-separated ficha IDs, with hyphen ranges allowed, all of the same form',
			'fichaId',
		),
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'items',
		options: [
			{
				name: 'One Item per Ficha',
				value: 'items',
				description:
					'JSON rows; custom prospect fields end in _p, form answers in _N_f where N is the ' +
					'question number',
			},
			{
				name: 'CSV File',
				value: 'csvFile',
				description: 'The export as a semicolon-separated CSV file in a binary property',
			},
			{
				name: 'Summary',
				value: 'summary',
				description: 'One item: fichas counted by status, per group and in total',
			},
		],
		description:
			'Whether to output one item per ficha, the CSV export as a file (sets formato), or one ' +
			'summary item',
	},
	groupByProperty(filledFormsSummarizer, { Agent: 'agent', Team: 'team' }),
	...limitProperties.map((property) => ({
		...property,
		displayOptions: { show: { ...property.displayOptions?.show, output: ['items'] } },
	})),
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { output: ['csvFile'] } },
		hint: 'The name of the output binary field to put the file in',
		description:
			'Binary property that will hold the CSV file, for nodes such as Send Email or Write Files ' +
			'from Disk',
	},
	filters.property,
];

function fileSlug(text: string): string {
	return (
		text
			.normalize('NFD')
			.replace(/[\u0300-\u036f]/g, '')
			.replace(/[^A-Za-z0-9]+/g, '-')
			.replace(/^-+|-+$/g, '')
			.toLowerCase()
			.slice(0, 60) || 'form'
	);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const selectBy = this.getNodeParameter('selectBy', itemIndex) as 'formAndPeriod' | 'fichaIds';
	const output = this.getNodeParameter('output', itemIndex) as 'items' | 'csvFile' | 'summary';
	const groupField =
		output === 'summary' ? groupFieldOf(this, itemIndex, filledFormsSummarizer) : undefined;
	const selection: ApiFields =
		selectBy === 'fichaIds'
			? { fichaId: parseFichaIds(this.getNodeParameter('fichaIds', itemIndex)) }
			: { form: readForm(this, itemIndex), ...(await readPeriod.call(this, itemIndex)) };
	const fields: ApiFields = {
		...selection,
		...(await commonFields(this, itemIndex, output === 'csvFile' ? 'csv' : 'json')),
	};

	if (output !== 'csvFile') {
		const answer = await dialerApiRequest.call(this, endpoint, fields, itemIndex);
		const rows = rowSource.rows(answer);
		if (output === 'items') return limitedItems.call(this, itemIndex, rows);
		return summaryItems(fields, rows, filledFormsSummarizer, groupField, { form: fields.form });
	}

	const binaryPropertyName = requireText(
		this.getNodeParameter('binaryPropertyName', itemIndex),
		'Put Output File in Field',
		'data',
	);
	const file = await dialerApiDownload.call(this, endpoint, fields, itemIndex);
	const fileName =
		selection.fichaId !== undefined
			? `filled-forms-fichas-${fileSlug(selection.fichaId)}.csv`
			: `filled-forms-${fileSlug(selection.form ?? '')}-${selection.de}-${selection.ate}.csv`;
	const summary: IDataObject = { fileName, fileSize: file.body.length };
	for (const name of ['form', 'de', 'ate', 'fichaId'] as const) {
		if (selection[name] !== undefined) summary[name] = selection[name];
	}
	return [
		{
			json: summary,
			binary: {
				[binaryPropertyName]: await this.helpers.prepareBinaryData(file.body, fileName, 'text/csv'),
			},
		},
	];
}
