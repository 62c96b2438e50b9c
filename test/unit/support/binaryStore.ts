import type { Readable } from 'node:stream';

import type { IBinaryData } from 'n8n-workflow';

/** What n8n's binary store was handed, and the bytes it took, stored or not. */
export interface StoreCall {
	body: Buffer | Readable;
	taken: Buffer[];
}

/**
 * How n8n's binary store reads a stream: `filesystem` (its default) as fs.writeFile does, by async
 * iteration after making its folder; `memory` as n8n's default, database and S3 modes do
 * (streamToBuffer), by 'data' events alone.
 */
export type StoreMode = 'filesystem' | 'memory';

/** A stream read as n8n's memory, database and S3 modes read it: 'data' events, nothing else. */
function readByDataEvents(stream: Readable, taken: Buffer[]): Promise<void> {
	return new Promise((resolve, reject) => {
		stream.on('data', (chunk: Buffer) => taken.push(chunk));
		stream.once('end', resolve);
		stream.once('error', reject);
	});
}

/**
 * n8n's prepareBinaryData, reading a stream as its store in `mode` does (chunk by chunk, as it
 * comes); each call lands in `stored`.
 */
export function fakePrepareBinaryData(stored: StoreCall[] = [], mode: StoreMode = 'filesystem') {
	return async (
		data: Buffer | Readable,
		fileName?: string,
		mimeType?: string,
	): Promise<IBinaryData> => {
		const taken: Buffer[] = [];
		stored.push({ body: data, taken });
		if (Buffer.isBuffer(data)) taken.push(data);
		else if (mode === 'memory') await readByDataEvents(data, taken);
		else {
			// Its folder made first (a round of I/O): the stream waits, unread, meanwhile.
			await new Promise((resolve) => setImmediate(resolve));
			for await (const chunk of data) taken.push(chunk as Buffer);
		}
		const whole = Buffer.concat(taken);
		return {
			data: whole.toString('base64'),
			fileName,
			mimeType: mimeType ?? 'application/octet-stream',
			bytes: whole.length,
		};
	};
}
