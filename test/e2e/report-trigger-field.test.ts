/**
 * The Dialer Report Trigger in a real n8n against dialers the contract allows but the plain
 * simulator does not play: row times without seconds and a filter that reads only the minutes of
 * `de`; calls equal in time, caller and route; answers without rows and answers that say failure
 * beside an empty list; and a parameter change after a Start From backfill. Every row is emitted
 * by exactly one execution.
 */
import { DateTime } from 'luxon';

import type { Execution } from '../../harness/n8n/api';
import type { ArrivedRow } from '../../harness/simulator/types';
import { DialerRunner } from './support/dialerRunner';
import {
	emittedFichas,
	emittedItems,
	pollWhileRowsArrive,
	reportTriggerNode,
} from './support/reportTrigger';

// The simulator writes wall-clock times in this process's zone: the workflows read them in it.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dialer: DialerRunner;

beforeAll(async () => {
	dialer = await DialerRunner.start({ timezone: ZONE });
});

afterAll(() => dialer?.close());

/** How often each value occurs. */
function counts(values: string[]): Record<string, number> {
	const result: Record<string, number> = {};
	for (const value of values) result[value] = (result[value] ?? 0) + 1;
	return result;
}

const once = (rows: ArrivedRow[]) => counts(rows.map((row) => String(row.id)));

it('emits each ficha once when row times have no seconds and the dialer reads only the minutes of de', async () => {
	const { sim } = dialer;
	Object.assign(sim.reports.quirks, { minuteTimes: true, deMinutes: true });
	const arrived: ArrivedRow[] = [];
	try {
		// An Overlap Window of 1 minute: 75 seconds of polls take every row past it.
		const run = await pollWhileRowsArrive(dialer, {
			name: 'e2e report trigger coarse times',
			timezone: ZONE,
			report: 'getFP1',
			minPolls: 25,
			trigger: { event: 'newFilledForm', form: '43', filters: {}, options: { overlapWindow: 1 } },
			round(round) {
				arrived.push(...sim.rows.add({ report: 'getFP1', form: 43 }));
				// Written 40 seconds after the time it carries (inside the window).
				if (round % 3 === 1)
					arrived.push(...sim.rows.add({ report: 'getFP1', form: 43, at: Date.now() - 40_000 }));
			},
		});
		const emitted = emittedFichas(run.executions);
		console.log(
			`report trigger coarse times e2e: ${run.reads.length} polls, ${arrived.length} fichas, ` +
				`${emitted.length} emitted, ${emitted.length - new Set(emitted).size} twice`,
		);
		expect(run.reads.some((read) => read.fields.de.endsWith('00'))).toBe(true);
		expect(counts(emitted)).toEqual(once(arrived));
	} finally {
		Object.assign(sim.reports.quirks, { minuteTimes: false, deMinutes: false });
	}
}, 240_000);

it('emits two calls from a withheld number in the same second through the same route as two items', async () => {
	const { sim } = dialer;
	const route = sim.data.inboundRoutes[2];
	const startFrom = DateTime.fromMillis(Math.floor(Date.now() / 1000) * 1000 - 60_000, {
		zone: ZONE,
	});
	const at = startFrom.toMillis() + 30_000;
	const calls = sim.rows.add({
		report: 'getRE2',
		route: route.id,
		caller: 'Anônimo',
		count: 2,
		at,
	});
	const run = await pollWhileRowsArrive(dialer, {
		name: 'e2e report trigger identical calls',
		timezone: ZONE,
		report: 'getRE2',
		minPolls: 4,
		trigger: {
			event: 'newInboundCall',
			filters: { inboundRoute: String(route.id) },
			options: { startFrom: startFrom.toISO({ includeOffset: false, suppressMilliseconds: true }) },
		},
		round(round) {
			// A third one in the same second, written after the first two were emitted.
			if (round === 1)
				calls.push(...sim.rows.add({ report: 'getRE2', route: route.id, caller: 'Anônimo', at }));
			if (round === 2) calls.push(...sim.rows.add({ report: 'getRE2', route: route.id }));
		},
	});
	const emitted = run.executions.flatMap(emittedItems);
	console.log(
		`report trigger identical calls e2e: ${run.reads.length} polls, ${calls.length} calls, ` +
			`${emitted.length} emitted`,
	);
	expect(emitted.filter((item) => item.origem === 'Anônimo')).toHaveLength(3);
	expect(emitted).toHaveLength(calls.length);
}, 120_000);

