/**
 * The Dialer Report Trigger inside a real n8n against a dialer that lists report rows in a new
 * random order in every answer and writes each row up to 15 seconds after the time it carries:
 * every new row is emitted once, by its whole content, and nothing twice. Among the rows, those
 * alike in everything but what a trigger must not overlook: two calls from a withheld number
 * through one route in the same second, answered by two agents, the second written 30 s later; a
 * call classified "Retornar", then "Venda" 40 s later (two classification results); and a ficha
 * whose status changes after it was emitted (still one ficha, emitted once).
 */
import { DateTime } from 'luxon';

import type { ArrivedRow, DialerSimulator, RowArrival } from '../../harness/simulator/types';
import { DialerRunner, type Json } from './support/dialerRunner';
import { emittedItems, pollWhileRowsArrive } from './support/reportTrigger';

// The simulator writes wall-clock times in this process's zone: the workflows read them in it.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const LATE_WRITES_MS = 15_000;
/** Random rows arrive for this long after the first poll; */
const STREAM_MS = 8_000;
/** the polls go on until each is written (15 s) and read: 14 polls 2 s apart, then 2 more. */
const MIN_POLLS = 14;
/** Pairs of rows alike but for one field: a read that lists both has an even chance to list either first. */
const PAIRS = 5;

interface OrderCase {
	event: string;
	report: RowArrival['report'];
	/** The action node's operation reading the same report. */
	operation: string;
	/** The event's parameters, the same for the trigger and the action node. */
	parameters(sim: DialerSimulator): Json;
	/** Rows the parameters select. */
	selected(sim: DialerSimulator): Omit<RowArrival, 'report'>;
	/** Rows written before the activation, carrying `firstSecond` and the seconds after: the first poll emits them. */
	before(sim: DialerSimulator, firstSecond: number): ArrivedRow[];
	/** Rows written again or added once the first poll has read. */
	after(sim: DialerSimulator, before: ArrivedRow[]): void;
	/** The items to be emitted, from what the Dialer node reads at the end. */
	expected(items: Json[], before: ArrivedRow[]): Json[];
}

const route = (sim: DialerSimulator) => sim.data.inboundRoutes[1];
/** Agents 0 and 1: Ana and Bruno of the report's story. */
const agent = (sim: DialerSimulator, index: 0 | 1) => sim.data.agents[index];

/** A call from a withheld number through the route at `at`, answered by Ana (0) or Bruno (1). */
const withheldCall = (sim: DialerSimulator, answeredBy: 0 | 1, at: number) =>
	sim.rows.add({
		report: 'getRE2',
		caller: 'Anônimo',
		route: route(sim).id,
		agent: agent(sim, answeredBy).id,
		at,
	});

const seconds = (first: number) => Array.from({ length: PAIRS }, (_, pair) => first + pair * 1000);

const CASES: Record<string, OrderCase> = {
	'New Inbound Call: two calls from a withheld number in one second, answered by two agents': {
		event: 'newInboundCall',
		report: 'getRE2',
		operation: 'getInboundCalls',
		parameters: (sim) => ({ filters: { inboundRoute: String(route(sim).id) } }),
		selected: (sim) => ({ route: route(sim).id }),
		// Ana's calls, each pair in its own second.
		before: (sim, first) => seconds(first).flatMap((at) => withheldCall(sim, 0, at)),
		// Bruno's: the same seconds, number and route, written about 30 s after their time.
		after: (sim, anas) => {
			for (const ana of anas) withheldCall(sim, 1, ana.at);
		},
		expected: (items) => items,
	},
	'New Classification Result: a call classified "Retornar", then "Venda" 40 s later': {
		event: 'newClassificationResult',
		report: 'getRQ4',
		operation: 'getClassificationResults',
		parameters: (sim) => ({ filters: { agent: agent(sim, 0).login } }),
		selected: (sim) => ({ agent: agent(sim, 0).id }),
		before: (sim, first) =>
			seconds(first).flatMap((at) =>
				sim.rows.add({ report: 'getRQ4', agent: agent(sim, 0).id, at, resultado: 'Retornar' }),
			),
		after: (sim, calls) => {
			for (const call of calls)
				sim.rows.add({
					report: 'getRQ4',
					protocolo: call.protocolo,
					at: call.at + 40_000,
					resultado: 'Venda',
				});
		},
		expected: (items) => items,
	},
	'New Filled Form: a ficha whose status changes after it was emitted': {
		event: 'newFilledForm',
		report: 'getFP1',
		operation: 'getFilledForms',
		parameters: () => ({ form: '41', filters: {} }),
		selected: () => ({ form: 41 }),
		before: (sim, first) =>
			sim.rows.add({ report: 'getFP1', form: 41, at: first, status: 'Pendente' }),
		after: (sim, [ficha]) => {
			sim.rows.add({ report: 'getFP1', ficha: ficha.id, status: 'Finalizada' });
		},
		// Emitted as it was when first read.
		expected: (items, [ficha]) =>
			items.map((item) =>
				item.ficha === String(ficha.id) ? { ...item, status: 'Pendente' } : item,
			),
	},
};

