import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { parallelRequestsOf } from '../../../shared/parallel';
import { attachRecordings, recordingsWanted } from '../../../shared/recordings';
import type { ReportRowSource } from '../../../shared/reports/rowSource';
import { dialerApiRequest, type ApiFields } from '../../../shared/transport/request';
import { limitedItems } from '../shared/limit';
import { readPeriod } from '../shared/period';

/** The report's rows for this item's parameters and period, and the fields that asked for them. */
export async function reportRows(
	this: IExecuteFunctions,
	itemIndex: number,
	source: ReportRowSource,
): Promise<{ fields: ApiFields; rows: IDataObject[] }> {
	const fields = {
		...(await readPeriod.call(this, itemIndex)),
		...(await source.fields(this, itemIndex)),
	};
	const answer = await dialerApiRequest.call(this, source.endpoint, fields, itemIndex);
	return { fields, rows: source.rows(answer) };
}

/**
 * The report's rows for this item's parameters and period, up to Return All or Limit, with their
 * recordings when the report offers Download Recordings and it is on.
 */
export async function reportItems(
	this: IExecuteFunctions,
	itemIndex: number,
	source: ReportRowSource,
): Promise<INodeExecutionData[]> {
	const recordings = recordingsWanted(this, itemIndex);
	const { rows } = await reportRows.call(this, itemIndex, source);
	const items = limitedItems.call(this, itemIndex, rows);
	if (recordings) {
		await attachRecordings.call(this, items, recordings, {
			parallel: parallelRequestsOf(this),
			keepFailures: this.continueOnFail(),
			itemIndex,
		});
	}
	return items;
}
