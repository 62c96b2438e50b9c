import { randomUUID } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Reading an answer's body: chunk by chunk as n8n's client hands it over, under the exchange's
 * deadline and the execution's cancel signal, and parsed as JSON while it arrives.
 */

/** A body still arriving, read once. */
export interface BodyStream {
	/**
	 * Hands each chunk to `take` as it arrives, until it returns false. A connection lost, or the
	 * deadline passed, midway is thrown as `broken` makes it.
	 */
	read(take: (chunk: Buffer) => boolean): Promise<void>;
}

interface BodyReader {
	next(): Promise<IteratorResult<Buffer>>;
	/** Lets go of the connection (a no-op once the body has ended). */
	stop(): void;
}

const toBuffer = (chunk: unknown): Buffer =>
	Buffer.isBuffer(chunk)
		? chunk
		: chunk instanceof ArrayBuffer
			? Buffer.from(chunk)
			: Buffer.from(typeof chunk === 'string' ? chunk : (JSON.stringify(chunk) ?? ''));

/** A response body, chunk by chunk: n8n's stream, or the whole body at once (any other shape). */
function bodyReader(body: unknown): BodyReader {
	if (typeof body === 'object' && body !== null && Symbol.asyncIterator in body) {
		const stream = body as AsyncIterable<unknown> & { destroy?: () => void };
		const chunks = stream[Symbol.asyncIterator]();
		return {
			next: async () => {
				const chunk = await chunks.next();
				return chunk.done ? chunk : { done: false, value: toBuffer(chunk.value) };
			},
			stop: () => stream.destroy?.(),
		};
	}
	const whole = body === undefined || body === null ? [] : [toBuffer(body)];
	return {
		next: async () =>
			whole.length > 0 ? { done: false, value: whole.pop()! } : { done: true, value: undefined },
		stop: () => undefined,
	};
}

/**
 * Rejects once `signal` aborts. n8n's client stops watching the deadline when the headers are
 * in, and a stream whose body stalls cannot even be destroyed: each read races this instead.
 */
function abortion(signal: AbortSignal): { aborted: Promise<never>; release(): void } {
	let onAbort = () => undefined as void;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Error('reading the answer was aborted'));
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	// Handled here: an abort after the last read must not become an unhandled rejection.
	aborted.catch(() => undefined);
	return { aborted, release: () => signal.removeEventListener('abort', onAbort) };
}

/** The body of a response (a stream or whole), read under `signal`. */
export function bodyStream(
	body: unknown,
	signal: AbortSignal,
	broken: (error: unknown) => Error,
): BodyStream {
	const reader = bodyReader(body);
	return {
		async read(take) {
			const { aborted, release } = abortion(signal);
			try {
				for (;;) {
					let chunk: IteratorResult<Buffer>;
					try {
						chunk = await Promise.race([reader.next(), aborted]);
					} catch (error) {
						throw broken(error);
					}
					if (chunk.done || !take(chunk.value)) return;
				}
			} finally {
				release();
				// Also when `take` gave up on the answer: no reason to download the rest.
				reader.stop();
			}
		},
	};
}

export async function readAll(body: BodyStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	await body.read((chunk) => chunks.push(chunk) > 0);
	return Buffer.concat(chunks);
}

/** Lets go of a body not wanted (a redirect's): its connection is closed, nothing is read. */
export function release(body: unknown): void {
	bodyReader(body).stop();
}

/** What n8n's binary store takes: a whole buffer, or a stream it reads as it stores. */
export type FileBody = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

type FileStream = Extract<FileBody, { pipe: unknown }>;

/** A Node.js stream, as n8n's client gives a body read with `encoding: 'stream'`. */
interface NodeStream {
	map(each: (chunk: unknown) => Buffer, options: { signal: AbortSignal }): FileStream;
	destroy(error?: Error): void;
}

const isNodeStream = (body: unknown): body is NodeStream =>
	typeof body === 'object' && body !== null && typeof (body as NodeStream).map === 'function';

