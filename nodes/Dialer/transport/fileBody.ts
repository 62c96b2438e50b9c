import type { IExecuteFunctions } from 'n8n-workflow';

import { DESCRIBED_BYTES, toBuffer, type BodyStream } from './body';

/** The body of a file answer (a call recording): passed on to n8n's binary store as it arrives. */

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
