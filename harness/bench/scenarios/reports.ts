/**
 * Scenario 1, report to items: getFP1 (one big answer) and getHC2 (one answer per agent), the
 * Dialer node against HTTP Request + Split Out, and both against a bare fetch + JSON.parse.
 * Memory is compared between fresh n8n instances, one per variant and save mode: a process
 * whose heap has already grown for another variant would hide part of the next one's cost.
 */
import type { DialerSimulator } from '../../simulator/types';
import { WallClock } from '../../simulator/time';

// The in-process simulator's wall clock: this process's zone.
const clock = new WallClock();
import { bareFetchRuns, type BareRequest } from '../lib/bareFetch';
import { summarize, type Summary } from '../lib/stats';
import { idleRssMb, log, timeRuns, withTarget, type RunSample, type Target } from '../lib/target';
import {
	createRunWorkflow,
	dialerNode,
	httpRequestNode,
	splitOutNode,
	type Json,
	type SaveMode,
} from '../lib/workflows';
import type { Credential, NodeSpec } from '../../n8n/api';

export type ReportVariant = 'dialer' | 'generic';
export type ReportOperation = 'getFP1' | 'getHC2';

export interface ReportCase {
	operation: ReportOperation;
	rows: number;
	/** Input items of the workflow: one per request. */
	items: Json[];
}

export interface VariantResult {
	variant: ReportVariant;
	save: SaveMode;
	ms: Summary;
	addedPeakMb: Summary;
	peakMb: Summary;
	mainThreadMs: Summary;
}

export interface ReportResult {
	operation: ReportOperation;
	rows: number;
	requests: number;
	bare: { ms: Summary; addedPeakMb: Summary };
	variants: VariantResult[];
}

export interface CurvePoint {
	rows: number;
	variant: ReportVariant | 'bare';
	ms: Summary;
	addedPeakMb: Summary;
}

/** `YYYYMMDDhhmmss` in the simulator's (this process's) local time. */
const compact = (epochMs: number) => clock.formatIsoLocal(epochMs).replace(/\D/g, '');

/** The form with the most fichas and the period holding its latest `rows` fichas (or all). */
export function fichaCase(sim: DialerSimulator, rows: number): ReportCase {
	const counts = new Map<number, number>();
	for (const ficha of sim.data.fichas)
		counts.set(ficha.formId, (counts.get(ficha.formId) ?? 0) + 1);
	const [formId] = [...counts].sort((a, b) => b[1] - a[1])[0];
	const fichas = sim.data.fichas.filter((ficha) => ficha.formId === formId);
	const first = fichas[Math.max(0, fichas.length - rows)].data;
	const last = fichas[fichas.length - 1].data;
	// Whole seconds on both ends, as the API takes them.
	const de = compact(first);
	const ate = compact(last + 999);
	const selected = fichas.filter(
		(ficha) => ficha.data >= Math.floor(first / 1000) * 1000 && ficha.data <= last,
	).length;
	return { operation: 'getFP1', rows: selected, items: [{ form: String(formId), de, ate }] };
}

/**
 * The call history of the first `agentCount` agents over the period of the latest `rows` calls
 * (all of them by default), one request per agent.
 */
export function callCase(
	sim: DialerSimulator,
	agentCount = sim.data.agents.length,
	rows = Infinity,
): ReportCase {
	const times = sim.data.calls.map((call) => call.horario).sort((a, b) => a - b);
	// Whole seconds, as the API takes them.
	const first = Math.floor(times[Math.max(0, times.length - rows)] / 1000) * 1000;
	const last = times[times.length - 1];
	const agents = new Set(sim.data.agents.slice(0, agentCount).map((agent) => agent.id));
	const count = sim.data.calls.filter(
		(call) => agents.has(call.agentId) && call.horario >= first,
	).length;
	const items = sim.data.agents
		.slice(0, agentCount)
		.map((agent) => ({ agent: agent.login, de: compact(first), ate: compact(last + 999) }));
	return { operation: 'getHC2', rows: count, items };
}

const period = { period: 'custom', start: '={{ $json.de }}', end: '={{ $json.ate }}' };

/** Get Filled Forms of the item's `form` from its `de` to its `ate`, every row. */
export function filledFormsNode(credential: Credential): NodeSpec {
	return dialerNode(credential, {
		resource: 'report',
		operation: 'getFilledForms',
		selectBy: 'formAndPeriod',
		form: '={{ $json.form }}',
		...period,
		output: 'items',
		returnAll: true,
		filters: {},
	});
}

function variantNodes(
	target: Target,
	sim: DialerSimulator,
	operation: ReportOperation,
	variant: ReportVariant,
	parallel: number,
): NodeSpec[] {
	if (operation === 'getFP1') {
		if (variant === 'dialer') return [filledFormsNode(target.dialer)];
		return [
			httpRequestNode(target.apiToken, `${sim.apiUrl}/getFP1`, {
				form: '={{ $json.form }}',
				de: '={{ $json.de }}',
				ate: '={{ $json.ate }}',
				formato: 'json',
			}),
			splitOutNode('data'),
		];
	}
	if (variant === 'dialer') {
		return [
			dialerNode(target.dialer, {
				resource: 'report',
				operation: 'getCallHistory',
				entityType: 'A',
				extensionOrAgent: '={{ $json.agent }}',
				...period,
				returnAll: true,
				filters: {},
				// HTTP Request sends all items' requests at once: give the Dialer node the same concurrency.
				options: { parallelRequests: parallel },
			}),
		];
	}
	return [
		httpRequestNode(target.apiToken, `${sim.apiUrl}/getHC2`, {
			tipo_entidade: 'A',
			ramal_agente: '={{ $json.agent }}',
			de: '={{ $json.de }}',
			ate: '={{ $json.ate }}',
		}),
		splitOutNode('data.chamadas'),
	];
}

