import type { IDataObject } from 'n8n-workflow';

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// false: PHP's answer when its query finds no row.
const isEmpty = (value: unknown) =>
	value === undefined || value === null || value === '' || value === false;

// The count report answers carry beside their rows; with no rows beside it, it is not a row.
const isCount = (key: string) => key === 'total';

/**
 * The list of records in a payload. The contract leaves most wrappers open, so this accepts the
 * list itself, the list under `listKey`, or an object whose only list is the rows; an empty answer
 * or false, `listKey` holding nothing (`{"resultado":null}`), or a list's count alone
 * (`{"total":0}`) is no rows, and a single record is one row.
 */
export function rowsOf(payload: unknown, listKey?: string): IDataObject[] {
	if (isEmpty(payload)) return [];
	// Usually every element is a record: the parsed list itself then, not a copy of it.
	if (Array.isArray(payload)) return payload.every(isRecord) ? payload : entriesOf(payload);
	if (!isRecord(payload)) return [{ value: payload as string | number | boolean }];
	if (listKey !== undefined && Array.isArray(payload[listKey])) return rowsOf(payload[listKey]);
	if (listKey !== undefined && listKey in payload && isEmpty(payload[listKey])) return [];
	const lists = Object.values(payload).filter(Array.isArray);
	if (lists.length === 1) return rowsOf(lists[0]);
	return Object.keys(payload).every(isCount) ? [] : [payload];
}

/** A list's records; a list of names or IDs only (getTime's items are not shown) holds each. */
function entriesOf(list: unknown[]): IDataObject[] {
	const records = list.filter(isRecord);
	if (records.length > 0) return records;
	const isName = (value: unknown): value is string | number =>
		(typeof value === 'string' && value !== '') || typeof value === 'number';
	return list.filter(isName).map((value) => ({ value }));
}

/** The payload as one record, for operations that answer with a single result. */
export function recordOf(payload: unknown): IDataObject {
	if (isRecord(payload)) return payload;
	if (payload === undefined || payload === null || payload === '') return {};
	if (
		Array.isArray(payload) &&
		payload.length <= 1 &&
		(payload.length === 0 || isRecord(payload[0]))
	) {
		return payload[0] ?? {};
	}
	return { result: payload as IDataObject[] | string | number | boolean };
}
