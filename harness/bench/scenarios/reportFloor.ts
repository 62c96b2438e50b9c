/**
 * Section report-floor: each whole-period report (getFP1, getRQ4, getRE2) of 100,000 rows read
 * three ways, each in a fresh n8n of its own, run in turn: the Dialer node (one item per row),
 * HTTP Request + Split Out (the generic path), and HTTP Request alone (the whole answer as one
 * item: fetch + parse inside n8n, the floor both others stand on). What a variant costs above the floor, per row, is what it
 * spends making items. Rounds accumulate (`--append`), so that "in every run" can be read off.
 */
import type { Credential, NodeSpec } from '../../n8n/api';
import type { DialerSimulator } from '../../simulator/types';
import { WallClock } from '../../simulator/time';
import { bareFetchRuns } from '../lib/bareFetch';
import { summarize, type Summary } from '../lib/stats';
import { idleRssMb, log, timeRuns, withTargets, type RunSample, type Target } from '../lib/target';
import {
	createRunWorkflow,
	dialerNode,
	httpRequestNode,
	splitOutNode,
	type Json,
} from '../lib/workflows';

// The in-process simulator's wall clock: this process's zone.
const clock = new WallClock();

export type FloorOperation = 'getFP1' | 'getRQ4' | 'getRE2';
export const FLOOR_OPERATIONS: FloorOperation[] = ['getFP1', 'getRQ4', 'getRE2'];
export type FloorVariant = 'dialer' | 'generic' | 'floor';
const VARIANTS: FloorVariant[] = ['dialer', 'generic', 'floor'];
/** Rows of the answer each workflow is checked with before it is timed. */
const CHECK_ROWS = 500;

export interface FloorVariantResult {
	variant: FloorVariant;
	ms: Summary;
	addedPeakMb: Summary;
	/**
	 * The first run's peak above the idle n8n: a fresh n8n's first big read. With the variants in
	 * turn, each waits seconds between its runs, V8 gives memory back in between or not, and the
	 * later runs' peaks swing with that (absent from the earliest recorded rounds).
	 */
	firstRunAddedPeakMb?: number;
	mainThreadMs: Summary;
	/** Every thread of n8n's processes (absent from the earliest recorded rounds). */
	groupCpuMs?: Summary;
}

export interface FloorCaseResult {
	operation: FloorOperation;
	rows: number;
	bare: Summary;
	variants: FloorVariantResult[];
}

/** One measurement of every case asked for, on one commit. */
export interface FloorRound {
	date: string;
	commit: string;
	loadBefore: number;
	/**
	 * The simulator answered each request from the bytes it built the first time (the warm-up), so
	 * the dialer's own work was out of every timed run (absent from rounds recorded before replay).
	 */
	replayedAnswers?: boolean;
	cases: FloorCaseResult[];
}

export interface ReportFloorResult {
	rounds: FloorRound[];
}

/** How each report is asked for, where its rows are, and the Dialer operation that reads it. */
interface ReportApi {
	/** Form fields besides the period. */
	fields: Record<string, string>;
	/** Where Split Out finds the rows. */
	rowsPath: string;
	/** The Dialer node's parameters besides the period. */
	dialer: Json;
}

const REPORTS: Record<FloorOperation, ReportApi> = {
	getFP1: {
		fields: { form: '', formato: 'json' },
		rowsPath: 'data',
		dialer: {
			operation: 'getFilledForms',
			selectBy: 'formAndPeriod',
			form: '={{ $json.form }}',
			output: 'items',
		},
	},
	getRQ4: { fields: {}, rowsPath: 'data', dialer: { operation: 'getClassificationResults' } },
	getRE2: { fields: {}, rowsPath: 'data.resultado', dialer: { operation: 'getInboundCalls' } },
};

interface FloorCase {
	operation: FloorOperation;
	rows: number;
	/** The workflow's one input item: the API fields of the request, period included. */
	item: Record<string, string>;
}

