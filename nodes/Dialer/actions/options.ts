import type { INodeProperties } from 'n8n-workflow';

import { ACTION_TIMEOUT_MS, REPORT_TIMEOUT_MS } from '../transport';

/** Settings of the node's requests, the same for every operation. */
export const requestOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
			description:
				'How many input items to send to the dialer at the same time. Without this option items run one after the other, in order. Output order always follows input order.',
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			default: ACTION_TIMEOUT_MS,
			typeOptions: { minValue: 1, numberPrecision: 0 },
			description: `Milliseconds to wait for the dialer's answer before failing the item. Without this option: ${ACTION_TIMEOUT_MS} for actions, ${REPORT_TIMEOUT_MS} for reports.`,
		},
	],
};
