/**
 * Polls of one Dialer Report Trigger that n8n runs side by side emit each row once: a poll
 * started while another of the same trigger is reading skips, also when n8n hands each poll its
 * own copy of the trigger's state (n8n 2.41's durable poll cursors, whose scheduler starts every
 * poll it missed during an outage at once).
 */
import type { IDataObject } from 'n8n-workflow';

import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { startSimulator, type DialerSimulator } from '../../../harness/simulator';
import { fakePollFunctions, type Emitted } from '../support/pollFunctions';

let sim: DialerSimulator;
const trigger = new DialerReportTrigger();
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const parameters = { event: 'newFilledForm', form: '41', filters: {} };
let workflows = 0;

beforeAll(async () => {
	sim = await startSimulator({ fichas: 0, calls: 0 });
});
afterAll(() => sim?.close());
afterEach(() => sim.faults.clear());

const fill = (count = 1) =>
	sim.rows.add({ report: 'getFP1', form: 41, count }).map((row) => String(row.id));
const fichasOf = (emitted: Emitted[]) =>
	emitted.flatMap(({ items }) => items[0].map((item) => String(item.json.ficha)));
/** A rejection is handled on the next turn of the event loop. */
const settle = () => new Promise((resolve) => setImmediate(resolve));
const sameState = (a: IDataObject, b: IDataObject) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A trigger under n8n 2.41 with N8N_POLLER_DURABLE_CURSORS_ENABLED: the node's state is stored
 * apart; each poll works on a copy read when n8n started it, stored together with the execution
 * of the rows it emits (both or neither), or alone when it emits nothing.
 */
function durableTrigger() {
	const workflowId = `durable-${++workflows}`;
	let stored: IDataObject = {};
	/** A poll n8n starts now: it reads its copy of the stored state before it polls. */
	const start = () => {
		const copy = JSON.parse(JSON.stringify(stored)) as IDataObject;
		const emitted: Emitted[] = [];
		const context = fakePollFunctions({
			sim,
			parameters,
			staticData: copy,
			timezone: ZONE,
			emitted,
			workflowId,
		});
		/** n8n stores the copy alone when it changed since the poll's emit (or start). */
		const storeStateAlone = () => {
			if (!sameState(copy, emitted[0]?.state ?? stored)) stored = copy;
		};
		const polled = (async () => {
			await trigger.poll.call(context);
			if (emitted.length === 0) storeStateAlone();
			return {
				fichas: fichasOf(emitted),
				/** n8n stored the execution and the state the poll emitted with, and ran it. */
				stored: () => {
					stored = emitted[0].state;
					emitted[0].done.resolve(undefined);
				},
				/** n8n could not store the execution: the state stays as it was. */
				notStored: (error = new Error('Connection terminated unexpectedly')) =>
					emitted[0].done.reject(error),
				storeStateAlone,
			};
		})();
		return polled;
	};
	/** The activation's first poll, stored (rows of earlier tests within the Overlap Window). */
	const activate = async () => {
		const first = await start();
		if (first.fichas.length > 0) first.stored();
		await settle();
	};
	return { start, activate };
}

it('a poll started while the previous one of the same trigger is reading skips', async () => {
	const staticData: IDataObject = {};
	const emitted: Emitted[] = [];
	const context = () => fakePollFunctions({ sim, parameters, staticData, timezone: ZONE, emitted });
	await trigger.poll.call(context());
	emitted.length = 0;
	const filled = fill(2);
	sim.faults.add({ kind: 'latency', operation: 'getFP1', latencyMs: 300 });
	const [first, second] = await Promise.all([
		trigger.poll.call(context()),
		trigger.poll.call(context()),
	]);
	expect([first, second]).toEqual([null, null]);
	expect(emitted).toHaveLength(1);
	expect(fichasOf(emitted)).toEqual(filled);
});

describe('with n8n 2.41 durable poll cursors', () => {
	it('polls n8n starts at once after an outage, each from the same stored state, emit each row once', async () => {
		const { start, activate } = durableTrigger();
		await activate();
		const filled = fill(3);
		sim.faults.add({ kind: 'latency', operation: 'getFP1', latencyMs: 300 });
		const polls = await Promise.all([start(), start(), start()]);
		expect(polls.flatMap(({ fichas }) => fichas)).toEqual(filled);
	});

	it('a poll started before the previous poll was stored emits nothing; the next goes on', async () => {
		const { start, activate } = durableTrigger();
		await activate();
		const first = fill(2);
		const emitting = await start();
		expect(emitting.fichas).toEqual(first);
		// Started while n8n was still storing that poll's execution: its copy is the state before.
		const early = start();
		const later = fill();
		expect((await early).fichas).toEqual([]);
		emitting.stored();
		await settle();
		expect((await start()).fichas).toEqual(later);
	});

	it('a poll started before the first poll of an activation was stored emits nothing', async () => {
		const { start } = durableTrigger();
		const filled = fill(2);
		const first = await start();
		expect(first.fichas).toEqual(expect.arrayContaining(filled));
		const early = start();
		expect((await early).fichas).toEqual([]);
		first.stored();
		await settle();
		expect((await start()).fichas).toEqual([]);
	});

	it('rows whose execution n8n could not store come once, on the next poll', async () => {
		const { start, activate } = durableTrigger();
		await activate();
		const lost = fill(2);
		const failed = await start();
		failed.notStored();
		await settle();
		const next = await start();
		expect(next.fichas).toEqual(lost);
		next.stored();
		await settle();
		expect((await start()).fichas).toEqual([]);
	});

	it('rows whose failed store n8n reports before it stores the poll state alone come once', async () => {
		const { start, activate } = durableTrigger();
		await activate();
		const lost = fill(2);
		const failed = await start();
		failed.notStored();
		await settle();
		// n8n stores the copy alone when it changed after the emit: the rows kept to emit again.
		failed.storeStateAlone();
		const next = await start();
		expect(next.fichas).toEqual(lost);
		next.stored();
		await settle();
		expect((await start()).fichas).toEqual([]);
	});
});
