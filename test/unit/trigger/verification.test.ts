import {
	digestSecret,
	digestSecrets,
	headerMatchesSecrets,
	SecretDigestCache,
} from '../../../nodes/DialerTrigger/verification';

const SECRET = 'k7#Pq9-long-shared-secret';

/** Whether the header carries `secret` (the credential's only secret). */
const headerMatchesSecret = (header: unknown, secret: Buffer) =>
	headerMatchesSecrets(header, [secret]);

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

describe('a rotation: the current and the previous secret', () => {
	const OLD = 'old-secret-of-the-console';
	const NEW = 'new-secret-0123456789';

	it('accepts either while both are set', () => {
		const both = digestSecrets(NEW, OLD);
		expect(headerMatchesSecrets(NEW, both)).toBe(true);
		expect(headerMatchesSecrets(OLD, both)).toBe(true);
		expect(headerMatchesSecrets(`${NEW}x`, both)).toBe(false);
		expect(headerMatchesSecrets(undefined, both)).toBe(false);
	});

	it('accepts the previous one alone, and nothing else, when only it is set', () => {
		const previousOnly = digestSecrets('', OLD);
		expect(headerMatchesSecrets(OLD, previousOnly)).toBe(true);
		expect(headerMatchesSecrets('', previousOnly)).toBe(false);
	});

	it('counts blank fields as not set: no secret at all is an empty list', () => {
		expect(digestSecrets(' ', undefined)).toEqual([]);
		expect(digestSecrets(NEW, '')).toHaveLength(1);
	});
});

describe('remembering the secret between deliveries', () => {
	let clock: number;
	let stored: string;
	let reads: number;
	const load = async () => {
		reads += 1;
		return digestSecrets(stored, '');
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
			await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe('accepted');
		}
		expect(reads).toBe(1);
	});

	it('lets concurrent first deliveries share one credential read', async () => {
		const cache = newCache();
		const results = await Promise.all(
			Array.from({ length: 20 }, () => cache.verify('cred-1', SECRET, load)),
		);
		expect(results.every((result) => result === 'accepted')).toBe(true);
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
		await expect(cache.verify('cred-1', 'rotated-secret', load)).resolves.toBe('accepted');
		expect(reads).toBe(2);
	});

	it('re-reads at most once a second however many wrong secrets arrive', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		for (let i = 0; i < 100; i++) {
			clock += 50;
			await expect(cache.verify('cred-1', `guess-${i}`, load)).resolves.toBe('refused');
		}
		// 5 s of wrong guesses: the first read, then one re-read per elapsed second
		expect(reads).toBe(1 + 5);
	});

	it('refuses the old secret after rotation within the time limit', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		stored = 'rotated-secret';
		clock += 10_000;
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe('refused');
	});

	it('says "no secret" within a second when the secret is removed', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		stored = '';
		clock += 1_000;
		await expect(cache.verify('cred-1', undefined, load)).resolves.toBe('noSecret');
	});

	it('enforces a newly set secret within the time limit', async () => {
		stored = '';
		const cache = newCache();
		await expect(cache.verify('cred-1', undefined, load)).resolves.toBe('noSecret');
		stored = SECRET;
		clock += 10_000;
		await expect(cache.verify('cred-1', undefined, load)).resolves.toBe('refused');
	});

	it('refuses a wrong secret after re-reading, and keeps accepting the right one', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		clock += 1_000;
		await expect(cache.verify('cred-1', 'guess', load)).resolves.toBe('refused');
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe('accepted');
		expect(reads).toBe(2);
	});

	it('accepts the old secret throughout a rotation, and the new one within a second', async () => {
		let previous = '';
		const loadBoth = async () => {
			reads += 1;
			return digestSecrets(stored, previous);
		};
		const cache = newCache();
		await cache.verify('cred-1', SECRET, loadBoth);
		// step 1: the credential gets the new secret, the old one as previous
		stored = 'new-secret';
		previous = SECRET;
		clock += 1_000;
		await expect(cache.verify('cred-1', SECRET, loadBoth)).resolves.toBe('accepted');
		await expect(cache.verify('cred-1', 'new-secret', loadBoth)).resolves.toBe('accepted');
		// step 3: the previous one is cleared; it stops within the time limit
		previous = '';
		clock += 10_000;
		await expect(cache.verify('cred-1', SECRET, loadBoth)).resolves.toBe('refused');
		await expect(cache.verify('cred-1', 'new-secret', loadBoth)).resolves.toBe('accepted');
	});

	it('keeps credentials apart by ID', async () => {
		const cache = newCache();
		await cache.verify('cred-1', SECRET, load);
		stored = 'other';
		await expect(cache.verify('cred-2', 'other', load)).resolves.toBe('accepted');
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe('accepted');
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
		await expect(cache.verify('cred-1', SECRET, load)).resolves.toBe('accepted');
		expect(reads).toBe(1);
	});
});
