import { DateTime } from 'luxon';

import { ParameterError } from './ParameterError';

export const PERIOD_PRESETS = [
	'today',
	'yesterday',
	'last7Days',
	'last30Days',
	'thisWeek',
	'lastWeek',
	'thisMonth',
	'lastMonth',
] as const;

export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export interface DateRange {
	start: DateTime;
	end: DateTime;
}

/** The API's date-time form: 14 digits, local time of the dialer (taken as the workflow's timezone). */
export const API_DATE_TIME_FORMAT = 'yyyyMMddHHmmss';

export function toApiDateTime(value: DateTime): string {
	return value.toFormat(API_DATE_TIME_FORMAT);
}

/** Whole calendar days, weeks (Monday first) and months around `now`, in `now`'s zone. */
export function presetRange(preset: PeriodPreset, now: DateTime): DateRange {
	const today = now.startOf('day');
	switch (preset) {
		case 'today':
			return { start: today, end: today.endOf('day') };
		case 'yesterday': {
			const yesterday = today.minus({ days: 1 });
			return { start: yesterday, end: yesterday.endOf('day') };
		}
		case 'last7Days':
			return { start: today.minus({ days: 6 }), end: today.endOf('day') };
		case 'last30Days':
			return { start: today.minus({ days: 29 }), end: today.endOf('day') };
		case 'thisWeek':
			return { start: now.startOf('week'), end: now.endOf('week') };
		case 'lastWeek': {
			const lastWeek = now.minus({ weeks: 1 });
			return { start: lastWeek.startOf('week'), end: lastWeek.endOf('week') };
		}
		case 'thisMonth':
			return { start: now.startOf('month'), end: now.endOf('month') };
		case 'lastMonth': {
			const lastMonth = now.minus({ months: 1 });
			return { start: lastMonth.startOf('month'), end: lastMonth.endOf('month') };
		}
	}
}

const FOURTEEN_DIGITS = /^\d{14}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function isLuxonLike(value: unknown): value is { toISO(): string | null } {
	// Expressions hand over n8n's own luxon DateTime, which may be another copy of the class.
	return (
		typeof value === 'object' && value !== null && typeof (value as DateTime).toISO === 'function'
	);
}

/**
 * Reads a date picker value or an expression result (ISO string, 14-digit string, luxon DateTime
 * or JS Date) as a moment in `zone`. Values without an offset are wall-clock times in `zone`;
 * values with one are converted to it. A date without time means the start of that day, or its
 * end when `dateOnlyMeans` is 'endOfDay'.
 */
export function parseDateTime(
	value: unknown,
	zone: string,
	parameter: string,
	dateOnlyMeans: 'startOfDay' | 'endOfDay' = 'startOfDay',
): DateTime {
	const fix =
		'Use the date picker, an ISO 8601 value such as 2026-11-21T08:00:00, or 14 digits such as 20261121080000.';
	let parsed: DateTime;
	if (value instanceof Date) {
		parsed = DateTime.fromJSDate(value, { zone });
	} else if (isLuxonLike(value)) {
		parsed = DateTime.fromISO(value.toISO() ?? '', { setZone: true }).setZone(zone);
	} else if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		if (FOURTEEN_DIGITS.test(text)) {
			parsed = DateTime.fromFormat(text, API_DATE_TIME_FORMAT, { zone });
		} else {
			parsed = DateTime.fromISO(text, { zone }).setZone(zone);
			if (parsed.isValid && DATE_ONLY.test(text) && dateOnlyMeans === 'endOfDay') {
				parsed = parsed.endOf('day');
			}
		}
	} else {
		throw new ParameterError(parameter, 'is empty or not a date', fix);
	}
	if (!parsed.isValid) {
		throw new ParameterError(parameter, `"${String(value)}" is not a valid date`, fix);
	}
	if (parsed.year < 1000 || parsed.year > 9999) {
		throw new ParameterError(parameter, `year ${parsed.year} cannot be sent to the dialer`, fix);
	}
	return parsed;
}

export function customRange(start: unknown, end: unknown, zone: string): DateRange {
	const range = {
		start: parseDateTime(start, zone, 'Start'),
		end: parseDateTime(end, zone, 'End', 'endOfDay'),
	};
	if (range.end < range.start) {
		throw new ParameterError(
			'End',
			`${range.end.toISO()} is before Start ${range.start.toISO()}`,
			'Set End to the same moment as Start or later.',
		);
	}
	return range;
}
