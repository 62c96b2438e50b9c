import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { numberFromText, ParameterError, switchOn } from '../../../shared/parameters';
import { rowsOf } from '../../../shared/rows';
import {
	dialerApiRequest,
	type ApiEndpoint,
	type ApiFields,
} from '../../../shared/transport/request';

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

/** The rows up to Return All or Limit, one item per row, paired with the input item. */
export function limitedItems(
	this: IExecuteFunctions,
	itemIndex: number,
	rows: IDataObject[],
): INodeExecutionData[] {
	// Made paired: a property added afterwards costs each of 100,000 items a second allocation.
	return upToLimit
		.call(this, itemIndex, rows)
		.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

function upToLimit(this: IExecuteFunctions, itemIndex: number, rows: IDataObject[]): IDataObject[] {
	if (switchOn(this.getNodeParameter('returnAll', itemIndex), 'Return All')) return rows;
	const value: unknown = this.getNodeParameter('limit', itemIndex);
	const limit = numberFromText(value);
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw new ParameterError(
			'Limit',
			`${String(value)} is not a positive whole number`,
			'Set Limit to 1 or more, or turn on Return All.',
		);
	}
	return rows.slice(0, limit);
}
