/**
 * The Dialer Trigger against generated deliveries: any body, any X-Webhook-Secret header. Each
 * test counts what it tried, so the reliability figures of docs/reliability.md can be read off the output.
 */
import fc from 'fast-check';
import type * as NodeCrypto from 'node:crypto';

import { digestSecret, headerMatchesSecrets } from '../../../nodes/DialerTrigger/verification';
import {
	asReceived,
	eventJson,
	eventLike,
	junk,
	readAgentEvent,
} from '../../support/generatedDeliveries';
import { ALL_EVENTS, fakeWebhookFunctions, login, startedItems } from '../support/webhookFunctions';
import { propertyRuns } from '../support/propertyRuns';

// The same module object the node's code gets: spies on it see the node's own calls.
const crypto = jest.requireActual<typeof NodeCrypto>('node:crypto');
const realCreateHash = crypto.createHash;
const realTimingSafeEqual = crypto.timingSafeEqual;

const MEGABYTE = 1024 * 1024;

/** A delivery answers exactly once, with one of the statuses the contract allows and a JSON body. */
function expectOneJsonAnswer(
	written: { status?: number; body?: unknown },
	writeCount: () => number,
	statuses: number[],
) {
	expect(writeCount()).toBe(1);
	expect(statuses).toContain(written.status);
	expect(JSON.parse(JSON.stringify(written.body))).toEqual(written.body);
}