/** `YYYYMMDDhhmmss` in the simulator's (this process's) local time. */
const compact = (epochMs: number) => clock.formatIsoLocal(epochMs).replace(/\D/g, '');

/** The period, in whole seconds, holding the latest `rows` of these times (all when fewer). */
function latestPeriod(times: number[], rows: number): { de: string; ate: string; count: number } {
	const sorted = [...times].sort((a, b) => a - b);
	const first = Math.floor(sorted[Math.max(0, sorted.length - rows)] / 1000) * 1000;
	const last = sorted[sorted.length - 1];
	return {
		de: compact(first),
		ate: compact(last + 999),
		count: sorted.filter((time) => time >= first).length,
	};
}

/** The case of `operation` reading its latest `rows` rows (the biggest form for getFP1). */
export function floorCase(
	sim: DialerSimulator,
	operation: FloorOperation,
	rows: number,
): FloorCase {
	const { data } = sim;
	const now = Date.now();
	if (operation === 'getFP1') {
		const counts = new Map<number, number>();
		for (const ficha of data.fichas) counts.set(ficha.formId, (counts.get(ficha.formId) ?? 0) + 1);
		const [form] = [...counts].sort((a, b) => b[1] - a[1])[0];
		const times = data.fichas.filter((ficha) => ficha.formId === form).map((f) => f.data);
		const { count, ...period } = latestPeriod(times, rows);
		return { operation, rows: count, item: { form: String(form), ...period } };
	}
	const times =
		operation === 'getRQ4'
			? data.calls
					.filter((call) => call.resultado !== undefined && (call.classifiedFrom ?? 0) <= now)
					.map((call) => call.horario)
			: data.inboundCalls
					.filter((call) => (call.visibleFrom ?? 0) <= now)
					.map((call) => call.dataHora);
	const { count, ...period } = latestPeriod(times, rows);
	return { operation, rows: count, item: period };
}

function variantNodes(
	target: Target,
	sim: DialerSimulator,
	reportCase: FloorCase,
	variant: FloorVariant,
): NodeSpec[] {
	const api = REPORTS[reportCase.operation];
	if (variant === 'dialer') return [reportNode(target.dialer, api)];
	const fields = { ...api.fields };
	for (const name of Object.keys(reportCase.item)) fields[name] = `={{ $json.${name} }}`;
	const http = httpRequestNode(target.apiToken, `${sim.apiUrl}/${reportCase.operation}`, fields);
	return variant === 'floor' ? [http] : [http, splitOutNode(api.rowsPath)];
}

function reportNode(credential: Credential, api: ReportApi): NodeSpec {
	return dialerNode(credential, {
		resource: 'report',
		period: 'custom',
		start: '={{ $json.de }}',
		end: '={{ $json.ate }}',
		returnAll: true,
		filters: {},
		...api.dialer,
	});
}

/**
 * The workflow of `variant` for `reportCase`, once the same workflow answering with its items has
 * made the right number of them for `check` (a small case: 100,000 items sent back would take
 * longer than the runs).
 */
export async function checkedWorkflow(
	target: Target,
	sim: DialerSimulator,
	{ measured, check }: { measured: FloorCase; check: FloorCase },
	variant: FloorVariant,
) {
	const create = (answer: 'noData' | 'allEntries') =>
		createRunWorkflow(target.api, variantNodes(target, sim, measured, variant), {
			save: 'none',
			timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
			answer,
			name: `bench floor ${measured.operation} ${variant} ${answer}`,
		});
	const checking = await create('allEntries');
	const answer = await checking.post([check.item]);
	const items = Array.isArray(answer.body) ? answer.body.length : 0;
	// The floor makes one item, the others one per row.
	const expected = variant === 'floor' ? 1 : check.rows;
	if (answer.status !== 200 || items !== expected)
		throw new Error(
			`${variant} ${check.operation}: ${items} items, expected ${expected} (HTTP ${answer.status})`,
		);
	await target.api.deactivateWorkflow(checking.id);
	return await create('noData');
}

