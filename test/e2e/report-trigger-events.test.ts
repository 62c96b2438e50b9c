/**
 * The Dialer Report Trigger's other events inside a real n8n, polled every 2 seconds while rows
 * arrive (on time, late inside the Overlap Window, written after the time they carry, left out by
 * the parameters, from before Start From): each new row is emitted by exactly one execution, as
 * the same item the Dialer node's report gives for the window the trigger read. And the editor's
 * Fetch Test Event shows the latest rows without moving the active workflow's cursor.
 */
import { DateTime } from 'luxon';

import { pollEverySeconds } from '../../harness/n8n/dialer';
import { ALL } from '../setup/lanes';
import type { ArrivedRow, RowArrival } from '../../harness/simulator/types';
import { readConnection } from './setup/connection';
import { DialerRunner, type Json } from './support/dialerRunner';
import {
	emittedFichas,
	emittedItems,
	fetchTestEvent,
	pollWhileRowsArrive,
} from './support/reportTrigger';

// The simulator writes wall-clock times in this process's zone: the workflows read them in it.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const MIN_POLLS = 6;

let dialer: DialerRunner;

beforeAll(async () => {
	dialer = await DialerRunner.start({ timezone: ZONE });
});

afterAll(() => dialer?.close());

interface EventCase {
	event: string;
	report: 'getRQ4' | 'getRE2' | 'getHC2';
	/** The action node's operation reading the same report. */
	operation: string;
	/** The event's parameters, the same for the trigger and the action node. */
	parameters: () => Json;
	/** Rows the parameters select, and rows they leave out. */
	selected: () => Omit<RowArrival, 'report'>;
	leftOut: () => Omit<RowArrival, 'report'>;
	/** Item fields that tell the range read, not the row (they differ between reads). */
	rangeFields: string[];
}

const agent = (index: number) => dialer.sim.data.agents[index];
const route = (index: number) => dialer.sim.data.inboundRoutes[index];

const EVENTS: Record<string, EventCase> = {
	'New Classification Result': {
		event: 'newClassificationResult',
		report: 'getRQ4',
		operation: 'getClassificationResults',
		parameters: () => ({ filters: { agent: agent(0).login } }),
		selected: () => ({ agent: agent(0).id }),
		leftOut: () => ({ agent: agent(1).id }),
		rangeFields: [],
	},
	'New Inbound Call': {
		event: 'newInboundCall',
		report: 'getRE2',
		operation: 'getInboundCalls',
		parameters: () => ({ filters: { inboundRoute: String(route(0).id) } }),
		selected: () => ({ route: route(0).id }),
		leftOut: () => ({ route: route(1).id }),
		rangeFields: [],
	},
	'New Call in History': {
		event: 'newCallInHistory',
		report: 'getHC2',
		operation: 'getCallHistory',
		parameters: () => ({ entityType: 'A', extensionOrAgent: agent(0).login, filters: {} }),
		selected: () => ({ agent: agent(0).id }),
		leftOut: () => ({ agent: agent(1).id }),
		rangeFields: ['de', 'ate'],
	},
};

/** Items as comparable text, in one order, without the fields that tell the range read. */
const canonical = (items: Json[], rangeFields: string[]) =>
	items
		.map((item) =>
			JSON.stringify(Object.entries(item).filter(([field]) => !rangeFields.includes(field))),
		)
		.sort();

/**
 * Every event on 2.x; on 1.x, whose poll path is what differs, the first, and the others in the
 * whole matrix (`npm run test:all`).
 */
const TESTED_EVENTS =
	ALL || readConnection().n8nVersion.startsWith('2.')
		? Object.keys(EVENTS)
		: Object.keys(EVENTS).slice(0, 1);