/**
 * A file's body for n8n's binary store, never gathered here: the client's stream passed on chunk
 * by chunk (Readable.map, so n8n's store pulls at its own pace), each chunk first shown to `check`,
 * which stops the stream by returning why. The deadline and the execution's cancel signal stop it
 * too, also while the server sends nothing.
 */
export function fileBody(
	body: unknown,
	signal: AbortSignal,
	check: (chunk: Buffer) => string | undefined,
): FileBody {
	const passOn = (chunk: unknown) => {
		const bytes = toBuffer(chunk);
		const problem = check(bytes);
		if (problem !== undefined) throw new Error(problem);
		return bytes;
	};
	if (!isNodeStream(body)) return passOn(body ?? Buffer.alloc(0));
	const passed = body.map(passOn, { signal });
	// Readable.map stops taking chunks on abort but still waits for one from a stalled server:
	// the reader is let go here, and the connection closed.
	const abort = () => {
		passed.destroy(new Error('reading the file was aborted'));
		body.destroy();
	};
	if (signal.aborted) abort();
	signal.addEventListener('abort', abort, { once: true });
	passed.once('close', () => signal.removeEventListener('abort', abort));
	return passed;
}

// Enough of an answer that is not JSON to describe it in the error.
const DESCRIBED_BYTES = 64 * 1024;

/** The first bytes of a body (enough to describe it), the rest left unread. */
export async function readStart(body: BodyStream, bytes = DESCRIBED_BYTES): Promise<string> {
	const start: Buffer[] = [];
	let length = 0;
	await body.read((chunk) => {
		start.push(chunk.subarray(0, bytes - length));
		length += start[start.length - 1].length;
		return length < bytes;
	});
	return Buffer.concat(start).toString('utf8');
}

/**
 * The body parsed as JSON while it arrives; when it is not JSON, the reading stops and the start
 * of the text is kept to describe it.
 */
