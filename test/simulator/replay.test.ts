/** Replayed answers: the benchmarks' way to keep the dialer's own work out of what they time. */
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi, compact } from './helpers';

let sim: DialerSimulator;

beforeAll(async () => {
	sim = await startSimulator({ fichas: 50, calls: 50 });
});
afterAll(() => sim?.close());
afterEach(() => {
	sim.replay.on = false;
});

const lastMinutes = () => ({
	form: '41',
	de: compact(new Date(Date.now() - 60_000)),
	ate: compact(new Date(Date.now() + 60_000)),
});

it('is off by default: a ficha filled since shows in the same request made again', async () => {
	expect(sim.replay.on).toBe(false);
	const fields = lastMinutes();
	const before = await callApi(sim, 'getFP1', fields);
	sim.rows.add({ report: 'getFP1', form: 41 });
	const after = await callApi(sim, 'getFP1', fields);
	expect(after.text).not.toBe(before.text);
});

it('while on, sends the same request the same bytes again, whatever changed since', async () => {
	sim.replay.on = true;
	const fields = lastMinutes();
	const first = await callApi(sim, 'getFP1', fields);
	sim.rows.add({ report: 'getFP1', form: 41 });
	const reordered = Object.fromEntries(Object.entries(fields).reverse());
	const again = await callApi(sim, 'getFP1', reordered);
	expect(again.status).toBe(200);
	expect(again.text).toBe(first.text);
	expect(sim.requests.filter((request) => request.operation === 'getFP1').at(-1)?.status).toBe(200);
});

it('never replays to another token or other fields, nor once turned off', async () => {
	sim.replay.on = true;
	const fields = lastMinutes();
	const first = await callApi(sim, 'getFP1', fields);
	expect((await callApi(sim, 'getFP1', fields, { authorization: 'wrong' })).status).toBe(401);
	sim.rows.add({ report: 'getFP1', form: 41 });
	expect((await callApi(sim, 'getFP1', { ...fields, form: '42' })).text).not.toBe(first.text);
	sim.replay.on = false;
	sim.replay.on = true;
	expect((await callApi(sim, 'getFP1', fields)).text).not.toBe(first.text);
});

it('keeps no failed answer, and faults still apply while on', async () => {
	sim.replay.on = true;
	const fields = lastMinutes();
	sim.faults.add({ kind: 'status', status: 503, operation: 'getFP1', times: 1 });
	expect((await callApi(sim, 'getFP1', fields)).status).toBe(503);
	const first = await callApi(sim, 'getFP1', fields);
	expect(first.status).toBe(200);
	sim.faults.add({ kind: 'status', status: 503, operation: 'getFP1', times: 1 });
	expect((await callApi(sim, 'getFP1', fields)).status).toBe(503);
	expect((await callApi(sim, 'getFP1', fields)).text).toBe(first.text);
});