function reportWorkflow(
	target: Target,
	sim: DialerSimulator,
	reportCase: ReportCase,
	variant: ReportVariant,
	save: SaveMode,
	answer: 'noData' | 'allEntries',
) {
	return createRunWorkflow(
		target.api,
		variantNodes(target, sim, reportCase.operation, variant, reportCase.items.length),
		{
			save,
			timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
			answer,
			name: `bench ${reportCase.operation} ${variant} ${save} ${answer}`,
		},
	);
}

/**
 * Both variants must turn the same small answer into one item per row: the check catches a
 * Split Out that yields one item because HTTP Request left the body unparsed.
 */
async function checkItems(
	target: Target,
	sim: DialerSimulator,
	check: ReportCase,
	variant: ReportVariant,
): Promise<void> {
	const workflow = await reportWorkflow(target, sim, check, variant, 'none', 'allEntries');
	const answer = await workflow.post(check.items);
	const items = Array.isArray(answer.body) ? answer.body : [];
	if (answer.status !== 200 || items.length !== check.rows) {
		throw new Error(
			`${variant} ${check.operation}: ${items.length} items for ${check.rows} rows (HTTP ${answer.status})`,
		);
	}
}

function summarizeRuns(samples: RunSample[]) {
	return {
		ms: summarize(samples.map((s) => s.ms)),
		addedPeakMb: summarize(samples.map((s) => s.addedPeakMb)),
		peakMb: summarize(samples.map((s) => s.peakMb)),
		mainThreadMs: summarize(samples.map((s) => s.mainThreadMs)),
	};
}

function bareRequest(sim: DialerSimulator, reportCase: ReportCase): BareRequest {
	const fp1 = reportCase.operation === 'getFP1';
	return {
		url: `${sim.apiUrl}/${reportCase.operation}`,
		token: sim.token,
		bodies: reportCase.items.map(
			(item) =>
				(fp1
					? { form: String(item.form), de: String(item.de), ate: String(item.ate), formato: 'json' }
					: {
							tipo_entidade: 'A',
							ramal_agente: String(item.agent),
							de: String(item.de),
							ate: String(item.ate),
						}) as Record<string, string>,
		),
		rowsPath: fp1 ? 'data' : 'data.chamadas',
	};
}

export async function bareRuns(sim: DialerSimulator, reportCase: ReportCase, runs: number) {
	const samples = await bareFetchRuns(bareRequest(sim, reportCase), runs);
	const rows = samples[0]?.rows;
	if (rows !== reportCase.rows)
		throw new Error(`bare ${reportCase.operation}: ${rows} rows, expected ${reportCase.rows}`);
	return {
		ms: summarize(samples.map((s) => s.ms)),
		addedPeakMb: summarize(samples.map((s) => s.addedPeakMb)),
	};
}

export interface ReportPlan {
	cases: Array<{ measured: ReportCase; check: ReportCase }>;
	saves: SaveMode[];
	runs: number;
}

/** Without `shared`, each variant and save mode gets a fresh n8n. */
export async function runReports(
	sim: DialerSimulator,
	secret: string,
	plan: ReportPlan,
	shared?: Target,
): Promise<ReportResult[]> {
	const results: ReportResult[] = [];
	for (const { measured, check } of plan.cases) {
		log(`${measured.operation}: bare fetch + JSON.parse, ${measured.rows} rows`);
		const bare = await bareRuns(sim, measured, plan.runs);
		const variants: VariantResult[] = [];
		for (const save of plan.saves) {
			for (const variant of ['dialer', 'generic'] as const) {
				log(`${measured.operation}: ${variant}, saving ${save}`);
				const measure = async (target: Target) => {
					await checkItems(target, sim, check, variant);
					const workflow = await reportWorkflow(target, sim, measured, variant, save, 'noData');
					return await timeRuns(target, workflow, measured.items, plan.runs);
				};
				const samples = shared ? await measure(shared) : await withTarget(sim, secret, measure);
				variants.push({ variant, save, ...summarizeRuns(samples) });
			}
		}
		results.push({
			operation: measured.operation,
			rows: measured.rows,
			requests: measured.items.length,
			bare,
			variants,
		});
	}
	return results;
}

/** Time and memory against size, save mode none: one n8n per variant, sizes ascending. */
export async function runCurve(
	sim: DialerSimulator,
	secret: string,
	sizes: number[],
	runs: number,
	shared?: Target,
): Promise<CurvePoint[]> {
	const points: CurvePoint[] = [];
	const cases = sizes.map((rows) => fichaCase(sim, rows));
	for (const reportCase of cases) {
		points.push({
			rows: reportCase.rows,
			variant: 'bare',
			...(await bareRuns(sim, reportCase, runs)),
		});
	}
	for (const variant of ['dialer', 'generic'] as const) {
		log(`curve: ${variant}, ${cases.map((c) => c.rows).join(', ')} rows`);
		const measure = async (target: Target) => {
			const workflow = await reportWorkflow(target, sim, cases[0], variant, 'none', 'noData');
			// One baseline for all sizes: a later size's RSS before its runs still holds the heap the earlier ones grew.
			const baselineMb = await idleRssMb(target);
			for (const reportCase of cases) {
				const samples = await timeRuns(target, workflow, reportCase.items, runs, { baselineMb });
				const { ms, addedPeakMb } = summarizeRuns(samples);
				points.push({ rows: reportCase.rows, variant, ms, addedPeakMb });
			}
		};
		if (shared) await measure(shared);
		else await withTarget(sim, secret, measure);
	}
	return points;
}
