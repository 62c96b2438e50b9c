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
}

export interface BodyReader {
	next(): Promise<IteratorResult<Buffer>>;
	/** Lets go of the connection (a no-op once the body has ended). */
	stop(): void;
}

export const toBuffer = (chunk: unknown): Buffer =>
	Buffer.isBuffer(chunk)
		? chunk
		: chunk instanceof ArrayBuffer
			? Buffer.from(chunk)
			: Buffer.from(typeof chunk === 'string' ? chunk : (JSON.stringify(chunk) ?? ''));

/** A response body, chunk by chunk: n8n's stream, or the whole body at once (any other shape). */
export function bodyReader(body: unknown): BodyReader {
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

// Enough of an answer that is not JSON to describe it in the error.
export const DESCRIBED_BYTES = 64 * 1024;

/**
 * The body parsed as JSON while it arrives; when it is not JSON, the reading stops and the start
 * of the text is kept to describe it.
 */
export async function readJson(
	body: BodyStream,
): Promise<
	{ isJson: true; value: unknown } | { isJson: false; start: string; cutShortAfter?: number }
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
	if (isJson) {
		try {
			return { isJson, value: parser.end() };
		} catch (error) {
			// JSON that ended inside a string, object or list (a page whose quotes or brackets do
			// not pair is no JSON): the answer was cut short.
			if ((error as { unfinished?: boolean }).unfinished && /^\uFEFF?\s*[[{]/.test(text)) {
				return { isJson: false, start: text, cutShortAfter: bytes };
			}
		}
	}
	return { isJson: false, start: text };
}
