import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { parallelRequestsOf } from '../../helpers/parallel';
import { dialerApiRequest, type ApiEndpoint, type ApiFields } from '../../transport/request';
import { attachRecordings, recordingsWanted } from '../recording/files';
import type { ItemParameters } from '../shared/itemParameters';
import { limitedItems } from '../shared/limit';
import { readPeriod } from '../shared/period';

/**
 * A report read as rows over a period: what its operation and the Dialer Report Trigger share, so
 * both offer the same parameters, send the same fields and output the same items.
 */
export interface ReportRowSource {
	endpoint: ApiEndpoint;
	/** The parameters that choose the rows, besides the period. */
	properties: INodeProperties[];
	/** Those parameters as API fields; the period (de/ate) is added by the caller. */
	fields(context: ItemParameters, itemIndex: number): Promise<ApiFields>;
	/** The rows of an answer, one per output item. */
	rows(answer: unknown): IDataObject[];
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
	const fields = {
		...(await readPeriod.call(this, itemIndex)),
		...(await source.fields(this, itemIndex)),
	};
	const recordings = recordingsWanted(this, itemIndex);
	const answer = await dialerApiRequest.call(this, source.endpoint, fields, itemIndex);
	const items = limitedItems.call(this, itemIndex, source.rows(answer));
	if (recordings) {
		await attachRecordings.call(this, items, recordings, {
			parallel: parallelRequestsOf(this),
			keepFailures: this.continueOnFail(),
			itemIndex,
		});
	}
	return items;
}
