import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a secret; `null` stands for "no secret configured". */
export type SecretDigest = Buffer | null;

/**
 * HTTP strips spaces and tabs around header values, so a secret pasted into the credential with
 * stray spaces could never match; trimming it keeps it comparable. Blank means "no secret".
 */
export function digestSecret(secret: unknown): SecretDigest {
	const text = typeof secret === 'string' ? secret.trim() : '';
	return text === '' ? null : createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Whether the X-Webhook-Secret header carries the configured secret. Both sides are hashed
 * first, so the comparison always runs over 32 bytes in constant time: neither the secret's
 * length nor the position of the first differing character shows in the timing.
 * Node decodes header bytes as latin1; encoding them back as latin1 recovers the bytes sent,
 * so a secret with accents (UTF-8 on the wire) matches the credential's UTF-8 bytes. The header
 * is not trimmed: HTTP already removed the spaces and tabs around it, and trimming more would
 * take bytes that belong to the secret (0xA0 reads as a no-break space and ends the UTF-8 of
 * "à") and accept a secret padded with them.
 */
export function headerMatchesSecret(header: unknown, expected: Buffer): boolean {
	const received = typeof header === 'string' ? header : '';
	return timingSafeEqual(createHash('sha256').update(received, 'latin1').digest(), expected);
}

interface CachedDigest {
	loadedAt: number;
	digest: Promise<SecretDigest>;
}

/**
 * Keeps the secret's digest in memory (never in workflow static data, which n8n saves to its
 * database), keyed by credential ID, because reading the credential costs n8n's main thread
 * about 20 ms per delivery. n8n tells a node neither when a credential changed nor its
 * update time, so an entry lives `ttlMs` at most, and a delivery that does not match a cached
 * digest re-reads the credential before it is refused (at most once per `recheckMs`, so a
 * flood of wrong secrets cannot make every request pay for a read): a new secret works
 * within `recheckMs`, an old or removed one stops working within `ttlMs`.
 */
export class SecretDigestCache {
	private readonly entries = new Map<string, CachedDigest>();

	constructor(
		private readonly ttlMs: number,
		private readonly recheckMs: number,
		private readonly now: () => number = Date.now,
	) {}

	/** Whether the header is accepted: no secret configured, or the header matches it. */
	async verify(
		credentialId: string | null | undefined,
		header: unknown,
		loadSecret: () => Promise<unknown>,
	): Promise<boolean> {
		if (!credentialId) return matches(header, digestSecret(await loadSecret()));

		const cached = this.entries.get(credentialId);
		const age = cached ? this.now() - cached.loadedAt : Infinity;
		if (cached && age < this.ttlMs) {
			if (matches(header, await cached.digest)) return true;
			if (age < this.recheckMs) return false;
		}
		return matches(header, await this.load(credentialId, loadSecret));
	}

	/** Concurrent deliveries share one credential read instead of each paying for it. */
	private async load(
		credentialId: string,
		loadSecret: () => Promise<unknown>,
	): Promise<SecretDigest> {
		const entry: CachedDigest = {
			loadedAt: this.now(),
			digest: loadSecret().then(digestSecret),
		};
		this.entries.set(credentialId, entry);
		// A failed read is not remembered: the next delivery tries again.
		entry.digest.catch(() => {
			if (this.entries.get(credentialId) === entry) this.entries.delete(credentialId);
		});
		return await entry.digest;
	}
}

function matches(header: unknown, expected: SecretDigest): boolean {
	return expected === null || headerMatchesSecret(header, expected);
}
