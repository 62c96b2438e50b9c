/**
 * Generated Dialer Trigger deliveries, shared by the unit and the e2e reliability tests: bodies
 * shaped like agent events with any field missing, mistyped, huge or nested, extra keys that
 * clash with the trigger's own or with Object.prototype, and an oracle that reads the contract's
 * fields without the node's code.
 */
import fc from 'fast-check';

import { eventKinds } from '../../harness/simulator/agent-states';

/** The contract's event catalogue, as the simulator sends it. */
export const AGENT_EVENT_CODES: readonly string[] = eventKinds;

const MEGABYTE = 1024 * 1024;

/** Values at the edges: 1 MB strings, numbers beyond safe integers, 100,000 elements, deep nesting. */
const huge = fc.constantFrom<unknown>(
	'x'.repeat(MEGABYTE),
	'é'.repeat(100_000),
	Number.MAX_VALUE,
	Number.MAX_SAFE_INTEGER,
	Number.MAX_SAFE_INTEGER + 1,
	1e21,
	-1,
	0.5,
	-0,
	NaN,
	Infinity,
	-Infinity,
	2n ** 70n,
	Array.from({ length: 100_000 }, (_, i) => i),
	// 1,000 levels of nesting
	Array.from({ length: 1_000 }).reduce<unknown>((inner) => ({ a: [inner] }), {}),
);
const anything = fc.anything({
	maxDepth: 3,
	withBigInt: true,
	withBoxedValues: true,
	withDate: true,
	withMap: true,
	withSet: true,
	withNullPrototype: true,
	withObjectString: true,
	withSparseArray: true,
	withTypedArray: true,
	stringUnit: 'binary',
});
/** Any value at all: JSON-like or not (Map, BigInt, typed arrays, null prototype…), sometimes huge. */
export const junk = fc.oneof({ weight: 10, arbitrary: anything }, huge);
const nearlyText = fc.constantFrom(
	'',
	' ',
	'\t\n',
	'AGENTE.LOGIN',
	' agente.login',
	'agente.login ',
	'agente.',
	'null',
);
const nearlyNumber = fc.constantFrom<unknown>(
	'42',
	'1763800000',
	42.5,
	-42,
	'0x2a',
	'4.2e1',
	true,
	[42],
	{ t: 42 },
);
const ABSENT = Symbol('absent');
const field = (valid: fc.Arbitrary<unknown>) =>
	fc.oneof({ weight: 40, arbitrary: valid }, nearlyText, nearlyNumber, junk, fc.constant(ABSENT));
const pollution = fc.constantFrom(
	'__proto__',
	'constructor',
	'prototype',
	'toString',
	'valueOf',
	'hasOwnProperty',
);
const clashing = fc.constantFrom(
	'event',
	'state',
	'agentId',
	'eventTime',
	'receivedAt',
	'pauseId',
	'callStartedAt',
);
const extraKey = fc.oneof(
	fc.string(),
	pollution,
	clashing,
	fc.constantFrom('pausa_id', 'udate', 'durmax', 'durmin'),
);

/** An object shaped like an event, every field possibly missing, mistyped or huge, plus extra keys. */
export const eventLike = fc
	.tuple(
		fc.record({
			evento: field(fc.constantFrom(...AGENT_EVENT_CODES, 'agente.transfer')),
			estado: field(fc.constantFrom('online', 'offline', 'paused', 'busy', 'ringing')),
			t: field(fc.oneof(fc.nat(), fc.constant(0), fc.constant(Number.MAX_SAFE_INTEGER))),
			usuario_id: field(fc.nat({ max: 5 })),
		}),
		fc.array(fc.tuple(extraKey, fc.oneof(junk, fc.object()))),
		fc.boolean(),
	)
	// fromEntries defines every key as the object's own, as JSON.parse does (`__proto__` included).
	.map(([core, extra, nullPrototype]) => {
		const entries = [...Object.entries(core).filter(([, value]) => value !== ABSENT), ...extra];
		return nullPrototype
			? Object.assign(Object.create(null), Object.fromEntries(entries))
			: Object.fromEntries(entries);
	});

/** JSON text of any value (BigInt as a string, as JSON cannot carry it; '' for undefined). */
export function toJson(value: unknown): string {
	return (
		JSON.stringify(value, (_key, inner) => (typeof inner === 'bigint' ? String(inner) : inner)) ??
		''
	);
}

export const eventJson = eventLike.map(toJson);

/**
 * The UTF-8 bytes of a text, one latin1 character each: how Node hands n8n a header value, and
 * how undici sends exactly those bytes.
 */
export function asReceived(text: string): string {
	return Buffer.from(text, 'utf8').toString('latin1');
}

const isText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** A number as a JSON number or as text ("42", " -1.5 "); undefined for anything else. */
function numberIn(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

const isWhole = (value: number | undefined): value is number =>
	value !== undefined && Number.isSafeInteger(value) && value >= 0;
/** Whole seconds that name a date (a JavaScript Date holds it), so the item's time is never null. */
const isUnixTime = (value: number | undefined): value is number =>
	isWhole(value) && !Number.isNaN(new Date(value * 1000).getTime());
const isLeftOut = (value: unknown) =>
	value === undefined ||
	value === null ||
	value === '' ||
	(typeof value === 'string' && value.trim() === '');

/**
 * The delivery as the trigger should hand it on, read from the contract without the node's
 * code, or undefined when it must be refused: the four fields with their types (numbers also as
 * text), the numbers the event adds (udate in whole seconds, durmax/durmin any number) when
 * present (times within the dates a Date holds), a pause ID in digits as a number; every other field as sent.
 */
export function readAgentEvent(body: unknown): Record<string, unknown> | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const fields = body as Record<string, unknown>;
	const t = numberIn(fields.t);
	const agent = numberIn(fields.usuario_id);
	if (!isText(fields.evento) || !isText(fields.estado) || !isUnixTime(t) || !isWhole(agent))
		return undefined;
	const read: Record<string, unknown> = { ...fields, t, usuario_id: agent };
	const extras =
		fields.evento === 'agente.pause_in'
			? ['udate', 'durmax', 'durmin']
			: fields.evento === 'agente.busy'
				? ['udate']
				: [];
	for (const name of extras) {
		if (isLeftOut(fields[name])) continue;
		const value = numberIn(fields[name]);
		if (value === undefined || (name === 'udate' && !isUnixTime(value))) return undefined;
		read[name] = value;
	}
	const pauseId = fields.pausa_id;
	if (
		fields.evento === 'agente.pause_in' &&
		typeof pauseId === 'string' &&
		/^\s*(0|[1-9]\d*)\s*$/.test(pauseId) &&
		Number.isSafeInteger(Number(pauseId))
	)
		read.pausa_id = Number(pauseId);
	return read;
}