it('reads answers without rows as no rows and fails the poll on a failure beside an empty list', async () => {
	const { sim } = dialer;
	const route = sim.data.inboundRoutes[4];
	const arrived: ArrivedRow[] = [];
	const faults = [
		{ kind: 'body', body: { resultado: null, total: 0 }, times: 3 },
		{ kind: 'body', body: { status: 'error', message: 'Sem permissão', data: [] }, times: 1 },
		{ kind: 'body', body: { error: 0, data: { resultado: [] } }, times: 1 },
	] as const;
	const run = await pollWhileRowsArrive(dialer, {
		name: 'e2e report trigger empty and failure answers',
		timezone: ZONE,
		report: 'getRE2',
		minPolls: 10,
		trigger: { event: 'newInboundCall', filters: { inboundRoute: String(route.id) } },
		round(round) {
			if (round % 2 === 0) arrived.push(...sim.rows.add({ report: 'getRE2', route: route.id }));
			const fault = faults[[1, 5, 9].indexOf(round)];
			if (fault) sim.faults.add({ ...fault, operation: 'getRE2' });
		},
	});
	const failed = run.executions.filter((execution) => execution.status === 'error');
	const emitted = run.executions.flatMap(emittedItems);
	console.log(
		`report trigger empty/failure answers e2e: ${run.reads.length} polls, ${arrived.length} ` +
			`calls, ${emitted.length} emitted, ${failed.length} failed polls`,
	);
	expect(failed).toHaveLength(1);
	expect(JSON.stringify(failed[0].data)).toContain('Sem permissão');
	expect(emitted.every((item) => typeof item.data_hora === 'string')).toBe(true);
	expect(emitted).toHaveLength(arrived.length);

	// The Dialer node reads the same answers the same way.
	const read = { resource: 'report', operation: 'getInboundCalls', period: 'today', filters: {} };
	sim.faults.add({ kind: 'body', body: { resultado: null, total: 0 }, times: 1 });
	const none = await dialer.run({ ...read, returnAll: true });
	expect(none.status).toBe(200);
	expect(none.items.filter((item) => Object.keys(item).length > 0)).toEqual([]);
	sim.faults.add({ kind: 'body', body: faults[1].body, times: 1 });
	expect((await dialer.run({ ...read, returnAll: true })).error).toContain('Sem permissão');
}, 180_000);

/** Waits until the active workflow's trigger has read the report `count` more times. */
async function morePolls(count: number) {
	const reads = () => dialer.sim.requests.filter((request) => request.operation === 'getFP1');
	const target = reads().length + count;
	for (const deadline = Date.now() + 30_000; reads().length < target; await sleep(300)) {
		if (Date.now() > deadline) throw new Error('n8n did not poll');
	}
	// Its execution may still be finishing.
	await sleep(2000);
}

it('after a Start From backfill, a filter change emits nothing again; new fichas once', async () => {
	const { sim, api } = dialer;
	const agent = sim.data.agents[9];
	const start = Math.floor(Date.now() / 1000) * 1000 - 600_000;
	const backfill = sim.rows.add({
		report: 'getFP1',
		form: 42,
		agent: agent.id,
		count: 4,
		at: start + 60_000,
		stepMs: 60_000,
	});
	const options = {
		startFrom: DateTime.fromMillis(start, { zone: ZONE }).toISO({ includeOffset: false }),
	};
	const credential = { id: dialer.credential.id, name: dialer.credential.name };
	const workflow = (filters: Record<string, string>) => ({
		name: 'e2e report trigger parameter change',
		nodes: [
			reportTriggerNode({ event: 'newFilledForm', form: '42', filters, options }, credential),
		],
		connections: {},
		settings: { timezone: ZONE, saveDataSuccessExecution: 'all' },
	});
	const created = await api.createWorkflow(workflow({}));
	let executions: Execution[] = [];
	try {
		await api.activateWorkflow(created.id);
		await morePolls(2);
		await api.deactivateWorkflow(created.id);
		await api.updateWorkflow(created.id, workflow({ agent: agent.login }));
		await api.activateWorkflow(created.id);
		await morePolls(1);
		const [later] = sim.rows.add({ report: 'getFP1', form: 42, agent: agent.id });
		backfill.push(later);
		await morePolls(2);
	} finally {
		await api.deactivateWorkflow(created.id);
		executions = await api.listExecutions(created.id, true);
	}
	const emitted = emittedFichas(executions);
	console.log(
		`report trigger parameter change e2e: ${executions.length} executions, ` +
			`${emitted.length} fichas emitted of ${backfill.length}`,
	);
	expect(counts(emitted)).toEqual(once(backfill));
}, 120_000);
