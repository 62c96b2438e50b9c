import type { INodeProperties } from 'n8n-workflow';

import * as callHistory from '../shared/reports/callHistory';
import * as classificationResults from '../shared/reports/classificationResults';
import * as filledForms from '../shared/reports/filledForms';
import * as inboundCalls from '../shared/reports/inboundCalls';
import type { ReportRowSource } from '../shared/reports/rowSource';

/** A kind of new row the trigger watches for: the action node's report. */
export interface ReportEvent {
	name: string;
	value: string;
	description: string;
	/** Its rows, and how they are told apart and dated (`source.identity`). */
	source: ReportRowSource;
}

/** In the order the editor lists them. */
export const REPORT_EVENTS: ReportEvent[] = [
	{
		name: 'New Call in History',
		value: 'newCallInHistory',
		description:
			'A call made or received by an extension or agent appears in its call history (getHC2)',
		source: callHistory.rowSource,
	},
	{
		name: 'New Classification Result',
		value: 'newClassificationResult',
		description: 'An agent classifies a call (getRQ4)',
		source: classificationResults.rowSource,
	},
	{
		name: 'New Filled Form',
		value: 'newFilledForm',
		description: 'A ficha of the form is filled (getFP1)',
		source: filledForms.rowSource,
	},
	{
		name: 'New Inbound Call',
		value: 'newInboundCall',
		description: 'A call comes in through an inbound route (getRE2)',
		source: inboundCalls.rowSource,
		// The report has no call ID: time, caller and route tell calls apart.
	},
];

/** Each event's parameters, shown only for that event. */
export const eventProperties: INodeProperties[] = REPORT_EVENTS.flatMap((event) =>
	event.source.properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, event: [event.value] },
		},
	})),
);