describe('any body with the right secret (property-based)', () => {
	const anyBody = fc.oneof(
		{ weight: 10, arbitrary: eventLike },
		{ weight: 2, arbitrary: junk },
		// bodies n8n did not parse: text, JSON text, truncated JSON, bytes
		eventJson,
		fc.tuple(eventJson, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
		fc.oneof(eventJson, fc.string()).map((text) => Buffer.from(text)),
		fc.uint8Array().map((bytes) => Buffer.from(bytes)),
		fc.array(eventLike, { maxLength: 3 }),
		fc.constantFrom<unknown>(
			undefined,
			null,
			'',
			{},
			[],
			Buffer.alloc(0),
			JSON.parse('{"__proto__":{"evento":"agente.login"}}'),
		),
	);
	const agentIds = fc.oneof(
		fc.constant<number[]>([]),
		fc.uniqueArray(fc.nat({ max: 5 }), { minLength: 1, maxLength: 4 }),
	);

	it('never throws, answers every delivery once, and starts the workflow only for a valid, selected event with its fields unchanged', async () => {
		const bodyRuns = propertyRuns(1_000);
		const tally = { tried: 0, started: 0, ignored: 0, refused: 0 };
		await fc.assert(
			fc.asyncProperty(
				anyBody,
				fc.subarray([...ALL_EVENTS]),
				agentIds,
				async (body, events, agents) => {
					const options = { agentIds: agents.join(', ') };
					const { call, written, writeCount } = fakeWebhookFunctions({
						body,
						events,
						options,
						credentialId: 'cred-bodies',
					});
					const fieldsBefore =
						typeof body === 'object' && body !== null ? Object.entries(body) : [];
					const unchanged = (fields: Array<[string, unknown]>) =>
						fields.length === fieldsBefore.length &&
						fields.every(
							([key, value], i) =>
								key === fieldsBefore[i][0] && Object.is(value, fieldsBefore[i][1]),
						);
					const result = await call();
					tally.tried += 1;

					const read = readAgentEvent(body);
					const valid = read !== undefined;
					const wanted =
						valid &&
						events.includes(read.evento as string) &&
						(agents.length === 0 || agents.includes(read.usuario_id as number));
					expectOneJsonAnswer(written, writeCount, [valid ? 200 : 400]);
					expect(result.noWebhookResponse).toBe(true);
					if (!wanted) {
						expect(result.workflowData).toBeUndefined();
						tally[valid ? 'ignored' : 'refused'] += 1;
						return;
					}
					tally.started += 1;
					const [item, ...more] = startedItems(result);
					expect(more).toEqual([]);
					// the body itself left as it was; every field as sent, the very same value, except
					// the contract's numbers sent as text, which arrive as numbers
					expect(unchanged(Object.entries(body))).toBe(true);
					for (const [key, value] of Object.entries(read)) expect(item[key]).toBe(value);
					expect(Object.keys(item)).toEqual(expect.arrayContaining(Object.keys(body)));
					// the readable names, unless the delivery has fields of that name (they win)
					const readable = { event: 'evento', state: 'estado', agentId: 'usuario_id' };
					for (const [name, source] of Object.entries(readable)) {
						if (!Object.hasOwn(body, name)) expect(item[name]).toBe(read[source]);
					}
				},
			),
			{ numRuns: bodyRuns },
		);
		console.log(
			`generated bodies: ${tally.tried} tried, ${tally.started} started the workflow, ` +
				`${tally.ignored} valid but not selected (200), ${tally.refused} refused (400)`,
		);
		expect(tally.tried).toBe(bodyRuns);
		// the generator reaches every outcome, not only refusals (about 5 % start the workflow)
		expect(Math.min(tally.started, tally.ignored, tally.refused)).toBeGreaterThan(bodyRuns / 100);
	});
});

describe('any wrong X-Webhook-Secret (property-based)', () => {
	const secretText = fc
		.oneof(
			fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme-ascii' }),
			fc.string({ minLength: 1, maxLength: 32, unit: 'grapheme' }),
			fc.constant('k7#Pq9-long-shared-secret-ação-😀'),
		)
		.filter((secret) => secret.trim() !== '');

	const pad = fc.constantFrom(
		'\0',
		' ',
		'\t',
		'\u00a0',
		'\u000b',
		'\u000c',
		'\ufeff',
		'\u2028',
		'\u0085',
		'\r\n',
		'x',
		'\u00ff',
	);
	const flipCase = (text: string, at: number) =>
		text.slice(0, at) +
		(text[at] === text[at].toUpperCase() ? text[at].toLowerCase() : text[at].toUpperCase()) +
		text.slice(at + 1);

	/** A header made from the configured secret: its kind, and the value n8n would see. */
	interface Case {
		kind: string;
		header: unknown;
	}
	const make = (kind: string, header: unknown): Case => ({ kind, header });
	const wrongHeader = (secret: string): fc.Arbitrary<Case> =>
		fc.oneof(
			fc.string({ unit: 'binary' }).map((other) => make('wrong', asReceived(other))),
			fc
				.constantFrom<unknown>(undefined, null, '', ' ', 0, {})
				.map((none) => make('missing', none)),
			fc.nat().map((cut) => make('truncated', asReceived(secret.slice(0, cut % secret.length)))),
			fc.nat().map((cut) => make('truncated', asReceived(secret.slice(1 + (cut % secret.length))))),
			fc
				.tuple(pad, fc.integer({ min: 1, max: 4 }), fc.constantFrom('start', 'end', 'both'))
				.map(([char, count, where]) => {
					const padding = char.repeat(count);
					const padded = `${where === 'end' ? '' : padding}${secret}${where === 'start' ? '' : padding}`;
					return make('padded', asReceived(padded));
				}),
			fc
				.constantFrom(
					(text: string) => text.toUpperCase(),
					(text: string) => text.toLowerCase(),
				)
				.map((change) => make('case', asReceived(change(secret)))),
			fc.nat().map((at) => make('case', asReceived(flipCase(secret, at % secret.length)))),
			fc
				.constantFrom(
					(text: string) => text.repeat(Math.ceil(MEGABYTE / text.length)),
					(text: string) => text + 'a'.repeat(MEGABYTE),
					(text: string) => 'a'.repeat(MEGABYTE) + text,
				)
				.map((lengthen) => make('long', asReceived(lengthen(secret)))),
			// multi-byte: the secret as a JS string rather than the bytes on the wire, one character
			// swapped for an accented one, or the wire form encoded twice
			fc.constant(make('multi-byte', secret)),
			fc
				.nat()
				.map((at) =>
					make(
						'multi-byte',
						asReceived(
							secret.slice(0, at % secret.length) + 'é' + secret.slice((at % secret.length) + 1),
						),
					),
				),
			fc.constant(make('multi-byte', asReceived(asReceived(secret)))),
			fc
				.constantFrom(
					(right: string) => [right],
					(right: string) => [right, right],
					(right: string) => ['guess', right],
				)
				.map((list) => make('array', list(asReceived(secret)))),
		);

	/** Whether the header is byte for byte the configured secret, as HTTP would carry it (one byte per character). */
	const isTheSecret = (header: unknown, secret: string) =>
		typeof header === 'string' &&
		Buffer.from(header, 'latin1').toString('latin1') === header &&
		Buffer.from(header, 'latin1').equals(Buffer.from(secret.trim(), 'utf8'));

	it('answers 401 to every generated wrong, missing, truncated, padded, case-changed, long, multi-byte or repeated secret, and starts nothing', async () => {
		const secretRuns = propertyRuns(500);
		const tried: Record<string, number> = {};
		let accepted = 0;
		await fc.assert(
			fc.asyncProperty(
				secretText.chain((secret) => fc.tuple(fc.constant(secret), wrongHeader(secret))),
				async ([secret, { kind, header }]) => {
					const { call, written, writeCount, getBodyData } = fakeWebhookFunctions({
						body: login,
						secret,
						headers: { 'x-webhook-secret': header },
					});
					const result = await call();
					if (isTheSecret(header, secret)) {
						// a mutation that happens to leave the secret as it was (e.g. upper case of "123")
						accepted += 1;
						expect(written.status).toBe(200);
						return;
					}
					tried[kind] = (tried[kind] ?? 0) + 1;
					expectOneJsonAnswer(written, writeCount, [401]);
					expect(result).toEqual({ noWebhookResponse: true });
					expect(getBodyData).not.toHaveBeenCalled();
				},
			),
			{ numRuns: secretRuns },
		);
		const total = Object.values(tried).reduce((sum, count) => sum + count, 0);
		console.log(
			`generated wrong secrets: ${total} answered 401 (${Object.entries(tried)
				.map(([kind, count]) => `${kind} ${count}`)
				.join(', ')}); ${accepted} generated headers were the secret itself and were accepted`,
		);
		expect(total).toBeGreaterThanOrEqual(secretRuns / 2);
		expect(Object.keys(tried).sort()).toEqual(
			['array', 'case', 'long', 'missing', 'multi-byte', 'padded', 'truncated', 'wrong'].sort(),
		);
	});

	it('accepts the exact secret as the dialer sends it, for every generated secret', async () => {
		await fc.assert(
			fc.asyncProperty(secretText, async (secret) => {
				const { call, written } = fakeWebhookFunctions({
					body: login,
					secret,
					headers: { 'x-webhook-secret': asReceived(secret.trim()) },
				});
				expect(startedItems(await call())).toHaveLength(1);
				expect(written.status).toBe(200);
			}),
			{ numRuns: propertyRuns(200) },
		);
	});
});

describe('the secret comparison takes the same path whatever the header holds', () => {
	const SECRET = 'k7#Pq9-long-shared-secret-0123456789abcdefghijklmnopqrstuvwxyzAB';
	const expected = [digestSecret(SECRET) as Buffer];
	const firstByteWrong = `X${SECRET.slice(1)}`;
	const lastByteWrong = `${SECRET.slice(0, -1)}X`;

	/** Every call the check makes to node:crypto, with the sizes it passes. */
	function cryptoCalls(check: () => void): string[] {
		const calls: string[] = [];
		const createHash = jest.spyOn(crypto, 'createHash').mockImplementation((algorithm, options) => {
			const hash = realCreateHash(algorithm, options);
			const update = hash.update.bind(hash);
			hash.update = ((data: string, encoding: NodeCrypto.Encoding) => {
				calls.push(`hash ${algorithm} of ${Buffer.byteLength(data, encoding)} bytes`);
				return update(data, encoding);
			}) as typeof hash.update;
			return hash;
		});
		const timingSafeEqual = jest.spyOn(crypto, 'timingSafeEqual').mockImplementation((a, b) => {
			calls.push(`timingSafeEqual of ${a.byteLength} and ${b.byteLength} bytes`);
			return realTimingSafeEqual(a, b);
		});
		try {
			check();
		} finally {
			createHash.mockRestore();
			timingSafeEqual.mockRestore();
		}
		return calls;
	}

	it('hashes the whole header once and compares it with both 32-byte slots in constant time, for any length or content', () => {
		const headers: unknown[] = [
			undefined,
			'',
			'a',
			SECRET,
			firstByteWrong,
			lastByteWrong,
			SECRET.repeat(3),
			'é'.repeat(1000),
			'x'.repeat(MEGABYTE),
			[SECRET, SECRET],
		];
		for (const header of headers) {
			const bytes = typeof header === 'string' ? Buffer.byteLength(header, 'latin1') : 0;
			expect(cryptoCalls(() => headerMatchesSecrets(header, expected))).toEqual([
				`hash sha256 of ${bytes} bytes`,
				'timingSafeEqual of 32 and 32 bytes',
				'timingSafeEqual of 32 and 32 bytes',
			]);
		}
	});

	it('makes the same calls for the right secret and for one differing in its first or its last byte', () => {
		const trace = (header: string) => cryptoCalls(() => headerMatchesSecrets(header, expected));
		expect(trace(firstByteWrong)).toEqual(trace(SECRET));
		expect(trace(lastByteWrong)).toEqual(trace(SECRET));
	});

	it('makes the same calls during a rotation whether the header is the current or the previous secret', () => {
		// the new secret is `lastByteWrong`, the old one SECRET; firstByteWrong is neither
		const both = [digestSecret(lastByteWrong) as Buffer, ...expected];
		const trace = (header: string) => cryptoCalls(() => headerMatchesSecrets(header, both));
		expect(trace(SECRET)).toEqual(trace(lastByteWrong));
		expect(trace(firstByteWrong)).toEqual(trace(lastByteWrong));
	});
});
