import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../itemParameters';
import type { ApiEndpoint, ApiFields } from '../transport/request';

/**
 * How a report's rows are told apart and dated: what one new row of the report is (the Dialer
 * Report Trigger emits each once; docs/report-trigger.md lists them).
 */
export interface RowIdentityRule {
	/**
	 * Field whose value names the row for good (ficha number, call protocol), if the report has
	 * one: a row with a value there is that one row, whatever else changes on it later.
	 */
	keyField?: string;
	/**
	 * Fields fixed when the row is written, which tell rows without a key value apart: not a result
	 * classified later, nor the range of the read. Rows equal in all of them are counted one by one.
	 */
	identityFields: string[];
	/** Field holding the time the row carries. */
	timeField: string;
	/**
	 * Field holding the status of a row with a key, if the report has one: the Report Trigger can
	 * emit a row again when it changes.
	 */
	statusField?: string;
}

/**
 * The records of an answer that are rows: those that carry a value in any field the report dates
 * or tells rows apart by (a call without its time or protocol is still a call). Anything else
 * (`{"resultado":null,"total":0}` from an idle dialer) is no row.
 */
export function rowsCarrying(records: IDataObject[], identity: RowIdentityRule): IDataObject[] {
	const { timeField, keyField, identityFields } = identity;
	const fields = [timeField, ...(keyField === undefined ? [] : [keyField]), ...identityFields];
	const isRow = (record: IDataObject) =>
		fields.some((field) => record[field] !== undefined && record[field] !== null);
	// A report's answer is usually all rows: the list itself then, not a copy of it.
	return records.every(isRow) ? records : records.filter(isRow);
}

/**
 * A report read as rows over a period: what its operation and the Dialer Report Trigger share, so
 * both offer the same parameters, send the same fields and output the same items.
 */
export interface ReportRowSource {
	/** The report's name, as its operation and errors name it ("Filled Forms"). */
	name: string;
	endpoint: ApiEndpoint;
	/** The parameters that choose the rows, besides the period. */
	properties: INodeProperties[];
	/** Those parameters as API fields; the period (de/ate) is added by the caller. */
	fields(context: ItemParameters, itemIndex: number): Promise<ApiFields>;
	/** How its rows are told apart and dated. */
	identity: RowIdentityRule;
	/** The rows of an answer, one per output item. */
	rows(answer: unknown): IDataObject[];
}
