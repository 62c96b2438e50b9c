import { DateTime } from 'luxon';
import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	customRange,
	isPeriodPreset,
	ParameterError,
	PERIOD_PRESETS,
	presetRange,
} from '../../../shared/parameters';
import { toApiDateTime } from '../../../shared/dialerTime';
import { dialerTimezone } from '../../../shared/dialerTimezone';

const periodOptions: INodePropertyOptions[] = [
	{ name: 'Custom', value: 'custom', description: 'A start and end of your choice' },
	...Object.entries(PERIOD_PRESETS).map(([value, preset]) => ({ value, ...preset })),
].sort((a, b) => a.name.localeCompare(b.name));

/** Report range: a preset or a custom start and end, on the dialer's clock. */
export const periodProperties: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		default: 'yesterday',
		options: periodOptions,
		description:
			"Time range of the report, in whole days of the dialer's clock: the credential's Dialer " +
			"Timezone, or the workflow's when that is empty. Sent as de/ate in YYYYMMDDhhmmss.",
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { period: ['custom'] } },
		description:
			"First moment of the range (inclusive), on the dialer's clock unless it carries an offset. " +
			'Accepts the date picker, ISO 8601 text (2026-11-21T08:00:00), 14 digits ' +
			'(20261121080000) or a time as the reports write it (21/11/2026 08:00:00).',
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { period: ['custom'] } },
		description:
			'Last moment of the range (inclusive), not before Start. A date without a time ' +
			'(2026-11-21) means the end of that day.',
	},
];

/** The report range as the API's `de` and `ate` fields, in the dialer's zone. */
export async function readPeriod(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<{ de: string; ate: string }> {
	const zone = await dialerTimezone(this);
	const period = this.getNodeParameter('period', itemIndex);
	let range;
	if (period === 'custom') {
		range = customRange(
			this.getNodeParameter('start', itemIndex),
			this.getNodeParameter('end', itemIndex),
			zone,
		);
	} else if (isPeriodPreset(period)) {
		range = presetRange(period, DateTime.now().setZone(zone));
	} else {
		throw new ParameterError(
			'Period',
			`"${String(period)}" is not a known period`,
			`Choose one of ${Object.keys(PERIOD_PRESETS).join(', ')} or custom.`,
		);
	}
	return { de: toApiDateTime(range.start), ate: toApiDateTime(range.end) };
}
