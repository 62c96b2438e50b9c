/**
 * Call recordings: getRQ4's `arquivo` links to telephony WAV files as long as the call, served by
 * the dialer with its token (absolute or relative links) or by a storage server on a second
 * origin, with the faults a download must survive.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi, lastDays, type Loose } from './helpers';

let sim: DialerSimulator;
const week = lastDays(7);

beforeAll(async () => {
	sim = await startSimulator();
});
afterEach(() => {
	sim.faults.clear();
	sim.recordings.links = 'absolute';
});
afterAll(() => sim?.close());

async function rows(): Promise<Loose[]> {
	return (await callApi(sim, 'getRQ4', week)).json().data;
}

async function download(url: string, authorization: string | null = sim.token) {
	const response = await request(new URL(url, sim.baseUrl), {
		headers: authorization === null ? {} : { authorization },
	});
	return {
		status: response.statusCode,
		headers: response.headers,
		body: Buffer.from(await response.body.arrayBuffer()),
	};
}

const seconds = (duracao: string) =>
	duracao.split(':').reduce((total, part) => total * 60 + Number(part), 0);

it('links each recorded call to an 8 kHz mono 16-bit WAV as long as the call', async () => {
	const recorded = (await rows()).filter((row) => row.arquivo !== '').slice(0, 3);
	for (const row of recorded) {
		expect(row.arquivo).toMatch(new RegExp(`^${sim.baseUrl}/ipbox/gravacoes/.+\\.wav$`));
		const file = await download(row.arquivo);
		expect(file.status).toBe(200);
		expect(file.headers['content-type']).toBe('audio/wav');
		expect(file.headers['content-disposition']).toBe(
			`attachment; filename="gravacao-${row.protocolo}.wav"`,
		);
		const { body } = file;
		expect(body.subarray(0, 4).toString()).toBe('RIFF');
		expect(body.subarray(8, 16).toString()).toBe('WAVEfmt ');
		expect([body.readUInt16LE(20), body.readUInt16LE(22)]).toEqual([1, 1]);
		expect([body.readUInt32LE(24), body.readUInt16LE(34)]).toEqual([8000, 16]);
		expect(body.readUInt32LE(40) / 16000).toBe(seconds(row.duracao));
		expect(body.length).toBe(44 + seconds(row.duracao) * 16000);
	}
});

it('serves the same bytes for the same call, different ones for different calls', async () => {
	const [first, second] = (await rows()).filter((row) => row.arquivo !== '');
	const hash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
	const once = await download(first.arquivo);
	expect(hash((await download(first.arquivo)).body)).toBe(hash(once.body));
	expect(hash(sim.recordings.file(first.protocolo)!)).toBe(hash(once.body));
	expect(hash((await download(second.arquivo)).body)).not.toBe(hash(once.body));
});

it('sounds like a call: voiced stretches well above the line noise', async () => {
	const row = (await rows()).find((candidate) => candidate.arquivo !== '');
	const { body } = await download(row.arquivo);
	const second = Array.from({ length: 8000 }, (_, index) => body.readInt16LE(44 + index * 2));
	const loud = second.filter((sample) => Math.abs(sample) > 1000).length;
	expect(loud).toBeGreaterThan(1000);
	expect(loud).toBeLessThan(8000);
});

it('leaves arquivo empty for calls without a recording, one in eight', async () => {
	const all = await rows();
	const empty = all.filter((row) => row.arquivo === '');
	expect(empty.length).toBeGreaterThan(0);
	expect(empty.length).toBeLessThan(all.length / 4);
	const [arrived] = sim.rows.add({ report: 'getRQ4', recorded: false, durationSeconds: 3 });
	expect(sim.recordings.file(arrived.protocolo!)).toBeUndefined();
});

it('asks for the token on the dialer, and answers 404 for an unknown recording', async () => {
	const row = (await rows()).find((candidate) => candidate.arquivo !== '');
	expect((await download(row.arquivo, null)).status).toBe(401);
	const missing = await download(`${sim.baseUrl}/ipbox/gravacoes/nao-existe.wav`);
	expect(missing.status).toBe(404);
	expect(missing.headers['content-type']).toMatch(/^text\/html/);
});

it('writes relative links or links to the storage server when told to', async () => {
	const control = await request(`${sim.baseUrl}/__simulator/recordings`, {
		method: 'POST',
		body: JSON.stringify({ links: 'relative' }),
	});
	expect(control.statusCode).toBe(200);
	await control.body.dump();
	const relative = (await rows()).find((row) => row.arquivo !== '');
	expect(relative.arquivo).toMatch(/^\/ipbox\/gravacoes\/.+\.wav$/);
	expect((await download(relative.arquivo)).status).toBe(200);

	sim.recordings.links = 'storage';
	const stored = (await rows()).find((row) => row.protocolo === relative.protocolo);
	expect(stored.arquivo.startsWith(`${sim.storage.baseUrl}/gravacoes/`)).toBe(true);
	const file = await download(stored.arquivo, null);
	expect(file.status).toBe(200);
	expect(file.body.equals(sim.recordings.file(stored.protocolo)!)).toBe(true);
	expect(sim.storage.requests.at(-1)).toMatchObject({ authorization: false });
});

describe('faults of one recording, the others untouched', () => {
	let target: Loose;
	let other: Loose;
	beforeAll(async () => {
		[target, other] = (await rows()).filter((row) => row.arquivo !== '');
	});

	it('missing answers a 404 page', async () => {
		sim.faults.add({ operation: 'recording', kind: 'missing', recording: target.protocolo });
		expect((await download(target.arquivo)).status).toBe(404);
		expect((await download(other.arquivo)).status).toBe(200);
	});

	it('loginPage answers 200 with an HTML login form', async () => {
		sim.faults.add({ operation: 'recording', kind: 'loginPage', recording: target.protocolo });
		const page = await download(target.arquivo);
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toMatch(/^text\/html/);
		expect(page.body.toString()).toContain('Senha');
	});

	it('slowBody sends the headers at once and the bytes at the given rate', async () => {
		sim.faults.add({
			operation: 'recording',
			kind: 'slowBody',
			recording: target.protocolo,
			bytesPerSecond: 4000,
		});
		const response = await request(target.arquivo, { headers: { authorization: sim.token } });
		expect(response.statusCode).toBe(200);
		const started = Date.now();
		const reader = response.body[Symbol.asyncIterator]();
		let received = 0;
		while (Date.now() - started < 1500) received += ((await reader.next()).value as Buffer).length;
		expect(received).toBeLessThanOrEqual(44 + 3 * 4000);
		response.body.destroy();
	});

	it('compressed sends the file gzip-encoded, with the length of the gzip', async () => {
		sim.faults.add({ operation: 'recording', kind: 'compressed', recording: target.protocolo });
		const { status, headers, body } = await download(target.arquivo);
		expect(status).toBe(200);
		expect(headers).toMatchObject({
			'content-encoding': 'gzip',
			'content-length': String(body.length),
		});
		expect(gunzipSync(body).equals(sim.recordings.file(target.protocolo)!)).toBe(true);
	});

	it("untyped sends the file as PHP's default text/html, without a name", async () => {
		sim.faults.add({ operation: 'recording', kind: 'untyped', recording: target.protocolo });
		const { headers, body } = await download(target.arquivo);
		expect(headers['content-type']).toBe('text/html; charset=UTF-8');
		expect(headers['content-disposition']).toBeUndefined();
		expect(body.equals(sim.recordings.file(target.protocolo)!)).toBe(true);
	});

	it('redirect sends the dialer request to the storage server, which records the token', async () => {
		sim.faults.add({ operation: 'recording', kind: 'redirect', recording: target.protocolo });
		const redirect = await download(target.arquivo);
		expect(redirect.status).toBe(302);
		const location = String(redirect.headers.location);
		expect(location.startsWith(`${sim.storage.baseUrl}/gravacoes/`)).toBe(true);
		const withToken = await download(location);
		expect(withToken.body.equals(sim.recordings.file(target.protocolo)!)).toBe(true);
		expect(sim.storage.requests.at(-1)).toMatchObject({ authorization: true });
	});
});
