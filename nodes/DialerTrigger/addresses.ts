/**
 * The "Allowed Addresses" option: IP addresses and CIDR ranges, IPv4 and IPv6. Every address is
 * read as 128 bits, an IPv4 address as its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so an IPv4
 * range also covers a client n8n sees as ::ffff:a.b.c.d (a dual-stack listener) and the other
 * way round.
 *
 * Written here rather than on Node's `net.BlockList`: n8n's rules for community nodes let node
 * code import only n8n-workflow, crypto, lodash, luxon, moment, p-limit and zod.
 */
import { allowedAddressLists as parsedLists } from '../shared/processCaches';

/** A range: the address bits and how many leading bits must match. */
export interface AddressRange {
	bits: bigint;
	prefix: number;
}

const IPV4_MAPPED = 0xffffn << 32n;

/** An IPv4 address in dotted form (no leading zeros, which some tools read as octal). */
function readIpv4(text: string): bigint | undefined {
	const parts = text.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part)))
		return undefined;
	const bytes = parts.map(Number);
	if (bytes.some((byte) => byte > 255)) return undefined;
	return bytes.reduce((bits, byte) => (bits << 8n) | BigInt(byte), 0n);
}

/** Eight 16-bit groups, `::` once at most, the last 32 bits possibly in dotted IPv4 form. */
function readIpv6(text: string): bigint | undefined {
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groupsOf = (half: string, endsAddress: boolean): number[] | undefined => {
		if (half === '') return [];
		const groups: number[] = [];
		const parts = half.split(':');
		for (const [index, part] of parts.entries()) {
			const last = endsAddress && index === parts.length - 1;
			const ipv4 = last && part.includes('.') ? readIpv4(part) : undefined;
			if (ipv4 !== undefined) groups.push(Number(ipv4 >> 16n), Number(ipv4 & 0xffffn));
			else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(parseInt(part, 16));
			else return undefined;
		}
		return groups;
	};
	const head = groupsOf(halves[0], halves.length === 1);
	const tail = halves.length === 2 ? groupsOf(halves[1], true) : [];
	if (!head || !tail) return undefined;
	const missing = 8 - head.length - tail.length;
	if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
	const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
	return groups.reduce((bits, group) => (bits << 16n) | BigInt(group), 0n);
}

/** An address as 128 bits, and whether it was written as IPv4; undefined when it is neither. */
function readAddress(text: string): { bits: bigint; ipv4: boolean } | undefined {
	const ipv4 = readIpv4(text);
	if (ipv4 !== undefined) return { bits: IPV4_MAPPED | ipv4, ipv4: true };
	const ipv6 = text.includes(':') ? readIpv6(text) : undefined;
	return ipv6 === undefined ? undefined : { bits: ipv6, ipv4: false };
}

/** One entry: `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32`, `::1`. */
function readRange(entry: string): AddressRange | undefined {
	const [address, prefixText, ...rest] = entry.split('/');
	const read = rest.length === 0 ? readAddress(address) : undefined;
	if (!read) return undefined;
	const width = read.ipv4 ? 32 : 128;
	if (prefixText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return undefined;
	const prefix = prefixText === undefined ? width : Number(prefixText);
	if (prefix > width) return undefined;
	return { bits: read.bits, prefix: read.ipv4 ? 96 + prefix : prefix };
}

/**
 * Reads the option's text: entries separated by commas, spaces or line breaks. An empty text
 * means "any address" (undefined). Throws naming the entry's position, not its text, so the
 * list never shows up in n8n's logs.
 */
export function parseAllowedAddresses(text: string): readonly AddressRange[] | undefined {
	const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
	if (entries.length === 0) return undefined;
	return entries.map((entry, index) => {
		const range = readRange(entry);
		if (!range)
			throw new Error(
				`Entry ${index + 1} of Allowed Addresses is not an IP address or CIDR range: use e.g. ` +
					'203.0.113.7, 203.0.113.0/24, 2001:db8::/32',
			);
		return range;
	});
}

/**
 * Whether the client address n8n reports (`req.ip`: `203.0.113.7`, `::ffff:203.0.113.7`,
 * `::1`, `fe80::1%eth0`) lies in one of the ranges. An address n8n cannot tell is never allowed.
 */
export function isAddressAllowed(client: unknown, ranges: readonly AddressRange[]): boolean {
	if (typeof client !== 'string') return false;
	const read = readAddress(client.replace(/%.*$/, ''));
	if (!read) return false;
	return ranges.some(({ bits, prefix }) => {
		const shift = BigInt(128 - prefix);
		return read.bits >> shift === bits >> shift;
	});
}

/**
 * `parseAllowedAddresses`, remembered by text (processCaches.ts, allowedAddressLists): a flood
 * of deliveries reads the option each time but parses it once. Lists that do not parse are not
 * remembered (they throw every time).
 */
export function allowedRanges(text: string): readonly AddressRange[] | undefined {
	if (parsedLists.has(text)) return parsedLists.get(text);
	const ranges = parseAllowedAddresses(text);
	// A workflow's list changes rarely; the bound only guards against an expression per delivery.
	if (parsedLists.size >= 100) parsedLists.clear();
	parsedLists.set(text, ranges);
	return ranges;
}
