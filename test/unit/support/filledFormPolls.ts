import { Settings } from 'luxon';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { fakePollFunctions, type FakePollOptions } from './pollFunctions';

const trigger = new DialerReportTrigger();

/**
 * One scheduled poll of a New Filled Form trigger (form 41, no filters) at `now` on luxon's clock,
 * with the trigger's `options`: the items it returns. Tests that poll it again share `staticData`
 * as n8n does; set luxon's clock back to the real one after them (`Settings.now`).
 */
export async function pollFilledForms(
	now: number,
	options: IDataObject,
	context: Omit<FakePollOptions, 'parameters'>,
): Promise<INodeExecutionData[]> {
	Settings.now = () => now;
	const output = await trigger.poll.call(
		fakePollFunctions({
			...context,
			parameters: { event: 'newFilledForm', form: '41', filters: {}, options },
		}),
	);
	return output?.[0] ?? [];
}
