/**
 * What holds the memory when recordings stream into n8n's filesystem binary store, outside n8n:
 * files served over HTTP on 127.0.0.1, downloaded `parallel` at a time, each body written to disk
 * as n8n's store does (fs.promises.writeFile of the stream), in a process whose heap holds as
 * many live objects as n8n's. Each case runs in a fresh child process with its V8 flags; it
 * reports the time, the peak of ArrayBuffer memory (the sockets' chunks) and of RSS above the
 * idle process, and the garbage collections V8 ran meanwhile.
 *
 *   PATH=<Node 24 bin>:$PATH npx tsx harness/bench/probes/recordingBuffers.ts [--heap-mb 200] [--quick]
 *     [--bodies direct,watched,axios,axios+watched]
 *
 * (--quick: a tenth of the files, to try it; --bodies: only 200 × 5 MB, passed on those ways.)
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { Readable } from 'node:stream';

/** How the body reaches the store; see BODIES. */
type Consume = keyof typeof BODIES;

interface Case {
	flags: string[];
	consume: Consume;
	files: number;
	mb: number;
	parallel: number;
	heapMb: number;
}

const option = (name: string, fallback: number) => {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
};

const CAPPED = '--max-semi-space-size=1';

/** What n8n 2.x's httpRequest helper hands over: axios 1.21 passes a streamed body through an
 * async generator that counts it against maxContentLength (Infinity there, so always). */
const throughAxios = (body: Readable) =>
	Readable.from(
		(async function* () {
			for await (const chunk of body) yield chunk as Buffer;
		})(),
		{ objectMode: false },
	);

/**
 * The Dialer node's way: the stream itself, paused, its chunks counted against Max File Size
 * (200 MB by default) by 'data' events as the store reads them.
 */
function watched(body: Readable): Readable {
	let bytes = 0;
	body.pause();
	body.on('data', (chunk: Buffer) => {
		bytes += chunk.length;
		if (bytes > 200 * 1_048_576) body.destroy(new Error('above Max File Size'));
	});
	return body;
}

/** The ways a body is passed to the store. */
const BODIES = {
	/** As is: n8n's HTTP Request node (the legacy request helper gives the socket's stream). */
	direct: (body: Readable) => body,
	/** Through Readable.map: the Dialer node's earlier way, for comparison. */
	map: (body: Readable) => body.map((chunk: Buffer) => chunk),
	/** Watched: the Dialer node on n8n 1.x, whose httpRequest helper gives the socket's stream. */
	watched,
	axios: throughAxios,
	/** Watched, behind axios's generator: the Dialer node on n8n 2.x. */
	'axios+watched': (body: Readable) => watched(throughAxios(body)),
};

function cases(heapMb: number, divide: number, bodies?: Consume[]): Case[] {
	const base = { consume: 'map' as const, parallel: 5, heapMb };
	if (bodies) {
		return [[], [CAPPED]].flatMap((flags) =>
			bodies.map((consume) => ({ ...base, files: 200 / divide, mb: 5, flags, consume })),
		);
	}
	const grid = [
		{ files: 50, mb: 5 },
		{ files: 200, mb: 5 },
		{ files: 50, mb: 1 },
		{ files: 50, mb: 20 },
	];
	return [[], [CAPPED]].flatMap((flags) => [
		...grid.map((size) => ({ ...base, ...size, files: size.files / divide, flags })),
		{ ...base, files: 200 / divide, mb: 5, flags, consume: 'direct' as const },
	]);
}

