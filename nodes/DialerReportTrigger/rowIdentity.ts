/**
 * What one new row of a report is, whatever order a read lists rows in.
 *
 * A row with a value in the report's key field (a ficha number, a call's protocol) is that one row
 * for good: listed twice, listed again with another status or under a later time, it is still one
 * row (a change of its status is emitted only when the user asks for it). A row without
 * one is known by the fields fixed when it was written (`identityFields`): rows equal in all of
 * them are copies, counted one by one (two calls from a withheld number through the same route in
 * the same second, answered by the same agent, are two calls), so the trigger remembers how many
 * of each it emitted and never which position a read listed them in.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { RowIdentityRule } from '../shared/reports/rowSource';
import type { RowIdentity } from './newRows';
import { rowInstants, type RowInstants } from '../shared/dialerTime';

/** Text of a decimal number, the way a dialer sending numbers as text writes one. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A field's value as the same text however the dialer sends it: 5, "5" and " 5 " alike; "12.50"
 * and 12.5 alike (trailing zeros after the point name no other number); missing, null and ""
 * alike. Leading zeros stay ("007" is not 7: a code, not a number), and no text is read as a
 * number, so long digit strings (protocols, phone numbers) keep every digit.
 */
export function canonicalValue(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string') return JSON.stringify(value);
	const text = value.trim();
	if (!DECIMAL.test(text) || !text.includes('.')) return text;
	return text.replace(/0+$/, '').replace(/\.$/, '');
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** How a row is remembered: see `RowIdentity`. */
export function rowKeys(
	row: IDataObject,
	rule: RowIdentityRule,
): Pick<RowIdentity, 'key' | 'unique' | 'keylessKey' | 'status'> {
	const keyless = () =>
		digest(JSON.stringify(rule.identityFields.map((field) => canonicalValue(row[field]))));
	// Only text or a number names a row: a dialer sending false or {} for every row has no key.
	const sent = rule.keyField === undefined ? undefined : row[rule.keyField];
	const value = typeof sent === 'string' || typeof sent === 'number' ? canonicalValue(sent) : '';
	if (value === '') return { key: keyless(), unique: false };
	// A digest holds no ':', a key field's key always does: the two never meet. The digest of a
	// row with a key is needed only while that key is new: worked out then.
	// The status is remembered as a short digest: a change is told, whatever the text's length.
	const status =
		rule.statusField === undefined ? '' : digest(canonicalValue(row[rule.statusField])).slice(0, 8);
	return { key: `${rule.keyField}:${value}`, unique: true, keylessKey: keyless, status };
}

/**
 * Identifies the rows of one poll. Rows written in the same second share their time text, so each
 * text is read once; a row read twice (by the look back for late rows and the memory) is
 * identified once.
 */
export function rowIdentifier(
	rule: RowIdentityRule,
	zone: string,
): (row: IDataObject) => RowIdentity {
	const times = new Map<unknown, RowInstants | undefined>();
	const identified = new WeakMap<IDataObject, RowIdentity>();
	return (row) => {
		const known = identified.get(row);
		if (known) return known;
		const text = row[rule.timeField];
		if (!times.has(text)) times.set(text, rowInstants(text, zone));
		const instants = times.get(text);
		const identity = { ...rowKeys(row, rule), time: instants?.earliest, latest: instants?.latest };
		identified.set(row, identity);
		return identity;
	};
}