export async function readJson(
	body: BodyStream,
): Promise<{ isJson: true; value: unknown } | { isJson: false; start: string }> {
	const parser = new ChunkedJsonParser();
	const start: Buffer[] = [];
	let startBytes = 0;
	let isJson = true;
	await body.read((chunk) => {
		if (startBytes < DESCRIBED_BYTES) {
			start.push(chunk.subarray(0, DESCRIBED_BYTES - startBytes));
			startBytes += start[start.length - 1].length;
		}
		try {
			parser.push(chunk);
		} catch {
			isJson = false;
		}
		return isJson;
	});
	if (isJson) {
		try {
			return { isJson, value: parser.end() };
		} catch {
			// Cut short or malformed at the end: described below like any other text.
		}
	}
	return { isJson: false, start: Buffer.concat(start).toString('utf8') };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

// Arrays this shallow are split: a bare list of rows, `data`, `data.chamadas`. Deeper ones
// belong to a row and are parsed with it.
const SPLIT_DEPTH = 3;
// Elements waiting to be parsed, in bytes: about 65 JSON.parse calls for a 100,000-row report
// (64 MB). Inside n8n this measured faster than 64 KB or 256 KB batches, for the same memory.
const DEFAULT_BATCH_BYTES = 1 << 20;
const JSON_WHITESPACE = /^[ \t\n\r]*$/;

/**
 * JSON.parse for an answer that arrives in chunks, without ever holding its whole text. A
 * 100,000-row report is tens of MB of UTF-8 and twice that as a JavaScript string; here the rows
 * of the arrays near the top are parsed a megabyte at a time while the answer arrives, and
 * the rest of the text (the envelope around them) is parsed at the end with those arrays put back.
 *
 * The result is what JSON.parse gives for the whole text, and invalid text throws a SyntaxError
 * as JSON.parse does (a leading UTF-8 byte order mark is allowed, as servers send one).
 */
export class ChunkedJsonParser {
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** Depth around the array being split, or -1 while none is. */
	private splitBase = -1;
	/** The text outside split arrays, each of them replaced by a marker string. */
	private readonly outline: Buffer[] = [];
	private readonly arrays: unknown[][] = [];
	/** Bytes of whole elements of the array being split (plus the one still arriving). */
	private batch: Buffer[] = [];
	private waitingBytes = 0;
	private flushedElements = false;
	private readonly marker = `\u0000split-array-${randomUUID()}-`;

	/** `batchBytes`: how many bytes of elements to parse at once (tests make it tiny). */
	constructor(private readonly batchBytes = DEFAULT_BATCH_BYTES) {}

	push(chunk: Buffer): void {
		// Locals, not fields, in the per-byte loop: it runs once per byte of the answer.
		let { depth, inString, escaped, splitBase } = this;
		let segmentStart = 0;
		const length = chunk.length;
		for (let index = 0; index < length; index++) {
			let byte = chunk[index];
			if (inString) {
				if (escaped) {
					escaped = false;
					continue;
				}
				// Most of a report's bytes are inside strings: skip to the next quote or backslash.
				while (byte !== QUOTE && byte !== BACKSLASH && ++index < length) byte = chunk[index];
				if (index === length) break;
				if (byte === BACKSLASH) escaped = true;
				else inString = false;
				continue;
			}
			if (byte === QUOTE) {
				inString = true;
			} else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
				if (byte === OPEN_ARRAY && splitBase < 0 && depth < SPLIT_DEPTH) {
					this.outline.push(Buffer.from(chunk.subarray(segmentStart, index)));
					this.outline.push(Buffer.from(JSON.stringify(`${this.marker}${this.arrays.length}`)));
					this.arrays.push([]);
					splitBase = depth;
					segmentStart = index + 1;
				}
				depth++;
			} else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
				depth--;
				if (depth < 0) throw new SyntaxError(`Unexpected "${String.fromCharCode(byte)}" in JSON`);
				if (depth === splitBase) {
					if (byte !== CLOSE_ARRAY) throw new SyntaxError('Unexpected "}" in JSON array');
					this.addToBatch(chunk.subarray(segmentStart, index));
					this.parseBatch(true);
					splitBase = -1;
					segmentStart = index + 1;
				}
			} else if (
				byte === COMMA &&
				splitBase >= 0 &&
				depth === splitBase + 1 &&
				this.waitingBytes + index - segmentStart >= this.batchBytes
			) {
				this.addToBatch(chunk.subarray(segmentStart, index));
				this.parseBatch(false);
				segmentStart = index + 1;
			}
		}
		if (segmentStart < chunk.length) {
			const rest = chunk.subarray(segmentStart);
			if (splitBase >= 0) this.addToBatch(rest);
			else this.outline.push(Buffer.from(rest));
		}
		Object.assign(this, { depth, inString, escaped, splitBase });
	}

	/** The parsed value, once every chunk has been pushed. */
	end(): unknown {
		if (this.inString || this.depth !== 0 || this.splitBase >= 0)
			throw new SyntaxError('Unexpected end of JSON input');
		const text = Buffer.concat(this.outline)
			.toString('utf8')
			.replace(/^\uFEFF/, '');
		if (this.arrays.length === 0) return JSON.parse(text);
		const { marker, arrays } = this;
		return JSON.parse(text, (_key, value: unknown) =>
			typeof value === 'string' && value.startsWith(marker)
				? arrays[Number(value.slice(marker.length))]
				: value,
		);
	}

	private addToBatch(bytes: Buffer): void {
		// A copy: a view would keep the whole network chunk alive until the batch is parsed.
		this.batch.push(Buffer.from(bytes));
		this.waitingBytes += bytes.length;
	}

	/** Parses the whole elements in the batch into the array being split. */
	private parseBatch(arrayEnds: boolean): void {
		const text = Buffer.concat(this.batch).toString('utf8');
		this.batch = [];
		this.waitingBytes = 0;
		if (JSON_WHITESPACE.test(text)) {
			// `[]` is an empty array; `[1,]`, `[,` and `[1,,` are not JSON.
			if (arrayEnds && !this.flushedElements) return;
			throw new SyntaxError('Unexpected "," in JSON array');
		}
		const elements = JSON.parse(`[${text}]`) as unknown[];
		const target = this.arrays[this.arrays.length - 1];
		// One by one: spreading 100,000 values into push() would overflow the call stack.
		for (const element of elements) target.push(element);
		this.flushedElements = !arrayEnds;
	}
}
