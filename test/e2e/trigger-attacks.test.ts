/**
 * The Dialer Trigger in a real n8n against generated deliveries nobody should send: bad
 * X-Webhook-Secret headers and junk bodies with the right one, 10 at a time (200 and 100 in CI,
 * more with PROPERTY_RUNS_SCALE; the unit tests send many more to the trigger itself). Counts and answer times are printed; the
 * assertions are about answers and executions only.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';

import { percentile } from '../../harness/bench/lib/stats';
import { countBy } from '../../harness/queue-mode/burst';
import { propertyRuns } from '../unit/support/propertyRuns';
import {
	asReceived,
	eventLike,
	junk,
	readAgentEvent,
	toJson,
} from '../support/generatedDeliveries';
import { registerSecret } from './setup/connection';
import {
	event,
	inParallel,
	post,
	triggerItems,
	TriggerWorkflows,
	type Answer,
	type TriggerWorkflow,
} from './support/triggerWorkflows';

// Ends in "à", whose last UTF-8 byte (0xA0) Node reads as a no-break space.
const SECRET = `e2e-attack-secret-${randomUUID()}-à`;
const SENT_SECRET = asReceived(SECRET);
const SELECTED = ['agente.login', 'agente.pause_in', 'agente.busy'];
const AGENTS = [1, 2, 3];
const CONCURRENCY = 10;
const BAD_SECRETS = propertyRuns(200);
const JUNK_BODIES = propertyRuns(100);
// FC_SEED=<the printed seed> replays a run's generated secrets and bodies.
const SEED = Number(process.env.FC_SEED) || Date.now();

jest.setTimeout(300_000);

function timings(answers: Answer[]): string {
	const ms = answers.map((answer) => answer.ms);
	return `p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms`;
}

/** "401 998, 431 2": how many of each. */
function counted<T>(values: T[], key: (value: T) => string): string {
	return Object.entries(countBy(values, key))
		.map(([name, count]) => `${name} ${count}`)
		.join(', ');
}

/** How many objects and arrays deep a JSON value goes. */
function nestingDepth(value: unknown): number {
	let deepest = 0;
	// a loop, not recursion: the values can be deeper than the call stack
	const pending: Array<[unknown, number]> = [[value, 0]];
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [current, depth] = next;
		if (typeof current !== 'object' || current === null) continue;
		deepest = Math.max(deepest, depth + 1);
		for (const inner of Object.values(current)) pending.push([inner, depth + 1]);
	}
	return deepest;
}

// What n8n's deepCopy (n8n-workflow 2.41) leaves out of every object it copies, at any depth.
const KEYS_N8N_DROPS = new Set(['__proto__', 'constructor', 'prototype']);

/** A JSON value as n8n 2.41 stores it. The names left out are added to `lost`. */
function asStored(value: unknown, lost: Set<string>): unknown {
	if (Array.isArray(value)) return value.map((inner) => asStored(inner, lost));
	if (typeof value !== 'object' || value === null) return value;
	const kept: Record<string, unknown> = {};
	for (const [key, inner] of Object.entries(value)) {
		if (KEYS_N8N_DROPS.has(key)) lost.add(key);
		else kept[key] = asStored(inner, lost);
	}
	return kept;
}

/** A bad header: its kind, and the header lines to send (flat name/value pairs; none when missing). */
interface BadSecret {
	kind: string;
	headers: string[];
}

const header = (value: string) => ['x-webhook-secret', value];
const bad = (kind: string, value: string): BadSecret => ({ kind, headers: header(value) });

/**
 * Bad secrets HTTP can carry: no control characters, and no spaces or tabs around them (HTTP
 * removes those before n8n sees the header, so they are the secret itself on the wire).
 */
