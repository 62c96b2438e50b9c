import { DateTime } from 'luxon';

import { fromApiDateTime, readReportTime } from './dialerTime';

/**
 * What users enter, checked and put in the API's text forms (text, IDs, ficha IDs, dates and
 * periods) before any request is sent.
 */

/**
 * A problem with what the user entered, found before any request is sent. Helpers stay free of
 * n8n's execution context by throwing this; `asNodeError` (errors.ts) turns it into a
 * NodeOperationError that names the parameter, points at the item and says how to fix it.
 */
export class ParameterError extends Error {
	constructor(
		readonly parameter: string,
		problem: string,
		readonly fix: string,
	) {
		super(`${parameter}: ${problem}`);
		this.name = 'ParameterError';
	}
}

const WHOLE_NUMBER = /^\d+$/;
const ID_RANGE = /^(\d+)\s*-\s*(\d+)$/;

/** Trimmed text; an empty required value fails here rather than on the server. */
export function requireText(value: unknown, parameter: string, example: string): string {
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (text === '') {
		throw new ParameterError(parameter, 'is empty', `Enter a value, for example ${example}.`);
	}
	return text;
}

/** A positive whole number given as text or number, returned in the API's text form. */
export function requireId(value: unknown, parameter: string): string {
	const text = requireText(value, parameter, '42');
	if (!WHOLE_NUMBER.test(text) || /^0+$/.test(text)) {
		throw new ParameterError(
			parameter,
			`"${text}" is not an ID`,
			'Use a positive whole number, for example 42.',
		);
	}
	return text.replace(/^0+/, '');
}

/**
 * A number parameter's value, read: an expression gives text ("10", from a sheet, a form or an
 * environment variable), which n8n does not convert. Anything else is returned as it is.
 */
export const numberFromText = (value: unknown): unknown =>
	typeof value === 'string' && value.trim() !== '' ? Number(value) : value;

// Node's timers take at most 2^31 - 1 ms (24.8 days): a longer one fires at once.
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Options → Timeout in ms (also as text), at most what timers take; `fallback` when not set. */
export function timeoutOf(value: unknown, fallback: number): number {
	const timeout = Number(value);
	return timeout > 0 ? Math.min(timeout, MAX_TIMEOUT_MS) : fallback;
}

/**
 * A switch (a boolean parameter). An expression gives text ("false" from a sheet or an
 * environment variable), which n8n does not convert and which would otherwise count as on.
 */
export function switchOn(value: unknown, parameter: string): boolean {
	if (typeof value === 'boolean') return value;
	const text = value === undefined || value === null ? '' : String(value).trim().toLowerCase();
	if (text === 'true' || text === 'false' || text === '') return text === 'true';
	throw new ParameterError(
		parameter,
		`"${String(value)}" is neither true nor false`,
		'Switch it on or off, or give an expression that results in true or false.',
	);
}

/**
 * Ficha IDs as the API takes them: comma-separated IDs and hyphen ranges ("10, 12, 20-25").
 * Returned in canonical form ("10,12,20-25") so the request is never malformed.
 */
export function parseFichaIds(value: unknown, parameter = 'Ficha IDs'): string {
	const fix =
		'Use IDs separated by commas, with hyphen ranges where useful, for example ' +
		'1200,1203,1210-1220.';
	const text = requireText(value, parameter, '1200,1203,1210-1220');
	return text
		.split(',')
		.map((part) => {
			const token = part.trim();
			if (token === '') {
				throw new ParameterError(parameter, 'contains an empty entry', fix);
			}
			const range = ID_RANGE.exec(token);
			if (range) {
				const [from, to] = [requireId(range[1], parameter), requireId(range[2], parameter)];
				if (BigInt(from) > BigInt(to)) {
					throw new ParameterError(parameter, `range "${token}" ends before it starts`, fix);
				}
				return `${from}-${to}`;
			}
			if (!WHOLE_NUMBER.test(token)) {
				throw new ParameterError(parameter, `"${token}" is neither an ID nor a range`, fix);
			}
			return requireId(token, parameter);
		})
		.join(',');
}

/** The period presets as the editor offers them; `presetRange` gives each its range. */
export const PERIOD_PRESETS = {
	today: { name: 'Today', description: 'From 00:00:00 to 23:59:59 today' },
	yesterday: { name: 'Yesterday', description: 'The whole of yesterday' },
	last7Days: { name: 'Last 7 Days', description: 'Today and the 6 days before it' },
	last30Days: { name: 'Last 30 Days', description: 'Today and the 29 days before it' },
	thisWeek: {
		name: 'This Week',
		description: 'The calendar week (Monday to Sunday) containing today',
	},
	lastWeek: {
		name: 'Last Week',
		description: 'The calendar week (Monday to Sunday) before this one',
	},
	thisMonth: { name: 'This Month', description: 'The calendar month containing today' },
	lastMonth: { name: 'Last Month', description: 'The calendar month before this one' },
} as const satisfies Record<string, { name: string; description: string }>;

export type PeriodPreset = keyof typeof PERIOD_PRESETS;

