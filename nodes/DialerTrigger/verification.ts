import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

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
 * The digests of the credential's secrets: the current one and, during a rotation, the previous
 * one. Empty when neither is set ("no secret configured").
 */
export type SecretDigests = readonly Buffer[];

/** The Webhook Secret and Previous Webhook Secret of a credential, blank ones left out. */
export function digestSecrets(current: unknown, previous: unknown): SecretDigests {
	return [digestSecret(current), digestSecret(previous)].filter(
		(digest): digest is Buffer => digest !== null,
	);
}

// Fills an unused slot: no header hashes to 32 random bytes, and a comparison still runs.
const NO_SECRET = randomBytes(32);

/**
 * Whether the X-Webhook-Secret header carries one of the configured secrets. The header is
 * hashed once and compared with two 32-byte digests in constant time, always both slots (an
 * unused one holds random bytes), so neither the secrets' length, nor the position of the first
 * differing character, nor which of the two matched shows in the timing.
 * Node decodes header bytes as latin1; encoding them back as latin1 recovers the bytes sent,
 * so a secret with accents (UTF-8 on the wire) matches the credential's UTF-8 bytes. The header
 * is not trimmed: HTTP already removed the spaces and tabs around it, and trimming more would
 * take bytes that belong to the secret (0xA0 reads as a no-break space and ends the UTF-8 of
 * "à") and accept a secret padded with them.
 */
export function headerMatchesSecrets(header: unknown, digests: SecretDigests): boolean {
	const received = typeof header === 'string' ? header : '';
	const digest = createHash('sha256').update(received, 'latin1').digest();
	let matched = false;
	for (const slot of [digests[0] ?? NO_SECRET, digests[1] ?? NO_SECRET])
		matched = timingSafeEqual(digest, slot) || matched;
	return matched;
}

/** What a delivery's header amounts to: a configured secret, none configured, or refused. */
export type SecretCheck = 'accepted' | 'noSecret' | 'refused';

interface CachedDigests {
	loadedAt: number;
	digests: Promise<SecretDigests>;
}

/**
 * Keeps the secrets' digests in memory (never in workflow static data, which n8n saves to its
 * database), keyed by credential ID: by default in processCaches.ts, which says what a read
 * costs. n8n tells a node neither when a credential changed nor its
 * update time, so an entry lives `ttlMs` at most, and a delivery that does not match a cached
 * digest re-reads the credential before it is refused (at most once per `recheckMs`, so a
 * flood of wrong secrets cannot make every request pay for a read): a new secret works
 * within `recheckMs`, an old or removed one stops working within `ttlMs`.
 */
export class SecretDigestCache {
	constructor(
		private readonly ttlMs: number,
		private readonly recheckMs: number,
		private readonly now: () => number = () => Date.now(),
		private readonly entries: Map<string, CachedDigests> = new Map(),
	) {}

	/** Whether the header carries a configured secret; `loadSecrets` reads the credential's. */
	async verify(
		credentialId: string | null | undefined,
		header: unknown,
		loadSecrets: () => Promise<SecretDigests>,
	): Promise<SecretCheck> {
		if (!credentialId) return check(header, await loadSecrets());

		const cached = this.entries.get(credentialId);
		const age = cached ? this.now() - cached.loadedAt : Infinity;
		if (cached && age < this.ttlMs) {
			const outcome = check(header, await cached.digests);
			if (outcome !== 'refused' || age < this.recheckMs) return outcome;
		}
		return check(header, await this.load(credentialId, loadSecrets));
	}

	/** Concurrent deliveries share one credential read instead of each paying for it. */
	private async load(
		credentialId: string,
		loadSecrets: () => Promise<SecretDigests>,
	): Promise<SecretDigests> {
		const entry: CachedDigests = { loadedAt: this.now(), digests: loadSecrets() };
		this.entries.set(credentialId, entry);
		// A failed read is not remembered: the next delivery tries again.
		entry.digests.catch(() => {
			if (this.entries.get(credentialId) === entry) this.entries.delete(credentialId);
		});
		return await entry.digests;
	}
}

function check(header: unknown, digests: SecretDigests): SecretCheck {
	if (digests.length === 0) return 'noSecret';
	return headerMatchesSecrets(header, digests) ? 'accepted' : 'refused';
}