const badSecrets = fc
	.oneof(
		fc
			.string({ minLength: 1, maxLength: 80, unit: 'grapheme-ascii' })
			.map((other) => bad('wrong', other.trim() || 'x')),
		fc.constantFrom<BadSecret>({ kind: 'missing', headers: [] }, bad('missing', '')),
		fc
			.nat()
			.map((cut) => bad('truncated', SENT_SECRET.slice(0, 1 + (cut % (SENT_SECRET.length - 1))))),
		fc
			.nat()
			.map((cut) => bad('truncated', SENT_SECRET.slice(1 + (cut % (SENT_SECRET.length - 1))))),
		fc
			.tuple(
				fc.constantFrom('x', '0', '.', '\u00a0', '\u00ff', asReceived('\u00a0')),
				fc.integer({ min: 1, max: 4 }),
				fc.boolean(),
			)
			.map(([char, count, before]) =>
				bad(
					'padded',
					before ? `${char.repeat(count)}${SENT_SECRET}` : `${SENT_SECRET}${char.repeat(count)}`,
				),
			),
		fc.constantFrom(
			bad('case', SENT_SECRET.toUpperCase()),
			bad('case', asReceived(SECRET.toUpperCase())),
		),
		fc
			.nat()
			.map((at) => at % SECRET.length)
			.filter((at) => /[a-z]/.test(SENT_SECRET[at]))
			.map((at) =>
				bad(
					'case',
					SENT_SECRET.slice(0, at) + SENT_SECRET[at].toUpperCase() + SENT_SECRET.slice(at + 1),
				),
			),
		fc.integer({ min: 1, max: 8000 }).map((extra) => bad('long', SENT_SECRET + 'a'.repeat(extra))),
		fc.integer({ min: 2, max: 100 }).map((times) => bad('long', SENT_SECRET.repeat(times))),
		// "à" sent as one latin1 byte instead of its UTF-8 bytes, encoded twice, or a letter swapped for "é"
		fc.constantFrom(bad('multi-byte', SECRET), bad('multi-byte', asReceived(SENT_SECRET))),
		fc.nat().map((at) => {
			const i = at % (SECRET.length - 1);
			return bad('multi-byte', asReceived(`${SECRET.slice(0, i)}é${SECRET.slice(i + 1)}`));
		}),
		fc.constantFrom<BadSecret>(
			{ kind: 'repeated', headers: [...header(SENT_SECRET), ...header(SENT_SECRET)] },
			{ kind: 'repeated', headers: [...header('guess'), ...header(SENT_SECRET)] },
		),
	)
	.filter((secret) => secret.headers[1] !== SENT_SECRET || secret.headers.length > 2);

/** A junk delivery: a content type and a body; object bodies get a `probe` number when sent. */
interface JunkBody {
	kind: string;
	contentType?: string;
	object?: unknown;
	text?: string | Buffer;
}

const smallEventLike = eventLike.filter((body) => toJson(body).length <= 64 * 1024);
const junkBodies = fc.oneof(
	{
		weight: 12,
		arbitrary: smallEventLike.map((object): JunkBody => ({ kind: 'event-like JSON', object })),
	},
	{
		weight: 2,
		arbitrary: junk
			.map(toJson)
			.filter((text) => text.length <= 64 * 1024)
			.map((text): JunkBody => ({ kind: 'any JSON', contentType: 'application/json', text })),
	},
	fc.tuple(smallEventLike.map(toJson), fc.nat()).map(([text, cut]): JunkBody => ({
		kind: 'cut JSON',
		contentType: 'application/json',
		text: text.slice(0, cut % text.length),
	})),
	fc
		.oneof(smallEventLike.map(toJson), fc.string())
		.map((text): JunkBody => ({ kind: 'text', contentType: 'text/plain', text })),
	fc.uint8Array({ maxLength: 2048 }).map((bytes): JunkBody => ({
		kind: 'bytes',
		contentType: 'application/octet-stream',
		text: Buffer.from(bytes),
	})),
	fc
		.dictionary(fc.constantFrom('evento', 'estado', 't', 'usuario_id', '__proto__'), fc.string())
		.map((form): JunkBody => ({
			kind: 'form',
			contentType: 'application/x-www-form-urlencoded',
			text: new URLSearchParams(form).toString(),
		})),
	fc.string().map((text): JunkBody => ({ kind: 'no content type', text })),
);

