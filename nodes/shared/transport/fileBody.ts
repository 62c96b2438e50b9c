import type { IExecuteFunctions } from 'n8n-workflow';

import {
	bodyStream,
	DESCRIBED_BYTES,
	isNodeStream,
	release,
	toBuffer,
	type BodyStream,
} from './body';

/** The body of a file answer (a call recording): handed to n8n's binary store as it arrives. */

/** What n8n's binary store takes: a whole buffer, or a stream it reads as it stores. */
export type FileBody = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

type FileStream = Extract<FileBody, { pipe: unknown }>;

const isFileStream = (body: unknown): body is FileStream => isNodeStream(body);

/**
 * A file's body for n8n's binary store, never gathered here: the client's own stream, handed over
 * unchanged. `check` sees every byte once, in order, and stops the download by returning why; it
 * sees the first `checkedFirst` bytes (all of a shorter body) before the store gets any. A body
 * that came whole within them is given as a buffer; undefined for one without bytes. The
 * deadline and the execution's cancel signal stop the download too, also while the server sends
 * nothing.
 */
export async function fileBody(
	body: unknown,
	signal: AbortSignal,
	check: (chunk: Buffer) => string | undefined,
	checkedFirst: number,
): Promise<FileBody | undefined> {
	const { start, whole } = await bodyStream(body, signal, (error) => error as Error).peek(
		checkedFirst,
	);
	const problem = start.length > 0 ? check(start) : undefined;
	if (problem !== undefined) {
		release(body);
		throw new Error(problem);
	}
	if (start.length === 0) return undefined;
	if (whole || !isFileStream(body)) return start;
	watch(body, start.length, signal, check);
	return body;
}

/**
 * Shows `check` each chunk n8n's store takes from `stream` after the first `seen` bytes (checked
 * already), by the 'data' events reading emits: no copy, no promise per chunk. A problem, the
 * deadline or the cancel signal destroys the stream with an error, which the store then throws.
 */
function watch(
	stream: FileStream,
	seen: number,
	signal: AbortSignal,
	check: (chunk: Buffer) => string | undefined,
): void {
	let unseen = seen;
	stream.on('data', (chunk: unknown) => {
		const bytes = toBuffer(chunk);
		const skipped = Math.min(unseen, bytes.length);
		unseen -= skipped;
		const problem = skipped < bytes.length ? check(bytes.subarray(skipped)) : undefined;
		if (problem !== undefined) stream.destroy(new Error(problem));
	});
	// Paused by the peek, the stream would not start for a store that only listens to 'data' (n8n's
	// memory, database and S3 modes): it starts as it would have, unpaused, when one listens.
	const startForReader = (event: string | symbol) => {
		if (event !== 'data') return;
		stream.off('newListener', startForReader);
		stream.resume();
	};
	stream.on('newListener', startForReader);
	// The store listens for errors once it reads; one before would be thrown as uncaught.
	stream.on('error', () => undefined);
	const abort = () => stream.destroy(new Error('reading the file was aborted'));
	signal.addEventListener('abort', abort, { once: true });
	stream.once('close', () => signal.removeEventListener('abort', abort));
}

/**
 * The first bytes of a body (enough to describe it), the rest left unread; `cut` when the body
 * may go on after them.
 */
export async function readStart(
	body: BodyStream,
	bytes = DESCRIBED_BYTES,
): Promise<{ text: string; cut: boolean }> {
	const start: Buffer[] = [];
	let length = 0;
	await body.read((chunk) => {
		start.push(chunk.subarray(0, bytes - length));
		length += start[start.length - 1].length;
		return length < bytes;
	});
	return { text: Buffer.concat(start).toString('utf8'), cut: length >= bytes };
}
