/** The contract's one scheme: the token in `Authorization`, bare or after `Bearer ` / `Basic `. */
import { timingSafeEqual } from 'node:crypto';

export function isAuthorized(header: string | undefined, token: string): boolean {
	if (!header) return false;
	const presented = header.trim().replace(/^(?:Bearer|Basic)\s+/i, '');
	const expected = Buffer.from(token);
	const actual = Buffer.from(presented);
	return actual.length === expected.length && timingSafeEqual(actual, expected);
}