describe.each(TESTED_EVENTS)('%s', (title) => {
	it('emits each new row exactly once, as the Dialer node reads it for the same window', async () => {
		const event = EVENTS[title];
		const started = Date.now();
		const { sim } = dialer;
		const add = (arrival: Omit<RowArrival, 'report'>) =>
			sim.rows.add({ report: event.report, ...arrival });
		// Start From a whole second two minutes back: the window's first moment, for the oracle too.
		const startFrom = DateTime.fromMillis(Math.floor(Date.now() / 1000) * 1000 - 120_000, {
			zone: ZONE,
		});
		const arrived: ArrivedRow[] = [...add({ ...event.selected(), at: startFrom.toMillis() })];
		add({ ...event.selected(), at: startFrom.toMillis() - 60_000 });
		const run = await pollWhileRowsArrive(dialer, {
			name: `e2e report trigger ${event.event}`,
			timezone: ZONE,
			report: event.report,
			minPolls: MIN_POLLS,
			trigger: {
				event: event.event,
				...event.parameters(),
				options: {
					startFrom: startFrom.toISO({ includeOffset: false, suppressMilliseconds: true }),
				},
			},
			round(round) {
				const added = [
					...(round % 2 === 0 ? add({ ...event.selected(), count: 2 }) : []),
					// Carries a time before the last poll's end: only the Overlap Window reads it.
					...(round % 3 === 1 ? add({ ...event.selected(), at: Date.now() - 45_000 }) : []),
					// Written 4 seconds after the time it carries (for getRQ4: classified 4 s after the call).
					...(round % 4 === 2 ? add({ ...event.selected(), visibleAfterMs: 4000 }) : []),
				];
				arrived.push(...added);
				if (round === 3) add(event.leftOut());
				return added;
			},
		});

		// From Start From to the end of the last read (a DST zone widens reads, not the start).
		const window = {
			de: startFrom.toFormat('yyyyMMddHHmmss'),
			ate: run.reads[run.reads.length - 1].fields.ate,
		};
		const action = await dialer.run({
			resource: 'report',
			operation: event.operation,
			...event.parameters(),
			period: 'custom',
			start: window.de,
			end: window.ate,
			returnAll: true,
		});
		const emitted = run.executions.flatMap(emittedItems);
		console.log(
			`report trigger ${event.event} e2e: ${run.reads.length} polls, ${arrived.length} rows arrived, ` +
				`${emitted.length} emitted by ${run.executions.length} executions, ` +
				`${action.items.length} from the Dialer node, ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
		expect(run.reads.length).toBeGreaterThanOrEqual(MIN_POLLS);
		expect(run.executions.every((execution) => execution.status === 'success')).toBe(true);
		expect(action.status).toBe(200);
		expect(canonical(emitted, event.rangeFields)).toEqual(
			canonical(action.items, event.rangeFields),
		);
		expect(emitted.length).toBeGreaterThanOrEqual(arrived.length);
		if (event.report !== 'getRE2') {
			// Calls carry their protocol: each arrived call is there by name.
			const protocols = new Set(emitted.map((item) => item.protocolo));
			for (const row of arrived) expect(protocols).toContain(row.protocolo);
		}
	}, 180_000);
});

it('Fetch Test Event shows the 10 latest fichas; the active workflow still emits each once', async () => {
	const { sim } = dialer;
	const expected: ArrivedRow[] = [];
	const latest: ArrivedRow[] = [];
	let shown: string[] = [];
	let fetchedAt = '';
	const run = await pollWhileRowsArrive(dialer, {
		name: 'e2e report trigger fetch test event',
		timezone: ZONE,
		report: 'getFP1',
		minPolls: 4,
		trigger: {
			event: 'newFilledForm',
			form: '41',
			filters: {},
			options: {},
			// 6 s apart: the editor's run, started right after a poll, reads before the next one, on
			// a busy machine too.
			pollTimes: pollEverySeconds(6),
		},
		async round(round, { workflowId }) {
			if (round === 0) expected.push(...sim.rows.add({ report: 'getFP1', form: 41, count: 3 }));
			if (round !== 1) return;
			// Right after a poll has made all its reads (the clock check reads before the poll's own
			// read), so the editor's run reads them before the active workflow does.
			const polls = sim.requests.length;
			while (sim.requests.length === polls) await new Promise((r) => setTimeout(r, 50));
			for (let reads = -1; reads !== sim.requests.length;) {
				reads = sim.requests.length;
				await new Promise((r) => setTimeout(r, 1000));
			}
			latest.push(...sim.rows.add({ report: 'getFP1', form: 41, count: 12 }));
			expected.push(...latest);
			const execution = await fetchTestEvent(dialer.api, workflowId);
			fetchedAt = execution.startedAt;
			shown = emittedItems(execution).map((item) => String(item.ficha));
		},
	});

	const emitted = emittedFichas(run.executions);
	// The 12 carry the same second: the latest are the last ten the report lists.
	expect(shown.sort()).toEqual(
		latest
			.slice(-10)
			.map((row) => String(row.id))
			.sort(),
	);
	expect(emitted.length).toBe(new Set(emitted).size);
	expect(new Set(emitted)).toEqual(new Set(expected.map((row) => String(row.id))));
	const emittedLatest = run.executions.filter((execution) =>
		emittedItems(execution).some((item) => String(item.ficha) === String(latest[0].id)),
	);
	expect(emittedLatest).toHaveLength(1);
	expect(Date.parse(emittedLatest[0].startedAt)).toBeGreaterThan(Date.parse(fetchedAt));
}, 180_000);
