/**
 * What users see when the connection to the dialer misbehaves, in a real n8n on each tested n8n
 * line, since each line's HTTP client reports these its own way: a truncated body, a reset, a
 * redirect to another origin, latency beyond and within the timeout, a refused connection, a
 * wrong token or path segment, and an untrusted certificate each give an error that names the
 * operation, the HTTP status where there is one, and a hint. How the node reads an answer's status
 * and body (5xx, 4xx, HTML pages, a 200 that reports failure, an empty body) and continue on fail
 * over 500 items run in n8n's engine in process: test/unit/engine/errors.test.ts.
 */
import { createServer } from 'node:net';

import { startSimulator } from '../../harness/simulator';
import type { DialerSimulator, Fault } from '../../harness/simulator/types';
import { DialerRunner } from './support/dialerRunner';

let dialer: DialerRunner;
const listTeams = { resource: 'team', operation: 'getMany', returnAll: true, filters: {} };

/** A loopback port with nothing listening: bind one, then close it. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

beforeAll(async () => {
	dialer = await DialerRunner.start();
});

afterAll(async () => {
	await dialer?.close();
});

afterEach(() => dialer.sim.faults.clear());

describe('each connection fault becomes a clear error, titled with the operation users chose', () => {
	it.each<[string, Fault, RegExp, RegExp]>([
		[
			'truncated JSON',
			{ kind: 'truncatedJson' },
			/Team → Get Many failed \(HTTP 200\): answer ended before its JSON did, after \d+ bytes/,
			/cut the answer short/,
		],
		[
			'a reset connection',
			{ kind: 'reset' },
			/Team → Get Many failed: connection closed by the server/,
			/was closed before an answer came/,
		],
	])('%s', async (_name, fault, message, hint) => {
		dialer.sim.faults.add({ ...fault, operation: 'getTime' });
		const { status, error } = await dialer.run(listTeams);
		expect(status).toBeGreaterThanOrEqual(500);
		expect(error).toMatch(message);
		expect(error).toMatch(hint);
		expect(error).not.toContain(dialer.token);
	});

	it('a redirect of the API to another origin, which the token does not follow', async () => {
		const storage = dialer.sim.storage;
		const before = storage.requests.length;
		dialer.sim.faults.add({ kind: 'redirect', operation: 'getTime' });
		const { error } = await dialer.run(listTeams);
		expect(error).toMatch(/Team → Get Many failed \(HTTP 307\)/);
		expect(error).toContain(`redirects the API to ${storage.baseUrl}`);
		expect(storage.requests.slice(before).filter((request) => request.authorization)).toEqual([]);
		expect(error).not.toContain(dialer.token);
	});

	it('latency beyond the timeout', async () => {
		dialer.sim.faults.add({ kind: 'latency', latencyMs: 3000, operation: 'getTime', times: 1 });
		const { error } = await dialer.run({ ...listTeams, options: { timeout: 500 } });
		expect(error).toMatch(/Team → Get Many failed: no answer in time/);
		expect(error).toMatch(
			/No answer in time from http:\/\/127\.0\.0\.1:\d+, the credential's Base URL/,
		);
	});

	it('latency within the timeout is only slower', async () => {
		dialer.sim.faults.add({ kind: 'latency', latencyMs: 300, operation: 'getTime', times: 1 });
		const { status, items } = await dialer.run({ ...listTeams, options: { timeout: 5000 } });
		expect(status).toBe(200);
		expect(items.length).toBeGreaterThan(0);
	});

	it('a refused connection', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}`;
		const nowhere = await dialer.createCredential({ baseUrl });
		const { error } = await dialer.run(listTeams, { credential: nowhere });
		expect(error).toMatch(/Team → Get Many failed: connection refused/);
		expect(error).toContain(`Nothing accepts connections at ${baseUrl}, the credential's Base URL`);
		expect(error).toMatch(/host and the port/);
	});

	it('a wrong token (HTTP 401)', async () => {
		const wrong = await dialer.createCredential({ token: 'not-the-token' });
		const { error } = await dialer.run(listTeams, { credential: wrong });
		expect(error).toMatch(/Team → Get Many failed \(HTTP 401\)/);
		expect(error).toMatch(/rejected the token/);
	});

	it('a wrong path segment (HTTP 404 page)', async () => {
		const wrong = await dialer.createCredential({ pathSegment: 'nope' });
		const { error } = await dialer.run(listTeams, { credential: wrong });
		expect(error).toMatch(/Team → Get Many failed \(HTTP 404\)/);
		expect(error).toMatch(/path segment/);
	});
});

describe('a self-signed HTTPS dialer', () => {
	let tlsSim: DialerSimulator;

	beforeAll(async () => {
		tlsSim = await startSimulator({ tls: true, token: dialer.token });
	});

	afterAll(async () => {
		await tlsSim?.close();
	});

	it('is refused with a hint to turn on Ignore SSL Issues', async () => {
		const strict = await dialer.createCredential({
			baseUrl: tlsSim.baseUrl,
			ignoreSslIssues: false,
		});
		const { error } = await dialer.run(listTeams, { credential: strict });
		expect(error).toMatch(/Team → Get Many failed: TLS certificate not trusted/);
		expect(error).toMatch(/Ignore SSL Issues/);
	});

	it('works once Ignore SSL Issues is on', async () => {
		const lenient = await dialer.createCredential({
			baseUrl: tlsSim.baseUrl,
			ignoreSslIssues: true,
		});
		const { status, items } = await dialer.run(listTeams, { credential: lenient });
		expect(status).toBe(200);
		expect(items.length).toBe(tlsSim.data.teams.length);
	});
});