export function isPeriodPreset(value: unknown): value is PeriodPreset {
	return typeof value === 'string' && Object.hasOwn(PERIOD_PRESETS, value);
}

export interface DateRange {
	start: DateTime;
	end: DateTime;
}

/**
 * The last moment of the day, week or month holding `at`: 23:59:59.999 of its last day on `at`'s
 * wall clock. Luxon's endOf steps back a millisecond from the next one's midnight, which where
 * clocks go back from 01:00 to 00:00 (Havana, 1 November) can be the second 00:00: October
 * ended at 1 November 00:59:59.
 */
function endOf(at: DateTime, unit: 'day' | 'week' | 'month'): DateTime {
	// The calendar in UTC, where no clock changes.
	const last = DateTime.utc(at.year, at.month, at.day).endOf(unit);
	const { year, month, day } = last;
	return DateTime.fromObject(
		{ year, month, day, hour: 23, minute: 59, second: 59, millisecond: 999 },
		{ zone: at.zone },
	);
}

/** Whole calendar days, weeks (Monday first) and months around `now`, in `now`'s zone. */
export function presetRange(preset: PeriodPreset, now: DateTime): DateRange {
	const today = now.startOf('day');
	// The start of the day `days` before today. Today may start at 01:00 (clocks skipped midnight):
	// the same wall time on the earlier day is not its start.
	const daysBefore = (days: number) => today.minus({ days }).startOf('day');
	switch (preset) {
		case 'today':
			return { start: today, end: endOf(today, 'day') };
		case 'yesterday': {
			const yesterday = daysBefore(1);
			return { start: yesterday, end: endOf(yesterday, 'day') };
		}
		case 'last7Days':
			return { start: daysBefore(6), end: endOf(today, 'day') };
		case 'last30Days':
			return { start: daysBefore(29), end: endOf(today, 'day') };
		case 'thisWeek':
			return { start: now.startOf('week'), end: endOf(now, 'week') };
		case 'lastWeek': {
			const lastWeek = now.minus({ weeks: 1 });
			return { start: lastWeek.startOf('week'), end: endOf(lastWeek, 'week') };
		}
		case 'thisMonth':
			return { start: now.startOf('month'), end: endOf(now, 'month') };
		case 'lastMonth': {
			const lastMonth = now.minus({ months: 1 });
			return { start: lastMonth.startOf('month'), end: endOf(lastMonth, 'month') };
		}
	}
}

const FOURTEEN_DIGITS = /^\d{14}$/;
const DATE_ONLY = /^(\d{4}-?\d{2}-?\d{2}|\d{2}\/\d{2}\/\d{4})$/;

/**
 * Text in ISO 8601 or as the reports write times (so a row's time can start the next read), in
 * `zone` unless it carries an offset.
 */
function fromText(text: string, zone: string): DateTime {
	const iso = DateTime.fromISO(text, { zone });
	if (iso.isValid) return iso.setZone(zone);
	const reported = readReportTime(text);
	if (!reported) return iso;
	const { year, month, day, hour, minute, second } = reported;
	return DateTime.fromObject({ year, month, day, hour, minute, second }, { zone });
}

/** Text, or a number holding the API form or a basic date (a spreadsheet cell, a JSON field). */
function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim();
	const digits = typeof value === 'number' ? String(value) : '';
	return FOURTEEN_DIGITS.test(digits) || /^\d{8}$/.test(digits) ? digits : undefined;
}

function isLuxonLike(value: unknown): value is { toISO(): string | null } {
	// Expressions hand over n8n's own luxon DateTime, which may be another copy of the class.
	return (
		typeof value === 'object' && value !== null && typeof (value as DateTime).toISO === 'function'
	);
}

/**
 * Reads a date picker value or an expression result (ISO string, 14-digit string, a time as the
 * reports write it, luxon DateTime or JS Date) as a moment in `zone`. Values without an offset
 * are wall-clock times in `zone`; values with one are converted to it. A date without time means
 * the start of that day, or its end when `dateOnlyMeans` is 'endOfDay'.
 */
export function parseDateTime(
	value: unknown,
	zone: string,
	parameter: string,
	dateOnlyMeans: 'startOfDay' | 'endOfDay' = 'startOfDay',
): DateTime {
	const fix =
		'Use the date picker, an ISO 8601 value such as 2026-11-21T08:00:00, 14 digits such as ' +
		'20261121080000, or a time as the reports write it, such as 21/11/2026 08:00:00.';
	let parsed: DateTime;
	const text = textOf(value);
	if (value instanceof Date) {
		parsed = DateTime.fromJSDate(value, { zone });
	} else if (isLuxonLike(value)) {
		parsed = DateTime.fromISO(value.toISO() ?? '', { setZone: true }).setZone(zone);
	} else if (text) {
		if (FOURTEEN_DIGITS.test(text)) {
			parsed = fromApiDateTime(text, zone);
		} else {
			parsed = fromText(text, zone);
			if (parsed.isValid && DATE_ONLY.test(text) && dateOnlyMeans === 'endOfDay') {
				parsed = endOf(parsed, 'day');
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
