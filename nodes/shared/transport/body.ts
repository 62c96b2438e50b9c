import { ChunkedJsonParser } from './chunkedJsonParser';

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
	/**
	 * Waits for the first `bytes` bytes (all of a shorter body) and leaves them in the stream,
	 * paused, for a reader that takes the whole body afterwards; `whole` when the body ended
	 * within them (nothing is left in it).
	 */
	peek(bytes: number): Promise<{ start: Buffer; whole: boolean }>;
}

export const toBuffer = (chunk: unknown): Buffer =>
	Buffer.isBuffer(chunk)
		? chunk
		: chunk instanceof ArrayBuffer
			? Buffer.from(chunk)
			: Buffer.from(typeof chunk === 'string' ? chunk : (JSON.stringify(chunk) ?? ''));

/** A Node.js stream, as n8n's client gives a body read with `encoding: 'stream'`. */
interface NodeStream {
	on(event: string, listener: (value: unknown) => void): unknown;
	removeListener(event: string, listener: (value: unknown) => void): unknown;
	pause(): unknown;
	unshift(chunk: Buffer): void;
	destroy(): void;
}

export const isNodeStream = (body: unknown): body is NodeStream =>
	typeof body === 'object' &&
	body !== null &&
	typeof (body as NodeStream).on === 'function' &&
	typeof (body as NodeStream).destroy === 'function';

/** Lets go of a body not wanted: its connection is closed, nothing more is read. */
export function release(body: unknown): void {
	if (isNodeStream(body)) body.destroy();
}

/**
 * Hands each chunk of `stream` to `take` as it arrives (flowing mode: no promise per chunk),
 * until the end or `take` returns false; then the rest is let go, or with `keepRest` left
 * unread (`take` paused the stream). n8n's client stops watching the deadline when the headers
 * are in: `signal` ends the reading, also while the server sends nothing.
 */
function flow(
	stream: NodeStream,
	signal: AbortSignal,
	take: (chunk: Buffer) => boolean,
	broken: (error: unknown) => Error,
	keepRest = false,
): Promise<void> {
	return new Promise((resolve, reject) => {
		const finish = (error?: unknown, keep = false) => {
			for (const [event, listener] of listeners) stream.removeListener(event, listener);
			signal.removeEventListener('abort', aborted);
			// Also when `take` gave up on the answer: no reason to download the rest.
			if (!keep) stream.destroy();
			if (error === undefined) resolve();
			else reject(error);
		};
		const aborted = () => finish(broken(new Error('reading the answer was aborted')));
		const listeners: Array<[string, (value: unknown) => void]> = [
			[
				'data',
				(chunk) => {
					try {
						if (!take(toBuffer(chunk))) finish(undefined, keepRest);
					} catch (error) {
						finish(error);
					}
				},
			],
			['end', () => finish()],
			['error', (error) => finish(broken(error))],
			// Closed before its end, with no error said.
			['close', () => finish(broken(new Error('the connection closed before the answer ended')))],
		];
		if (signal.aborted) return aborted();
		signal.addEventListener('abort', aborted, { once: true });
		for (const [event, listener] of listeners) stream.on(event, listener);
	});
}

/** The body of a response (n8n's stream, or the whole body at once), read under `signal`. */
export function bodyStream(
	body: unknown,
	signal: AbortSignal,
	broken: (error: unknown) => Error,
): BodyStream {
	return {
		async read(take) {
			if (isNodeStream(body)) return await flow(body, signal, take, broken);
			if (body !== undefined && body !== null) take(toBuffer(body));
		},
		async peek(bytes) {
			if (!isNodeStream(body)) return { start: toBuffer(body ?? Buffer.alloc(0)), whole: true };
			const chunks: Buffer[] = [];
			let length = 0;
			let whole = true;
			const gather = (chunk: Buffer) => {
				chunks.push(chunk);
				length += chunk.length;
				if (length < bytes) return true;
				// Paused first: a flowing stream would hand the bytes put back straight out again.
				body.pause();
				body.unshift(Buffer.concat(chunks));
				whole = false;
				return false;
			};
			await flow(body, signal, gather, broken, true);
			return { start: Buffer.concat(chunks), whole };
		},
	};
}

export async function readAll(body: BodyStream): Promise<Buffer> {
	const chunks: Buffer[] = [];
	await body.read((chunk) => chunks.push(chunk) > 0);
	return Buffer.concat(chunks);
}

// Enough of an answer that is not JSON to describe it in the error.
export const DESCRIBED_BYTES = 64 * 1024;

/**
 * The body parsed as JSON while it arrives; when it is not JSON, the reading stops and the start
 * of the text is kept to describe it.
 */
export async function readJson(
	body: BodyStream,
): Promise<
	| { isJson: true; value: unknown }
	| { isJson: false; start: string; cut: boolean; cutShortAfter?: number }
> {
	const parser = new ChunkedJsonParser();
	const start: Buffer[] = [];
	let startBytes = 0;
	let bytes = 0;
	let isJson = true;
	await body.read((chunk) => {
		bytes += chunk.length;
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
	const text = Buffer.concat(start).toString('utf8');
	// The body went on past the start kept, or may have: the reading stopped at what was no JSON.
	const cut = bytes > startBytes || !isJson;
	if (isJson) {
		try {
			return { isJson, value: parser.end() };
		} catch (error) {
			// JSON that ended inside a string, object or list (a page whose quotes or brackets do
			// not pair is no JSON): the answer was cut short.
			if ((error as { unfinished?: boolean }).unfinished && /^\uFEFF?\s*[[{]/.test(text)) {
				return { isJson: false, start: text, cut, cutShortAfter: bytes };
			}
		}
	}
	return { isJson: false, start: text, cut };
}