/**
 * A few large ones, each once: a 1 MB field, 100,000 elements, 1,000 levels of nesting, an own
 * `__proto__`, and 20,000 levels, deeper than JSON.parse can go (n8n's and this test's alike).
 */
const largeBodies: JunkBody[] = [
	{ kind: 'large', object: event('agente.login', 1, { note: 'x'.repeat(1024 * 1024) }) },
	{
		kind: 'large',
		object: event('agente.busy', 2, { list: Array.from({ length: 100_000 }, (_, i) => i) }),
	},
	{
		kind: 'large',
		object: event('agente.pause_in', 3, {
			nested: Array.from({ length: 1_000 }).reduce<unknown>((inner) => ({ a: [inner] }), {}),
		}),
	},
	{
		kind: 'large',
		contentType: 'application/json',
		text: `${toJson(event('agente.login', 1)).slice(0, -1)},"nested":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
	},
	{
		kind: 'large',
		object: JSON.parse(
			`{"__proto__":{"polluted":true},${toJson(event('agente.login', 1)).slice(1)}`,
		),
	},
];

describe('Dialer Trigger in n8n against generated deliveries', () => {
	let workflows: TriggerWorkflows;
	let hook: TriggerWorkflow;

	beforeAll(async () => {
		registerSecret(SECRET);
		workflows = await TriggerWorkflows.start();
		hook = await workflows.createTriggerWorkflow(await workflows.createCredential(SECRET), {
			events: SELECTED,
			options: { agentIds: AGENTS.join(', ') },
		});
		console.log(`fast-check seed ${SEED} (FC_SEED=${SEED} replays it)`);
	});

	afterAll(async () => {
		await workflows?.close();
	});

	const login = toJson(event('agente.login', 1));

	it('accepts the right secret, ending in "à", as the dialer sends it', async () => {
		const answer = await post(hook.url, login, {
			'content-type': 'application/json',
			'x-webhook-secret': SENT_SECRET,
		});
		expect(answer).toMatchObject({ status: 200, body: { received: true } });
		await hook.expectExecutions(1);
	});

	it(`answers 401 to ${BAD_SECRETS} generated wrong, missing, truncated, padded, case-changed, long, multi-byte and repeated secrets, and runs nothing`, async () => {
		const secrets = fc.sample(badSecrets, { numRuns: BAD_SECRETS, seed: SEED });
		const started = Date.now();
		const answers = await inParallel(secrets, CONCURRENCY, (secret) =>
			post(hook.url, login, ['content-type', 'application/json', ...secret.headers]),
		);
		console.log(
			`bad secrets: ${answers.length} sent in ${((Date.now() - started) / 1000).toFixed(1)} s (${counted(secrets, (s) => s.kind)}); ` +
				`answers ${counted(answers, (a) => String(a.status))}; ${timings(answers)}`,
		);
		const wrong = answers.filter(
			(answer) =>
				answer.status !== 401 ||
				(answer.body as { error?: string }).error !== 'Missing or wrong X-Webhook-Secret header',
		);
		expect(wrong.map((answer) => answer.status)).toEqual([]);
		await hook.expectExecutions(1);
	});

	it('answers 431 from Node itself to a secret header beyond its 16 KB header limit, and runs nothing', async () => {
		const answers = await inParallel(Array.from({ length: 10 }), CONCURRENCY, () =>
			post(hook.url, login, {
				'content-type': 'application/json',
				'x-webhook-secret': SENT_SECRET.repeat(1000),
			}),
		);
		expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(431));
		await hook.expectExecutions(1);
	});

	it(`answers each of ${JUNK_BODIES} generated junk bodies with the right secret, and runs the workflow exactly for the valid, selected events`, async () => {
		const bodies = [
			...fc.sample(junkBodies, {
				numRuns: Math.max(1, JUNK_BODIES - largeBodies.length),
				seed: SEED,
			}),
			...largeBodies,
		];
		const sent = bodies.map((body, probe) => {
			if (body.object === undefined)
				return { ...body, json: body.contentType === 'application/json' ? body.text : undefined };
			const object = Object.assign(body.object as object, { probe });
			const text = toJson(object);
			return { ...body, contentType: 'application/json', text, json: text };
		});
		const started = Date.now();
		const answers = await inParallel(sent, CONCURRENCY, ({ text, contentType }) =>
			post(hook.url, text ?? '', {
				...(contentType ? { 'content-type': contentType } : {}),
				'x-webhook-secret': SENT_SECRET,
			}),
		);
		console.log(
			`junk bodies: ${answers.length} sent in ${((Date.now() - started) / 1000).toFixed(1)} s (${counted(bodies, (b) => b.kind)}); ` +
				`answers ${counted(answers, (a) => String(a.status))}; ${timings(answers)}`,
		);

		// What each answer should be, from the contract and the JSON sent (n8n itself refuses
		// application/json that does not parse, with 422, before the node runs).
		const expectedStarts: number[] = [];
		const mismatches: string[] = [];
		sent.forEach(({ json, kind }, probe) => {
			const answer = answers[probe];
			let expected = 400;
			if (typeof json === 'string' && json !== '') {
				let parsed: unknown;
				try {
					parsed = JSON.parse(json);
				} catch {
					expected = 422;
				}
				const read = readAgentEvent(parsed);
				if (read) {
					expected = 200;
					if (
						SELECTED.includes(read.evento as string) &&
						AGENTS.includes(read.usuario_id as number)
					) {
						expectedStarts.push(probe);
					}
				}
			}
			if (answer.status !== expected)
				mismatches.push(`${kind} #${probe}: ${answer.status}, expected ${expected}`);
		});
		expect(mismatches).toEqual([]);
		const acknowledged = answers.filter((answer) => toJson(answer.body) === '{"received":true}');
		expect(acknowledged).toHaveLength(expectedStarts.length);

		const executions = await hook.expectExecutionCount(1 + expectedStarts.length);
		// n8n 2.41 runs and stores the execution of a body nested 1,000 levels deep, but its API
		// answers 500 for that execution's data; every other one reads back.
		const unreadable: string[] = [];
		const items = (
			await inParallel(executions, CONCURRENCY, async (execution) => {
				try {
					return triggerItems(await workflows.api.getExecution(execution.id));
				} catch {
					unreadable.push(execution.id);
					return [];
				}
			})
		)
			.flat()
			.filter((item) => item.probe !== undefined);
		const read = items.map((item) => item.probe as number);
		const notRead = expectedStarts.filter((probe) => !read.includes(probe));
		expect(read.every((probe) => expectedStarts.includes(probe))).toBe(true);
		expect(notRead).toHaveLength(unreadable.length);
		for (const probe of notRead)
			expect(nestingDepth(JSON.parse(sent[probe].json as string))).toBeGreaterThanOrEqual(1_000);
		// Every field arrives as sent (the contract's numbers sent as text as numbers). Keys named `__proto__`, `constructor` or `prototype` the node
		// passes on (unit test), but n8n 2.41's deepCopy leaves them out of the stored execution at
		// any depth: those are counted, not compared.
		const lost = new Set<string>();
		for (const item of items) {
			const delivered = asStored(
				readAgentEvent(JSON.parse(sent[item.probe as number].json as string)),
				lost,
			) as Record<string, unknown>;
			for (const key of Object.keys(delivered))
				expect([key, item[key]]).toEqual([key, delivered[key]]);
		}
		console.log(
			`junk bodies: ${expectedStarts.length} executions, as expected; n8n could not serve the data of ${unreadable.length}, ` +
				`left out fields named ${[...lost].join(', ') || 'nothing'}`,
		);
	});
});