/**
 * Each variant's runs, the three n8ns up at once and run in turn, the order rotating every run:
 * the load of a shared machine swings over seconds, and each variant meets it in every position.
 */
async function interleavedRuns(
	sim: DialerSimulator,
	secret: string,
	cases: { measured: FloorCase; check: FloorCase },
	runs: number,
): Promise<Map<FloorVariant, RunSample[]>> {
	return await withTargets(sim, secret, VARIANTS.length, async (targets) => {
		const runners = [];
		for (const [index, variant] of VARIANTS.entries()) {
			const target = targets[index];
			const workflow = await checkedWorkflow(target, sim, cases, variant);
			const baselineMb = await idleRssMb(target);
			const run = async () =>
				(await timeRuns(target, workflow, [cases.measured.item], 1, { warmup: 0, baselineMb }))[0];
			runners.push({ variant, run });
		}
		// The first run of each (a fresh n8n's first big read) comes first in the list.
		const samples = new Map<FloorVariant, RunSample[]>(VARIANTS.map((variant) => [variant, []]));
		for (let run = 0; run <= runs; run++) {
			for (let turn = 0; turn < runners.length; turn++) {
				const { variant, run: once } = runners[(run + turn) % runners.length];
				samples.get(variant)!.push(await once());
			}
		}
		return samples;
	});
}

async function measureCase(
	sim: DialerSimulator,
	secret: string,
	cases: { measured: FloorCase; check: FloorCase },
	runs: number,
): Promise<FloorCaseResult> {
	const reportCase = cases.measured;
	const api = REPORTS[reportCase.operation];
	log(`report-floor ${reportCase.operation}: bare fetch + JSON.parse, ${reportCase.rows} rows`);
	const bare = await bareFetchRuns(
		{
			url: `${sim.apiUrl}/${reportCase.operation}`,
			token: sim.token,
			bodies: [{ ...api.fields, ...reportCase.item }],
			rowsPath: api.rowsPath,
		},
		runs,
	);
	log(`report-floor ${reportCase.operation}: ${VARIANTS.join(', ')} in turn`);
	const samples = await interleavedRuns(sim, secret, cases, runs);
	const variants = VARIANTS.map((variant) => {
		const [first, ...measured] = samples.get(variant)!;
		const of = (field: 'ms' | 'addedPeakMb' | 'mainThreadMs' | 'groupCpuMs') =>
			summarize(measured.map((sample) => sample[field]));
		return {
			variant,
			ms: of('ms'),
			addedPeakMb: of('addedPeakMb'),
			firstRunAddedPeakMb: first.addedPeakMb,
			mainThreadMs: of('mainThreadMs'),
			groupCpuMs: of('groupCpuMs'),
		};
	});
	return {
		operation: reportCase.operation,
		rows: reportCase.rows,
		bare: summarize(bare.map((s) => s.ms)),
		variants,
	};
}

/** One round: every operation asked for, each variant in a fresh n8n. */
export async function runReportFloor(
	sim: DialerSimulator,
	secret: string,
	options: { operations: FloorOperation[]; rows: number; runs: number },
): Promise<FloorCaseResult[]> {
	const cases: FloorCaseResult[] = [];
	// Building a 100,000-row answer takes the simulator 1–3 s on the cores n8n runs on, and how
	// long swings with the machine: every variant gets the same bytes, built once, instead.
	sim.replay.on = true;
	try {
		for (const operation of options.operations) {
			const measured = floorCase(sim, operation, options.rows);
			const check = floorCase(sim, operation, CHECK_ROWS);
			cases.push(await measureCase(sim, secret, { measured, check }, options.runs));
		}
	} finally {
		sim.replay.on = false;
	}
	return cases;
}
