import {
	digestSecret,
	headerMatchesSecret,
	SecretDigestCache,
} from '../../../nodes/DialerTrigger/verification';

const SECRET = 'k7#Pq9-long-shared-secret';

describe('the X-Webhook-Secret check', () => {
	const expected = digestSecret(SECRET) as Buffer;

	it('accepts the configured secret', () => {
		expect(headerMatchesSecret(SECRET, expected)).toBe(true);
	});

	it('accepts it when the credential has it with surrounding spaces or a line break', () => {
		expect(headerMatchesSecret(SECRET, digestSecret(` ${SECRET}\n`) as Buffer)).toBe(true);
	});

	it('accepts a secret ending in "à", whose last UTF-8 byte Node reads as a no-break space', () => {
		const secret = 'senha-já-à';
		expect(
			headerMatchesSecret(
				Buffer.from(secret, 'utf8').toString('latin1'),
				digestSecret(secret) as Buffer,
			),
		).toBe(true);
	});

	it('accepts a secret with accents, sent as UTF-8 bytes (which Node reads as latin1)', () => {
		const accented = 'senha-ação-çé';
		const asNodeReadsIt = Buffer.from(accented, 'utf8').toString('latin1');
		expect(headerMatchesSecret(asNodeReadsIt, digestSecret(accented) as Buffer)).toBe(true);
		expect(headerMatchesSecret(accented, digestSecret(accented) as Buffer)).toBe(false);
	});

	it.each([
		['a wrong secret of the same length', SECRET.replace('k', 'j')],
		['a shorter secret', SECRET.slice(0, -1)],
		['a longer secret', `${SECRET}x`],
		['the secret in another case', SECRET.toUpperCase()],
		[
			'the secret with spaces around it (HTTP removes them before n8n sees the header)',
			`  ${SECRET} `,
		],
		['the secret followed by a byte that reads as a no-break space', `${SECRET}\u00a0`],
		['the secret followed by a vertical tab', `${SECRET}\u000b`],
		['an empty header', ''],
		['a missing header', undefined],
		['a repeated header', [SECRET, SECRET]],
	])('refuses %s without throwing', (_label, header) => {
		expect(headerMatchesSecret(header, expected)).toBe(false);
	});

	it('compares fixed-size digests, so secret length never decides the path taken', () => {
		expect(expected).toHaveLength(32);
		expect(digestSecret('x'.repeat(10_000))).toHaveLength(32);
	});

	it.each([
		['', ''],
		['blank', '   '],
		['not a string', undefined],
	])('treats a %s credential value as "no secret configured"', (_label, value) => {
		expect(digestSecret(value)).toBeNull();
	});
});

describe('remembering the secret between deliveries', () => {
	let clock: number;
	let stored: string;
	let reads: number;
	const load = async () => {
		reads += 1;
		return stored;
	};
	const newCache = () => new SecretDigestCache(10_000, 1_000, () => clock);

	beforeEach(() => {
		clock = 1_000_000;
		stored = SECRET;
		reads = 0;
	});

	it('reads the credential once for many deliveries within the time limit', async () => {
		const cache = newCache();
		for (let i = 0; i < 50; i++) {
			clock += 100;
			await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe(true);
		}
		expect(reads).toBe(1);
	});

	it('lets concurrent first deliveries share one credential read', async () => {
		const cache = newCache();
		const results = await Promise.all(
			Array.from({ length: 20 }, () => cache.verify('cred-1', SECRET, load)),
		);
		expect(results.every(Boolean)).toBe(true);
		expect(reads).toBe(1);
	});

	it('reads the credential again once the time limit has passed', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		clock += 10_000;
		await cache.verify('cred-1', SECRET, load);
		expect(reads).toBe(2);
	});

	it('accepts a rotated secret within a second: a mismatch re-reads the credential before refusing', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		stored = 'rotated-secret';
		clock += 1_000;
		await expect(cache.verify('cred-1', 'rotated-secret', load)).resolves.toBe(true);
		expect(reads).toBe(2);
	});

	it('re-reads at most once a second however many wrong secrets arrive', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		for (let i = 0; i < 100; i++) {
			clock += 50;
			await expect(cache.verify('cred-1', `guess-${i}`, load)).resolves.toBe(false);
		}
		// 5 s of wrong guesses: the first read, then one re-read per elapsed second
		expect(reads).toBe(1 + 5);
	});

	it('refuses the old secret after rotation within the time limit', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		stored = 'rotated-secret';
		clock += 10_000;
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe(false);
	});

	it('accepts deliveries without the header within a second when the secret is removed', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		stored = '';
		clock += 1_000;
		await expect(cache.verify('cred-1', undefined, load)).resolves.toBe(true);
	});

	it('enforces a newly set secret within the time limit', async () => {
		stored = '';
		const cache = newCache();
		await expect(cache.verify('cred-1', undefined, load)).resolves.toBe(true);
		stored = SECRET;
		clock += 10_000;
		await expect(cache.verify('cred-1', undefined, load)).resolves.toBe(false);
	});

	it('refuses a wrong secret after re-reading, and keeps accepting the right one', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		clock += 1_000;
		await expect(cache.verify('cred-1', 'guess', load)).resolves.toBe(false);
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe(true);
		expect(reads).toBe(2);
	});

	it('keeps credentials apart by ID', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		stored = 'other';
		await expect(cache.verify('cred-2', 'other', load)).resolves.toBe(true);
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe(true);
		expect(reads).toBe(2);
	});

	it('reads the credential every time when n8n gives no credential ID', async () => {
		const cache = newCache();
		await cache.verify(null, SECRET, load);
		await cache.verify(undefined, SECRET, load);
		expect(reads).toBe(2);
	});

	it('does not remember a failed credential read', async () => {
		const cache = newCache();
		const failing = async () => {
			throw new Error('credential not found');
		};
		await expect(cache.verify('cred-1', SECRET, failing)).rejects.toThrow('credential not found');
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe(true);
		expect(reads).toBe(1);
	});
});
