/**
 * What users see when the dialer or the network misbehaves: every fault class of the simulator's
 * fault injection, a refused connection and an untrusted certificate each give an error that
 * names the operation, the HTTP status where there is one, and a hint; with "continue on fail"
 * a 500-item run keeps every item that could succeed.
 */
import { createServer } from 'node:net';

import { startSimulator } from '../../simulator';
import type { DialerSimulator, Fault } from '../../simulator/types';
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

describe('each fault class becomes a clear error, titled with the operation users chose', () => {
	it.each<[string, Fault, RegExp, RegExp]>([
		[
			'a 5xx with a JSON body',
			{ kind: 'status', status: 500 },
			/Team → Get Many failed \(HTTP 500\): Erro interno do servidor/,
			/Retry later.*\(API operation: getTime\)/,
		],
		[
			'a 503',
			{ kind: 'status', status: 503 },
			/Team → Get Many failed \(HTTP 503\)/,
			/Retry later/,
		],
		[
			'a 4xx',
			{ kind: 'status', status: 400 },
			/Team → Get Many failed \(HTTP 400\)/,
			/Check the parameters/,
		],
		[
			'an HTML error page',
			{ kind: 'html', status: 502 },
			/Team → Get Many failed \(HTTP 502\): (?!.*<)/,
			/Retry later/,
		],
		[
			'truncated JSON',
			{ kind: 'truncatedJson' },
			/Team → Get Many failed \(HTTP 200\): answer ended before its JSON did, after \d+ bytes/,
			/cut the answer short/,
		],
		[
			'a 200 whose body reports failure',
			{ kind: 'errorBody' },
			/Team → Get Many failed \(HTTP 200\): Falha temporária/,
			/refused the request/,
		],
		[
			'an empty body',
			{ kind: 'empty' },
			/Team → Get Many failed \(HTTP 200\): empty answer instead of JSON/,
			/unexpected page/,
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

describe('continue on fail over 500 items', () => {
	it('keeps every item that could succeed and records the error on each failing one', async () => {
		const extensions = dialer.sim.data.extensions.map((extension) => extension.numero);
		// Every 10th item asks the server about a malformed extension (the server refuses it);
		// every 25th has none at all (the node refuses it before sending).
		const items = Array.from({ length: 500 }, (_, i) => ({
			extension: i % 25 === 7 ? '' : i % 10 === 3 ? `x${i}` : extensions[i % extensions.length],
		}));
		const {
			status,
			items: output,
			requests,
		} = await dialer.run(
			{
				resource: 'call',
				operation: 'getActive',
				extension: '={{ $json.extension }}',
				options: { parallelRequests: 8 },
			},
			{ items, continueOnFail: true },
		);
		expect(status).toBe(200);
		expect(output).toHaveLength(500);
		const refusedLocally = items.filter((item) => item.extension === '').length;
		expect(requests).toHaveLength(500 - refusedLocally);
		output.forEach((item, i) => {
			const input = items[i].extension;
			if (input === '') expect(item.error).toMatch(/Extension: is empty/);
			else if (input.startsWith('x'))
				expect(item.error).toMatch(/Call → Get Active failed \(HTTP 400\)/);
			else expect(item).toMatchObject({ extension: input, active: expect.any(Boolean) });
		});
	});
});
