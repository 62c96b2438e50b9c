import {
	allowedRanges,
	isAddressAllowed,
	parseAllowedAddresses,
} from '../../../nodes/DialerTrigger/addresses';

/** Whether `client` may deliver under the option text `list`. */
const allows = (list: string, client: string) =>
	isAddressAllowed(client, parseAllowedAddresses(list) ?? []);

describe('Allowed Addresses: IPv4', () => {
	it.each([
		['203.0.113.7', '203.0.113.7', true],
		['203.0.113.7', '203.0.113.8', false],
		['203.0.113.0/24', '203.0.113.255', true],
		['203.0.113.0/24', '203.0.114.0', false],
		['10.0.0.0/8', '10.255.255.255', true],
		['10.0.0.0/8', '11.0.0.0', false],
		['192.168.1.128/25', '192.168.1.127', false],
		['192.168.1.128/25', '192.168.1.200', true],
		['0.0.0.0/0', '198.51.100.1', true],
		['203.0.113.7/32', '203.0.113.7', true],
		// host bits set in the entry: the range is its network
		['203.0.113.77/24', '203.0.113.1', true],
	])('%s lets %s in: %s', (list, client, expected) => {
		expect(allows(list, client)).toBe(expected);
	});

	it('matches an IPv4 range against the IPv4-mapped IPv6 form a dual-stack n8n reports', () => {
		expect(allows('203.0.113.0/24', '::ffff:203.0.113.9')).toBe(true);
		expect(allows('203.0.113.0/24', '::FFFF:203.0.114.9')).toBe(false);
		expect(allows('127.0.0.1', '::ffff:7f00:1')).toBe(true);
	});

	it('does not let an IPv4 range cover IPv6 addresses outside the mapped block', () => {
		expect(allows('0.0.0.0/0', '::1')).toBe(false);
		expect(allows('0.0.0.0/0', '2001:db8::1')).toBe(false);
		expect(allows('0.0.0.0/0', '::203.0.113.9')).toBe(false);
	});
});

describe('Allowed Addresses: IPv6', () => {
	it.each([
		['2001:db8::/32', '2001:db8:ffff::1', true],
		['2001:db8::/32', '2001:db9::1', false],
		['2001:db8::1', '2001:0db8:0000:0000:0000:0000:0000:0001', true],
		['2001:DB8::1', '2001:db8::1', true],
		['::1', '::1', true],
		['::1', '::2', false],
		['fe80::/10', 'febf::1', true],
		['fe80::/10', 'fec0::1', false],
		['::/0', '2001:db8::1', true],
		['2001:db8:0:0:1::/80', '2001:db8:0:0:1:ffff::1', true],
		['2001:db8:0:0:1::/80', '2001:db8::1:0:0', false],
	])('%s lets %s in: %s', (list, client, expected) => {
		expect(allows(list, client)).toBe(expected);
	});

	it('reads an IPv4-mapped IPv6 range as covering those IPv4 clients', () => {
		expect(allows('::ffff:203.0.113.0/120', '203.0.113.4')).toBe(true);
		expect(allows('::ffff:203.0.113.0/120', '203.0.112.4')).toBe(false);
		expect(allows('::ffff:0:0/96', '198.51.100.1')).toBe(true);
	});

	it('ignores the zone of a link-local client address', () => {
		expect(allows('fe80::/10', 'fe80::1%eth0')).toBe(true);
	});
});

describe('the option text', () => {
	it('takes commas, spaces and line breaks between entries', () => {
		const list = '203.0.113.7,198.51.100.0/24\n2001:db8::/32  ::1';
		expect(parseAllowedAddresses(list)).toHaveLength(4);
		expect(allows(list, '198.51.100.4')).toBe(true);
		expect(allows(list, '::1')).toBe(true);
		expect(allows(list, '192.0.2.1')).toBe(false);
	});

	it.each(['', '  ', ' , \n'])('means any address when empty (%j)', (text) => {
		expect(parseAllowedAddresses(text)).toBeUndefined();
	});

	it.each([
		'198.51.100',
		'203.0.113.256',
		'203.0.113.07',
		'203.0.113.7/33',
		'2001:db8::/129',
		'203.0.113.7/',
		'203.0.113.7/24/1',
		'203.0.113.7/-1',
		'2001:db8:::1',
		'2001:db8::1::2',
		'1:2:3:4:5:6:7:8:9',
		'1:2:3:4:5:6:7',
		'1:2:3:4:5:6:7:8::',
		'1.2.3.4::1',
		'2001:db8::g',
		'fe80::1%eth0',
		'dialer.example.com',
		'*',
	])('refuses %j, naming its position but not its text', (entry) => {
		const call = () => parseAllowedAddresses(`198.51.100.1, ${entry}`);
		expect(call).toThrow('Entry 2 of Allowed Addresses is not an IP address or CIDR range');
		expect(() => call()).not.toThrow(entry);
	});

	it('accepts the full IPv6 forms: eight groups, :: anywhere, trailing dotted IPv4', () => {
		for (const entry of ['1:2:3:4:5:6:7:8', '::', '1::', '::8', '1:2:3:4:5:6:1.2.3.4', '::1.2.3.4'])
			expect(parseAllowedAddresses(entry)).toHaveLength(1);
	});
});

describe('a client address n8n cannot tell', () => {
	it.each([undefined, '', 'unknown', 42])('is never allowed (%j)', (client) => {
		expect(isAddressAllowed(client, parseAllowedAddresses('0.0.0.0/0, ::/0') ?? [])).toBe(false);
	});
});

describe('remembering a parsed list', () => {
	it('gives the same ranges for the same text, and still refuses a bad text every time', () => {
		expect(allowedRanges('203.0.113.7')).toBe(allowedRanges('203.0.113.7'));
		expect(() => allowedRanges('nope')).toThrow('Entry 1');
		expect(() => allowedRanges('nope')).toThrow('Entry 1');
	});
});