/** Serves `/<bytes>/<n>`: that many bytes in 16,000-byte writes (the simulator's seconds of audio). */
async function serve(): Promise<{ port: number; close: () => void }> {
	const second = Buffer.alloc(16_000, 7);
	const server = createServer(async (req, res) => {
		const size = Number((req.url ?? '/0').split('/')[1]);
		res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': size });
		for (let sent = 0; sent < size;) {
			const chunk = second.subarray(0, Math.min(second.length, size - sent));
			sent += chunk.length;
			if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
		}
		res.end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

const statusMb = (field: string) =>
	Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) /
	1024;

async function child(run: Case) {
	// Live objects like n8n's heap: a full collection has to mark them all.
	const heap: object[] = [];
	for (let i = 0; i < (run.heapMb * 1_048_576) / 64; i++) heap.push({ i, s: `x${i}`, a: [i] });
	const server = await serve();
	const dir = await mkdtemp(path.join(tmpdir(), 'recording-buffers-'));
	const size = Math.round(run.mb * 1_048_576);
	const download = (n: number) =>
		new Promise<void>((resolve, reject) => {
			const path = `/${size}/${n}`;
			get({ host: '127.0.0.1', port: server.port, path, agent: false }, (res: IncomingMessage) => {
				writeFile(`${dir}/${n}`, BODIES[run.consume](res)).then(resolve, reject);
			}).on('error', reject);
		});
	const round = async () => {
		let next = 0;
		const worker = async () => {
			while (next < run.files) await download(next++);
		};
		await Promise.all(Array.from({ length: run.parallel }, worker));
	};
	await round(); // warm-up
	(globalThis as { gc?: () => void }).gc?.();
	await new Promise((resolve) => setTimeout(resolve, 500));
	const idleRss = statusMb('VmRSS');
	writeFileSync('/proc/self/clear_refs', '5');
	const gcs = { minor: 0, major: 0, majorMs: 0 };
	const observer = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			const kind = (entry as unknown as { detail: { kind: number } }).detail.kind;
			if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcs.minor++;
			if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
				gcs.major++;
				gcs.majorMs += entry.duration;
			}
		}
	});
	observer.observe({ entryTypes: ['gc'] });
	let peakArrayBuffers = 0;
	const sampler = setInterval(() => {
		peakArrayBuffers = Math.max(peakArrayBuffers, process.memoryUsage().arrayBuffers);
	}, 5);
	const started = performance.now();
	await round();
	const ms = performance.now() - started;
	clearInterval(sampler);
	await new Promise((resolve) => setTimeout(resolve, 100));
	observer.disconnect();
	server.close();
	await rm(dir, { recursive: true, force: true });
	process.send?.({
		ms,
		arrayBuffersMb: peakArrayBuffers / 1_048_576,
		rssAddedMb: statusMb('VmHWM') - idleRss,
		heapMb: process.memoryUsage().heapUsed / 1_048_576,
		live: heap.length,
		...gcs,
	});
}

async function main() {
	const heapMb = option('heap-mb', 200);
	console.log(`Node ${process.version}, a heap of about ${heapMb} MB of live objects`);
	console.log(
		'| V8 flags | Body | Files | Time | Peak ArrayBuffers | Peak RSS added | Minor GCs | Full GCs (time) |',
	);
	console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
	const at = process.argv.indexOf('--bodies');
	const bodies = at > 0 ? (process.argv[at + 1].split(',') as Consume[]) : undefined;
	for (const run of cases(heapMb, process.argv.includes('--quick') ? 10 : 1, bodies)) {
		const execArgv = [...process.execArgv, '--expose-gc', ...run.flags];
		const worker = fork(__filename, ['--child', JSON.stringify(run)], { execArgv });
		const r = await new Promise<Record<string, number>>((resolve, reject) => {
			worker.once('message', (message) => resolve(message as Record<string, number>));
			worker.once('exit', (code) => reject(new Error(`case ended with ${code}`)));
		});
		worker.kill();
		const mb = (value: number) => `${Math.round(value)} MB`;
		console.log(
			`| ${run.flags.join(' ') || 'defaults'} | ${run.consume} | ${run.files} × ${run.mb} MB | ${Math.round(r.ms).toLocaleString('en-US')} ms | ${mb(r.arrayBuffersMb)} | ${mb(r.rssAddedMb)} | ${r.minor} | ${r.major} (${Math.round(r.majorMs)} ms) |`,
		);
	}
}

const at = process.argv.indexOf('--child');
void (at > 0 ? child(JSON.parse(process.argv[at + 1]) as Case) : main());
