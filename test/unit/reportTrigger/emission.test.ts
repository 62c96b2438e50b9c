/**
 * The Dialer Report Trigger when n8n cannot store a poll's execution (its database restarting):
 * on n8n 2.x the trigger emits the rows itself and emits again, on the next poll, the rows whose
 * execution n8n reports it could not start; rows whose execution started are never emitted twice.
 */
import type { IDataObject } from 'n8n-workflow';

import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { startSimulator, type DialerSimulator } from '../../../harness/simulator';
import { fakePollFunctions, type Emitted } from '../support/pollFunctions';

let sim: DialerSimulator;
const trigger = new DialerReportTrigger();
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const parameters = { event: 'newFilledForm', form: '41', filters: {} };

beforeAll(async () => {
	sim = await startSimulator({ fichas: 0, calls: 0 });
});
afterAll(() => sim?.close());

/** An active trigger on n8n 2.x: what each poll emitted, and the warnings it logged. */
function activeTrigger(staticData: IDataObject = {}) {
	const emitted: Emitted[] = [];
	const warnings: string[] = [];
	const context = (chosen: IDataObject) =>
		fakePollFunctions({ sim, parameters: chosen, staticData, timezone: ZONE, emitted, warnings });
	/** A poll, with the parameters `chosen` when the user changed them. */
	const poll = async (chosen: IDataObject = parameters) => {
		const before = emitted.length;
		const returned = await trigger.poll.call(context(chosen));
		const fichas = emitted
			.slice(before)
			.flatMap(({ items }) => items[0].map((item) => String(item.json.ficha)));
		return { returned, fichas };
	};
	// A rejection is handled on the next turn of the event loop.
	const settle = () => new Promise((resolve) => setImmediate(resolve));
	return { poll, emitted, warnings, staticData, settle };
}

const fill = (count = 1) =>
	sim.rows.add({ report: 'getFP1', form: 41, count }).map((row) => String(row.id));

describe('a poll whose execution n8n could not start', () => {
	it('emits its rows again on the next poll, before the new ones, once', async () => {
		const { poll, emitted, warnings, staticData, settle } = activeTrigger();
		await poll();
		const lost = fill(2);
		const first = await poll();
		expect(first).toEqual({ returned: null, fichas: lost });
		emitted.at(-1)!.done.reject(new Error('Connection terminated unexpectedly'));
		await settle();
		expect(warnings).toEqual([
			'n8n could not start the execution of 2 new rows (Connection terminated unexpectedly); ' +
				'the next poll emits them again',
		]);

		const fresh = fill();
		expect((await poll()).fichas).toEqual([...lost, ...fresh]);
		emitted.at(-1)!.done.resolve(undefined);
		await settle();
		expect((await poll()).fichas).toEqual([]);
		expect(staticData.rowsToEmitAgain).toBeUndefined();
	});

	it('keeps the rows across several failed polls, in order', async () => {
		const { poll, emitted, settle } = activeTrigger();
		await poll();
		const first = fill();
		await poll();
		emitted.at(-1)!.done.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
		await settle();
		const second = fill();
		await poll();
		emitted.at(-1)!.done.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
		await settle();
		expect((await poll()).fichas).toEqual([...first, ...second]);
	});

	it('does not emit again the rows of an execution that started and was then cancelled', async () => {
		const { poll, emitted, warnings, settle } = activeTrigger();
		await poll();
		fill();
		await poll();
		const cancelled = Object.assign(new Error('The execution was cancelled manually'), {
			reason: 'manual',
		});
		emitted.at(-1)!.done.reject(cancelled);
		await settle();
		expect((await poll()).fichas).toEqual([]);
		expect(warnings).toEqual([]);
	});

	it('a poll that fails keeps the rows to emit again for the one after it', async () => {
		const { poll, emitted, settle } = activeTrigger();
		await poll();
		const lost = fill();
		await poll();
		emitted.at(-1)!.done.reject(new Error('Connection terminated'));
		await settle();
		sim.faults.add({ kind: 'status', status: 503, operation: 'getFP1', times: 1 });
		await expect(poll()).rejects.toThrow();
		expect((await poll()).fichas).toEqual(lost);
	});
});

it('on n8n 1.x (no staged polls) returns the rows for n8n to emit, as before', async () => {
	const staticData: IDataObject = {};
	const context = () => fakePollFunctions({ sim, parameters, staticData, timezone: ZONE });
	await trigger.poll.call(context());
	const filled = fill();
	const output = await trigger.poll.call(context());
	expect(output?.[0].map((item) => String(item.json.ficha))).toEqual(filled);
	expect(staticData.rowsToEmitAgain).toBeUndefined();
});

it('emits again the rows of a poll whose failed start is reported while the next poll prepares its items', async () => {
	// n8n reports a failed start when its database gives up, seconds later; the next poll may be
	// downloading recordings by then. Here the report lands just after that poll took the list.
	let onTaken = () => undefined as void;
	const staticData = new Proxy({} as IDataObject, {
		get(target, key) {
			const value = Reflect.get(target, key) as unknown;
			if (key === 'rowsToEmitAgain') onTaken();
			return value;
		},
	});
	const { poll, emitted, settle } = activeTrigger(staticData);
	await poll();
	const lost = fill();
	await poll();
	const failedStart = emitted.at(-1)!.done;
	onTaken = () => {
		onTaken = () => undefined;
		failedStart.reject(new Error('Connection terminated unexpectedly'));
	};
	const fresh = fill();
	expect((await poll()).fichas).toEqual(fresh);
	emitted.at(-1)!.done.resolve(undefined);
	await settle();
	expect((await poll()).fichas).toEqual(lost);
});

describe('rows waiting when the trigger starts over', () => {
	async function waitingRow() {
		const active = activeTrigger();
		await active.poll();
		const lost = fill();
		await active.poll();
		active.emitted.at(-1)!.done.reject(new Error('Connection terminated unexpectedly'));
		await active.settle();
		return { ...active, lost };
	}

	it('are not emitted as items of another Event after the Event is changed', async () => {
		const { poll, lost, staticData } = await waitingRow();
		// Deactivated with a ficha waiting, switched to New Inbound Call, activated again.
		const { fichas } = await poll({ event: 'newInboundCall', filters: {} });
		expect(fichas.filter((ficha) => lost.includes(ficha))).toEqual([]);
		expect(staticData.rowsToEmitAgain).toBeUndefined();
	});

	it('come once when a new Start From reads them again', async () => {
		const { poll, lost } = await waitingRow();
		const startFrom = new Date(Date.now() - 60_000).toISOString();
		const { fichas } = await poll({ ...parameters, options: { startFrom } });
		expect(fichas.filter((ficha) => lost.includes(ficha))).toEqual(lost);
	});
});
