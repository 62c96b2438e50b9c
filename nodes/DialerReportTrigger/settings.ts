import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import type { ItemParameters } from '../shared/itemParameters';
import { dialerCredentials } from '../shared/credentials';
import { dialerTimezone } from '../shared/dialerTimezone';
import { parseDateTime, ParameterError } from '../shared/parameters';
import type { CursorSettings } from './cursor';
import { REPORT_EVENTS, type ReportEvent } from './events';

const DEFAULT_OVERLAP_MINUTES = 10;
const MAX_OVERLAP_MINUTES = 1440;
const DEFAULT_MAX_ROWS = 1000;
const MAX_ROWS = 100_000;

export const triggerOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Emit a Row Again When Its Status Changes',
			name: 'emitStatusChanges',
			type: 'boolean',
			default: false,
			displayOptions: { show: { '/event': ['newFilledForm'] } },
			description:
				'Whether to start the workflow again for a ficha already emitted when the dialer ' +
				'lists it with another status (for a CRM that mirrors the ficha status): each change ' +
				'once. Off: each ficha once, with the status it had when first read.',
		},
		{
			displayName: 'Max Rows per Poll',
			name: 'maxRowsPerPoll',
			type: 'number',
			default: DEFAULT_MAX_ROWS,
			typeOptions: { minValue: 1, maxValue: MAX_ROWS, numberPrecision: 0 },
			description:
				`At most this many rows per execution, oldest first; the rest come with the next polls. ` +
				`Without this option: ${DEFAULT_MAX_ROWS}.`,
		},
		{
			displayName: 'Overlap Window (Minutes)',
			name: 'overlapWindow',
			type: 'number',
			default: DEFAULT_OVERLAP_MINUTES,
			typeOptions: { minValue: 1, maxValue: MAX_OVERLAP_MINUTES, numberPrecision: 0 },
			description:
				`How late the dialer may write a row after the time it carries (a classification saved ` +
				`minutes after its call) and still start the workflow; each poll reads again this much ` +
				`before where the last one ended. Without this option: ${DEFAULT_OVERLAP_MINUTES}.`,
		},
		{
			displayName: 'Start From',
			name: 'startFrom',
			type: 'dateTime',
			default: '',
			description:
				"Emit the rows from this moment on (on the dialer's clock unless it carries an offset) " +
				'instead of those from the Overlap Window before the activation on. A new value starts ' +
				'over from it; other parameter changes go on where the trigger is, emitting nothing again.',
		},
	],
};

/** The trigger's parameters, read the way the action node reads an item's. */
export function singleItem(context: IPollFunctions): ItemParameters {
	return {
		getNodeParameter: (name, _itemIndex, fallbackValue, options) =>
			context.getNodeParameter(name, fallbackValue, options),
		getCredentials: async () => await dialerCredentials(context),
	};
}

export function eventOf(context: IPollFunctions): ReportEvent {
	const value = context.getNodeParameter('event') as string;
	const event = REPORT_EVENTS.find((candidate) => candidate.value === value);
	if (!event) {
		throw new ParameterError(
			'Event',
			`"${value}" is not a known event`,
			`Choose one of ${REPORT_EVENTS.map((candidate) => candidate.name).join(', ')}.`,
		);
	}
	return event;
}

function wholeOption(value: unknown, fallback: number, parameter: string, max: number): number {
	if (value === undefined || value === '') return fallback;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 1 || number > max) {
		throw new ParameterError(
			parameter,
			`${String(value)} is not a whole number from 1 to ${max}`,
			`Set ${parameter} to a whole number from 1 to ${max}, or remove the option.`,
		);
	}
	return number;
}

export interface TriggerSettings extends CursorSettings {
	/** Epoch ms of Start From, when set. */
	startFrom?: number;
}

export async function readSettings(context: IPollFunctions): Promise<TriggerSettings> {
	const zone = await dialerTimezone(context);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const overlapMinutes = wholeOption(
		options.overlapWindow,
		DEFAULT_OVERLAP_MINUTES,
		'Overlap Window',
		MAX_OVERLAP_MINUTES,
	);
	return {
		zone,
		overlapMs: overlapMinutes * 60_000,
		maxRows: wholeOption(options.maxRowsPerPoll, DEFAULT_MAX_ROWS, 'Max Rows per Poll', MAX_ROWS),
		emitStatusChanges: options.emitStatusChanges === true,
		startFrom:
			options.startFrom === undefined || options.startFrom === ''
				? undefined
				: parseDateTime(options.startFrom, zone, 'Start From').toMillis(),
	};
}
