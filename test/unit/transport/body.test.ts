/**
 * Reading an answer's body. The chunked JSON parser the node reads answers with must be
 * JSON.parse, only leaner: the same value for any JSON cut into any chunks, and a SyntaxError
 * wherever JSON.parse throws one. A body that breaks off, stalls past the deadline or is stopped
 * with the execution becomes the operation's error.
 */
import fc from 'fast-check';
import { NodeApiError } from 'n8n-workflow';

import { Readable } from 'node:stream';

import * as filledForms from '../../../nodes/shared/reports/filledForms';
import { bodyStream, readJson } from '../../../nodes/shared/transport/body';
import { ChunkedJsonParser } from '../../../nodes/shared/transport/chunkedJsonParser';
import { dialerApiRequest } from '../../../nodes/shared/transport/request';
import { fakeExecuteFunctions, untilRead, type FakeResponse } from '../support/executeFunctions';
import { propertyRuns } from '../support/propertyRuns';

/** Feeds `bytes` cut at `cuts` (any positions, inside multi-byte characters too). */
function parseInChunks(bytes: Buffer, cuts: number[], batchBytes?: number): unknown {
	const parser = new ChunkedJsonParser(batchBytes);
	let start = 0;
	for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
		parser.push(bytes.subarray(start, cut));
		start = cut;
	}
	parser.push(bytes.subarray(start));
	return parser.end();
}

type Outcome = { value: string } | { error: string };

/** The value as text (own `__proto__` keys and key order included), or the error's class. */
function outcome(parse: () => unknown): Outcome {
	try {
		return { value: JSON.stringify(parse()) };
	} catch (error) {
		return { error: (error as Error).constructor.name };
	}
}

const text = fc.string({ unit: 'binary', maxLength: 12 });
/** Text holding what ends one row and starts the next, quotes and escapes included. */
const seamText = fc.string({
	unit: fc.constantFrom('},{', '"},{"', '}', '{', ',', '"', '\\', ']', 'a', '\u00e9'),
	maxLength: 6,
});
const row = fc.dictionary(
	fc.oneof(text, seamText, fc.constantFrom('__proto__', 'constructor', 'data', 'chamadas')),
	fc.oneof(
		fc.jsonValue({ maxDepth: 2 }),
		seamText,
		// Objects in a list inside a row: `},{` between them, a level below the rows.
		fc.array(fc.dictionary(seamText, seamText, { maxKeys: 2 }), { maxLength: 3 }),
	),
	{ maxKeys: 6 },
);
const rows = fc.array(row, { maxLength: 30 });
/** Values shaped like the dialer's answers (rows under `data`, `data.chamadas` or bare) and any JSON at all. */
const answer = fc.oneof(
	rows,
	fc.record({ data: rows }),
	fc.record({
		status: fc.constantFrom('success', 'error'),
		data: fc.record({ agente: text, chamadas: rows }),
	}),
	fc.record({ data: fc.array(rows, { maxLength: 3 }), total: fc.nat() }),
	fc.jsonValue({ maxDepth: 5 }),
);
const layout = fc.constantFrom<[number | string | undefined, boolean]>(
	[undefined, false],
	[2, false],
	['\t', false],
	[undefined, true],
	[1, true],
);
const cuts = fc.array(fc.nat(), { maxLength: 12 });
const batchBytes = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constant(undefined));

function encode(value: unknown, [indent, bom]: [number | string | undefined, boolean]): Buffer {
	return Buffer.from(`${bom ? '\uFEFF' : ''}${JSON.stringify(value, null, indent)}`);
}

describe('reading a JSON answer in chunks', () => {
	it('gives the value JSON.parse gives, for any answer cut anywhere, batches of any size', () => {
		fc.assert(
			fc.property(answer, layout, cuts, batchBytes, (value, format, at, batch) => {
				const bytes = encode(value, format);
				const whole = bytes.toString('utf8').replace(/^\uFEFF/, '');
				expect(outcome(() => parseInChunks(bytes, at, batch))).toEqual(
					outcome(() => JSON.parse(whole)),
				);
			}),
			{ numRuns: propertyRuns(1_000) },
		);
	});

	it('throws a SyntaxError exactly where JSON.parse does, for answers with a byte removed, changed or added', () => {
		const edit = fc.tuple(
			fc.nat(),
			fc.constantFrom('', '[', ']', '{', '}', ',', ':', '"', '\\', ' ', '0', 'x', '\u00e9'),
		);
		fc.assert(
			fc.property(
				answer,
				layout,
				fc.array(edit, { minLength: 1, maxLength: 3 }),
				fc.boolean(),
				cuts,
				batchBytes,
				(value, format, edits, replace, at, batch) => {
					let bytes = encode(value, format);
					for (const [position, inserted] of edits) {
						const index = position % (bytes.length + 1);
						bytes = Buffer.concat([
							bytes.subarray(0, index),
							Buffer.from(inserted),
							bytes.subarray(index + (replace || inserted === '' ? 1 : 0)),
						]);
					}
					const whole = bytes.toString('utf8').replace(/^\uFEFF/, '');
					expect(outcome(() => parseInChunks(bytes, at, batch))).toEqual(
						outcome(() => JSON.parse(whole)),
					);
				},
			),
			{ numRuns: propertyRuns(1_500) },
		);
	});

	it.each([
		['an empty answer', ''],
		['only spaces', '  \n'],
		['a trailing comma in the rows', '{"data":[{"a":1},]}'],
		['a leading comma in the rows', '[,{"a":1}]'],
		['two commas in a row', '[1,,2]'],
		['an array closed by "}"', '{"data":[1,2}}'],
		['an unclosed array', '{"data":[1,2'],
		['an unclosed string', '["abc'],
		['a non-breaking space as the only content of the rows', '[\u00a0]'],
		['two values', '[1][2]'],
		['a closing bracket too many', '[1]]'],
		['a list where a key belongs', '{["status"]: "success", "data": []}'],
	])('refuses %s', (_name, json) => {
		for (const batch of [1, 3, undefined]) {
			expect(() => parseInChunks(Buffer.from(json), [1, 2, 5], batch)).toThrow(SyntaxError);
			expect(() => JSON.parse(json)).toThrow(SyntaxError);
		}
	});

	it('reads a 100,000-row report cut into 64 KB chunks as JSON.parse does', () => {
		const report = {
			data: Array.from({ length: 100_000 }, (_, i) => ({
				ficha: String(i),
				nome: `Conceição ${i}`,
				obs: 'linha "1"\n\\ fim',
				pontos: i % 7,
			})),
		};
		const bytes = Buffer.from(JSON.stringify(report));
		const parser = new ChunkedJsonParser();
		for (let start = 0; start < bytes.length; start += 65_536)
			parser.push(bytes.subarray(start, start + 65_536));
		expect(parser.end()).toEqual(report);
	});
});

