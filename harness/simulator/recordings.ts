/**
 * Call recordings, where getRQ4's `arquivo` points: telephony audio (8 kHz, mono, 16-bit PCM
 * WAV) as long as the call's `duracao`, made from the call's uid so the same call always gives the
 * same bytes. Served by the dialer itself (token required) or by a second origin, a storage server
 * that needs no token and records whether one reached it anyway.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { CallRecord, SeededData } from './model';
import { Random } from './random';

/** How getRQ4 writes `arquivo`: a full URL, a path on the dialer, or a URL on the storage server. */
export type RecordingLinks = 'absolute' | 'relative' | 'storage';

export const SAMPLE_RATE = 8000;
const BYTES_PER_SECOND = SAMPLE_RATE * 2;
const HEADER_BYTES = 44;
export const WAV_TYPE = 'audio/wav';

/** Answered calls are recorded, except one in eight (a queue without recording). */
export function hasRecording(call: CallRecord): boolean {
	return call.duracaoSegundos > 0 && (call.recorded ?? call.id % 8 !== 0);
}

export function recordingSize(call: CallRecord): number {
	return HEADER_BYTES + call.duracaoSegundos * BYTES_PER_SECOND;
}

function wavHeader(dataBytes: number): Buffer {
	const header = Buffer.alloc(HEADER_BYTES);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(36 + dataBytes, 4);
	header.write('WAVEfmt ', 8, 'ascii');
	header.writeUInt32LE(16, 16); // PCM format block
	header.writeUInt16LE(1, 20); // linear PCM
	header.writeUInt16LE(1, 22); // mono
	header.writeUInt32LE(SAMPLE_RATE, 24);
	header.writeUInt32LE(BYTES_PER_SECOND, 28);
	header.writeUInt16LE(2, 32); // block align
	header.writeUInt16LE(16, 34); // bits per sample
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(dataBytes, 40);
	return header;
}

const SINE = Float64Array.from({ length: 1024 }, (_, index) =>
	Math.sin((2 * Math.PI * index) / 1024),
);

function seedOf(text: string): number {
	let hash = 2166136261;
	for (let index = 0; index < text.length; index++) {
		hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
	}
	return hash >>> 0;
}

/**
 * One second of talk: a voiced stretch (a tone between 150 and 450 Hz with two harmonics, faded in
 * and out like a syllable) then a pause with line noise.
 */
function talk(variant: number): Buffer {
	const random = new Random(Math.imul(variant + 1, 0x9e3779b1));
	const block = Buffer.alloc(BYTES_PER_SECOND);
	const pitch = random.int(150, 450);
	const voiced = random.int(3000, 6500);
	const loudness = random.int(4000, 12000);
	const step = (pitch * 1024) / SAMPLE_RATE;
	let phase = 0;
	for (let sample = 0; sample < SAMPLE_RATE; sample++) {
		let value = (random.next() - 0.5) * 120;
		if (sample < voiced) {
			const fade = Math.min(1, sample / 400, (voiced - sample) / 400);
			const at = Math.floor(phase) & 1023;
			value +=
				fade * loudness * (SINE[at] + 0.5 * SINE[(at * 2) & 1023] + 0.25 * SINE[(at * 3) & 1023]);
			phase += step;
		}
		block.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(value))), sample * 2);
	}
	return block;
}

// Seconds of talk are drawn from a bank made once: serving 200 recordings of 5 MB each costs no
// more than copying them.
const BANK_SIZE = 64;
const bank: Buffer[] = [];
const talkSecond = (variant: number) => (bank[variant] ??= talk(variant));

/** The recording as it goes out: the WAV header, then one second of audio at a time. */
export function* recordingChunks(call: CallRecord): Generator<Buffer> {
	yield wavHeader(call.duracaoSegundos * BYTES_PER_SECOND);
	const random = new Random(seedOf(call.uid));
	for (let index = 0; index < call.duracaoSegundos; index++) {
		yield talkSecond(random.int(0, BANK_SIZE - 1));
	}
}

export function recordingFile(call: CallRecord): Buffer {
	return Buffer.concat([...recordingChunks(call)]);
}

/** The call whose recording a path names (`…/gravacoes/<uid>.wav`), if it has one. */
export function recordedCallAt(data: SeededData, path: string): CallRecord | undefined {
	const match = /\/gravacoes\/([^/]+)\.wav$/.exec(path);
	if (!match) return undefined;
	const uid = decodeURIComponent(match[1]);
	const call = data.calls.find((candidate) => candidate.uid === uid);
	return call && hasRecording(call) ? call : undefined;
}

/** Writes the recording; `bytesPerSecond` makes a slow body (it still ends, just late). */
export async function sendRecording(
	res: ServerResponse,
	call: CallRecord,
	headers: Record<string, string>,
	bytesPerSecond?: number,
): Promise<void> {
	res.writeHead(200, {
		'content-type': WAV_TYPE,
		'content-length': recordingSize(call),
		...headers,
	});
	for (const chunk of recordingChunks(call)) {
		if (res.destroyed) return;
		if (bytesPerSecond !== undefined) {
			for (let start = 0; start < chunk.length && !res.destroyed; start += bytesPerSecond) {
				res.write(chunk.subarray(start, start + bytesPerSecond));
				await delay(1000);
			}
		} else if (!res.write(chunk)) {
			await new Promise<void>((resolve) => {
				const go = () => {
					res.off('drain', go).off('close', go);
					resolve();
				};
				res.on('drain', go).on('close', go);
			});
		}
	}
	res.end();
}

/** A request the storage server received: where, and whether an Authorization header came along. */
export interface StorageRequest {
	path: string;
	authorization: boolean;
	receivedAt: number;
}

export interface StorageServer {
	baseUrl: string;
	requests: StorageRequest[];
	close(): Promise<void>;
}

/** The second origin: serves the same recordings at `/gravacoes/<uid>.wav`, without a token. */
export async function startStorage(data: SeededData, host: string): Promise<StorageServer> {
	const requests: StorageRequest[] = [];
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const path = new URL(req.url ?? '/', 'http://storage').pathname;
		requests.push({
			path,
			authorization: req.headers.authorization !== undefined,
			receivedAt: Date.now(),
		});
		const call = recordedCallAt(data, path);
		if (!call) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
			return;
		}
		void sendRecording(res, call, {}).catch(() => res.destroy());
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, host, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
