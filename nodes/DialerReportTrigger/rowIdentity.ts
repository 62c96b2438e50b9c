import { createHash } from 'crypto';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { RowIdentity } from './cursor';

/** How each report's rows are told apart and dated. */
export interface RowIdentityRule {
	/**
	 * Field whose value identifies the row for good (ficha number, call protocol), if the report has
	 * one.
	 */
	keyField?: string;
	/**
	 * Fields that tell the row apart when it has no key field: those fixed when the row is written
	 * (not a result classified later, nor the range of the read). All fields when not given.
	 */
	digestFields?: string[];
	/** Field holding the time the row carries. */
	timeField: string;
}

// getFP1, getRQ4 and getRE2 write dd/mm/yyyy hh:mm[:ss]; getHC2 writes yyyy-mm-dd hh:mm:ss. Read
// with a regular expression rather than luxon's fromFormat, which costs about 30 µs a row: a
// third of a second for a poll of 10,000 rows.
const DAY_FIRST = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?$/;
const YEAR_FIRST = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function wallClockParts(text: string) {
	const dayFirst = DAY_FIRST.exec(text);
	if (dayFirst) {
		const [, day, month, year, hour, minute, second = '0'] = dayFirst;
		return { year, month, day, hour, minute, second };
	}
	const yearFirst = YEAR_FIRST.exec(text);
	if (yearFirst) {
		const [, year, month, day, hour, minute, second] = yearFirst;
		return { year, month, day, hour, minute, second };
	}
	return undefined;
}

/**
 * The row's time as an instant, its text read as wall-clock time in `zone`; undefined when
 * unreadable.
 */
export function rowTime(value: unknown, zone: string): number | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	const parts = wallClockParts(text);
	const parsed = parts
		? DateTime.fromObject(
				{
					year: Number(parts.year),
					month: Number(parts.month),
					day: Number(parts.day),
					hour: Number(parts.hour),
					minute: Number(parts.minute),
					second: Number(parts.second),
				},
				{ zone },
			)
		: DateTime.fromISO(text, { zone });
	return parsed.isValid ? parsed.toMillis() : undefined;
}

/**
 * JSON with object keys in a fixed order, so equal rows give equal text whatever their key order.
 */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * A key that stays the same for the same row in every read: the key field's value when the row
 * has one, otherwise a SHA-256 digest of its identifying fields (so two rows equal in all of them
 * count as one).
 */
export function rowKey(row: IDataObject, rule: RowIdentityRule): string {
	const value = rule.keyField === undefined ? undefined : row[rule.keyField];
	if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') {
		return `${rule.keyField}:${String(value).trim()}`;
	}
	const stable: IDataObject = {};
	for (const field of rule.digestFields ?? Object.keys(row)) stable[field] = row[field] ?? null;
	const digest = createHash('sha256').update(canonicalJson(stable)).digest('base64url');
	return `sha256:${digest.slice(0, 22)}`;
}

/**
 * Identifies the rows of one poll. Rows written in the same second share their time text, so each
 * text is read once.
 */
export function rowIdentifier(
	rule: RowIdentityRule,
	zone: string,
): (row: IDataObject) => RowIdentity {
	const times = new Map<unknown, number | undefined>();
	return (row) => {
		const text = row[rule.timeField];
		if (!times.has(text)) times.set(text, rowTime(text, zone));
		return { key: rowKey(row, rule), time: times.get(text) };
	};
}