describe('answers that arrive in pieces', () => {
	async function report(response: FakeResponse, parameters: Record<string, unknown> = {}) {
		const { context, sent } = fakeExecuteFunctions({ parameters, responses: [response] });
		const result = await dialerApiRequest
			.call(context, filledForms.endpoint, {}, 0)
			.catch((caught: unknown) => caught);
		return { result, sent };
	}

	it('reads a 20,000-row report cut into small chunks, inside rows and accented letters, as sent', async () => {
		const rows = Array.from({ length: 20_000 }, (_, i) => ({
			id: i,
			cliente: `João Conceição ${i}`,
			nota: 'diz "sim"\\ok',
		}));
		const { result } = await report({ body: { data: rows } });
		expect(result).toEqual(rows);
	});

	it('turns a connection closed halfway through the body into an error with the HTTP status', async () => {
		const reset = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
		const { result } = await report({
			body: { data: Array(500).fill({ a: 1 }) },
			breaksOff: reset,
		});
		expect(result).toBeInstanceOf(NodeApiError);
		expect((result as NodeApiError).message).toBe(
			'Dialer getFP1 failed (HTTP 200): connection closed by the server',
		);
	});

	it('says an answer that ends before its JSON does was cut short, not that it is no JSON', async () => {
		const { result } = await report({ body: '{"data":[{"ficha":1},{"ficha":2,"nome":"Jo' });
		expect(result).toBeInstanceOf(NodeApiError);
		expect((result as NodeApiError).message).toBe(
			'Dialer getFP1 failed (HTTP 200): answer ended before its JSON did, after 42 bytes',
		);
		expect((result as NodeApiError).description).toMatch(/cut the answer short/);
	});

	it('gives up on a body that stalls once the Timeout option has passed', async () => {
		const { result } = await report(
			{ body: { data: Array(500).fill({ a: 1 }) }, breaksOff: 'stall' },
			{ options: { timeout: 200 } },
		);
		expect(result).toBeInstanceOf(NodeApiError);
		expect((result as NodeApiError).message).toBe(
			'Dialer getFP1 failed (HTTP 200): no answer in time',
		);
		expect((result as NodeApiError).description).toMatch(
			/narrow the period or raise Options → Timeout/,
		);
	});

	it('stops reading when the execution is stopped', async () => {
		const stop = new AbortController();
		const { context, streams } = fakeExecuteFunctions({
			parameters: {},
			cancelSignal: stop.signal,
			responses: [{ body: { data: Array(500).fill({ a: 1 }) }, breaksOff: 'stall' }],
		});
		const reading = dialerApiRequest.call(context, filledForms.endpoint, {}, 0);
		await untilRead(() => streams[0]);
		stop.abort();
		await expect(reading).rejects.toThrow(NodeApiError);
		expect(streams[0].destroyed).toBe(true);
	});
});

describe("reading a body as n8n's client streams it", () => {
	const read = (stream: Readable, signal = new AbortController().signal) =>
		readJson(bodyStream(stream, signal, (error) => new Error(`broken: ${String(error)}`)));
	const inBytes = (text: string) =>
		Readable.from(
			[...Buffer.from(text)].map((byte) => Buffer.from([byte])),
			{ objectMode: false },
		);

	it('gives each value as sent, one byte a chunk: numbers sent as strings stay strings, repeated rows stay repeated, accented letters whole', async () => {
		const row = { ficha: '0012', nota: '9.50', total: 3, nome: 'João Conceição ✓' };
		const answer = { data: [row, row, { ...row, ficha: '13' }] };
		expect(await read(inBytes(JSON.stringify(answer)))).toEqual({ isJson: true, value: answer });
	});

	it.each([
		['an empty list', '{"data":[]}', { data: [] }],
		['an idle dialer', '{"resultado":null,"total":0}', { resultado: null, total: 0 }],
	])('reads %s as it is', async (_name, text, value) =>
		expect(await read(inBytes(text))).toEqual({ isJson: true, value }),
	);

	it('fails at once, not at the deadline, when the connection closes before the answer ends', async () => {
		const stream = new Readable({ read() {} });
		stream.push('{"data":[{"ficha":"1"},');
		const reading = read(stream);
		await untilRead(() => stream);
		stream.destroy();
		await expect(reading).rejects.toThrow(/^broken: /);
	});

	it('lets go of the connection as soon as the answer cannot be JSON', async () => {
		// Never ends: only seeing that `}` cannot start JSON stops the reading.
		const stream = new Readable({ read() {} });
		stream.push('} not JSON');
		const answer = await read(stream);
		expect(answer.isJson).toBe(false);
		expect(stream.destroyed).toBe(true);
	});
});