/** The items emitted more often than the dialer lists them, and those never emitted (as JSON). */
function mismatches(emitted: Json[], expected: Json[]) {
	const count = (items: Json[]) => {
		const counts = new Map<string, number>();
		for (const item of items) {
			const text = JSON.stringify(item);
			counts.set(text, (counts.get(text) ?? 0) + 1);
		}
		return counts;
	};
	const got = count(emitted);
	const wanted = count(expected);
	return {
		emittedTooOften: [...got].filter(([text, n]) => n > (wanted.get(text) ?? 0)).map(([t]) => t),
		neverEmitted: [...wanted].filter(([text, n]) => n > (got.get(text) ?? 0)).map(([t]) => t),
	};
}

describe('with the dialer listing rows in random order and writing them up to 15 s late', () => {
	it.concurrent.each(Object.keys(CASES))(
		'%s: each new row is emitted once',
		async (title) => {
			const orderCase = CASES[title];
			const started = Date.now();
			const dialer = await DialerRunner.start({
				timezone: ZONE,
				simulator: { rowOrder: 'shuffled', lateWritesMs: LATE_WRITES_MS },
			});
			try {
				const { sim } = dialer;
				const add = (arrival: Omit<RowArrival, 'report'>) =>
					sim.rows.add({ report: orderCase.report, ...orderCase.selected(sim), ...arrival });
				// Start From a whole second 2 minutes back: the window's first moment, for the oracle too.
				const startFrom = DateTime.fromMillis(Math.floor(started / 1000) * 1000 - 120_000, {
					zone: ZONE,
				});
				// Written and emitted first, carrying a time 35 s back.
				const before = orderCase.before(sim, Math.floor(started / 1000) * 1000 - 35_000);
				let streamed = 0;
				const run = await pollWhileRowsArrive(dialer, {
					name: `e2e report trigger order ${orderCase.event}`,
					timezone: ZONE,
					report: orderCase.report,
					minPolls: MIN_POLLS,
					trigger: {
						event: orderCase.event,
						...orderCase.parameters(sim),
						options: {
							overlapWindow: 1,
							startFrom: startFrom.toISO({ includeOffset: false, suppressMilliseconds: true }),
						},
					},
					round(round, { activatedAt }) {
						// A round after the first poll has read (and emitted) the rows written before.
						if (round === 1) orderCase.after(sim, before);
						if (Date.now() - activatedAt > STREAM_MS) return;
						streamed += add({ count: 2 }).length;
						// Carries a time 40 s back: only the Overlap Window reads it.
						if (round % 2 === 1) streamed += add({ at: Date.now() - 40_000 }).length;
					},
				});

				const action = await dialer.run({
					resource: 'report',
					operation: orderCase.operation,
					...orderCase.parameters(sim),
					period: 'custom',
					start: startFrom.toFormat('yyyyMMddHHmmss'),
					end: run.reads[run.reads.length - 1].fields.ate,
					returnAll: true,
				});
				const emitted = run.executions.flatMap(emittedItems);
				console.log(
					`report trigger order ${orderCase.event} e2e: ${run.reads.length} polls, ` +
						`${before.length} rows before and ${streamed} streamed, ${emitted.length} emitted by ` +
						`${run.executions.length} executions, ${action.items.length} from the Dialer node, ` +
						`${((Date.now() - started) / 1000).toFixed(1)} s`,
				);
				expect(run.executions.every((execution) => execution.status === 'success')).toBe(true);
				expect(action.status).toBe(200);
				expect(mismatches(emitted, orderCase.expected(action.items, before))).toEqual({
					emittedTooOften: [],
					neverEmitted: [],
				});
			} finally {
				await dialer.close();
			}
		},
		180_000,
	);
});
