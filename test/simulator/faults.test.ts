/** Fault injection: each kind as a client meets it, scoped to one operation or all, limited by times. */
import { request } from 'undici';
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi } from './helpers';

let sim: DialerSimulator;

beforeAll(async () => {
	sim = await startSimulator();
});
afterEach(() => sim.faults.clear());
afterAll(() => sim?.close());

it('latency delays the normal answer: a request sent after it is answered first', async () => {
	const normal = (await callApi(sim, 'getTime')).text;
	sim.faults.add({ kind: 'latency', latencyMs: 500, operation: 'getTime' });
	const order: string[] = [];
	const delayed = callApi(sim, 'getTime').then((answer) => {
		order.push('getTime');
		return answer;
	});
	await callApi(sim, 'getLotesAtivos').then(() => order.push('getLotesAtivos'));
	const answer = await delayed;
	expect(order).toEqual(['getLotesAtivos', 'getTime']);
	expect(answer.status).toBe(200);
	expect(answer.text).toBe(normal);
});

it.each([500, 503])('status answers %i with a JSON error body', async (status) => {
	sim.faults.add({ kind: 'status', status });
	const answer = await callApi(sim, 'getLotesAtivos');
	expect(answer.status).toBe(status);
	expect(answer.json()).toEqual({ status: 'error', message: expect.any(String) });
});

it('html answers 502 with an HTML page by default', async () => {
	sim.faults.add({ kind: 'html' });
	const answer = await callApi(sim, 'getTime');
	expect(answer.status).toBe(502);
	expect(answer.contentType).toMatch(/^text\/html/);
	expect(answer.text).toContain('Bad Gateway');
});

it('truncatedJson answers 200 with the first half of the real JSON', async () => {
	const whole = (await callApi(sim, 'getTime')).text;
	sim.faults.add({ kind: 'truncatedJson' });
	const answer = await callApi(sim, 'getTime');
	expect(answer.status).toBe(200);
	expect(answer.contentType).toMatch(/^application\/json/);
	expect(answer.text).toBe(whole.slice(0, Math.floor(whole.length / 2)));
	expect(() => answer.json()).toThrow();
});

it('errorBody answers 200 with a status error body', async () => {
	sim.faults.add({ kind: 'errorBody', operation: 'getTime' });
	const answer = await callApi(sim, 'getTime');
	expect(answer.status).toBe(200);
	expect(answer.json()).toEqual({ status: 'error', message: expect.any(String) });
});

it('redirect sends an API request on to the same path at the storage origin, POST kept (307)', async () => {
	sim.faults.add({ kind: 'redirect', operation: 'getTime' });
	const answer = await callApi(sim, 'getTime');
	expect(answer.status).toBe(307);
	expect(answer.headers.location).toBe(`${sim.storage.baseUrl}/${sim.pathSegment}/api/getTime`);
});

it('empty answers 200 with no body', async () => {
	sim.faults.add({ kind: 'empty' });
	const answer = await callApi(sim, 'getTime');
	expect(answer.status).toBe(200);
	expect(answer.text).toBe('');
});

it('reset drops the connection without an answer, recorded with status 0', async () => {
	sim.faults.add({ kind: 'reset', operation: 'getTime', times: 1 });
	sim.clearRequests();
	await expect(
		request(`${sim.apiUrl}/getTime`, {
			method: 'POST',
			headers: { authorization: sim.token, 'content-type': 'application/x-www-form-urlencoded' },
			body: '',
		}),
	).rejects.toThrow();
	expect(sim.requests[0]).toMatchObject({ operation: 'getTime', status: 0 });
});

it('scoped to one operation leaves the others alone', async () => {
	sim.faults.add({ kind: 'status', status: 503, operation: 'getRQ4' });
	expect((await callApi(sim, 'getTime')).status).toBe(200);
});

it('with times fires only that often', async () => {
	sim.faults.add({ kind: 'status', status: 500, times: 2 });
	const statuses = [];
	for (let i = 0; i < 3; i++) statuses.push((await callApi(sim, 'getTime')).status);
	expect(statuses).toEqual([500, 500, 200]);
});

it('stays until cleared when times is not given', async () => {
	sim.faults.add({ kind: 'empty', operation: 'getTime' });
	for (let i = 0; i < 3; i++) expect((await callApi(sim, 'getTime')).text).toBe('');
	sim.faults.clear();
	expect((await callApi(sim, 'getTime')).text).not.toBe('');
});

it('refuses an unknown kind', () => {
	expect(() => sim.faults.add({ kind: 'explode' as never })).toThrow(/kind/);
});
