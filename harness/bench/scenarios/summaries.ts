/**
 * Report summaries: a month of inbound calls (getRE2) summarised per queue, by the Dialer node's
 * Output → Summary against what a workflow does without it (one item per call, then a Code node
 * computing the same figures). Each variant in a fresh n8n, saving off; both are checked to count
 * every call before they are timed.
 */
import { WallClock } from '../../simulator/time';
import type { DialerSimulator } from '../../simulator/types';
import { ratio, summarize, type Summary } from '../lib/stats';
import { log, timeRuns, withTarget, type RunSample, type Target } from '../lib/target';
import { createRunWorkflow, dialerNode, type Json } from '../lib/workflows';
import type { NodeSpec } from '../../n8n/api';

export type SummaryVariant = 'summary' | 'itemsAndCode';

export interface SummaryVariantResult {
	variant: SummaryVariant;
	ms: Summary;
	addedPeakMb: Summary;
	peakMb: Summary;
	mainThreadMs: Summary;
}

export interface SummariesResult {
	rows: number;
	days: number;
	variants: SummaryVariantResult[];
}

const SERVICE_LEVEL_SECONDS = 20;

/** The figures a user computes in a Code node from one item per call (total only, and per queue). */
const CODE = `
const groups = {};
const total = { offered: 0, answered: 0, within: 0, waitSum: 0, longest: 0 };
for (const { json } of $input.all()) {
	const group = (groups[json.destino] ??= { offered: 0, answered: 0, within: 0, waitSum: 0, longest: 0 });
	for (const figures of [total, group]) {
		figures.offered++;
		figures.waitSum += Number(json.tempo_fila);
		figures.longest = Math.max(figures.longest, Number(json.tempo_fila));
		if (json.status === 'AT') {
			figures.answered++;
			if (Number(json.tempo_fila) <= ${SERVICE_LEVEL_SECONDS}) figures.within++;
		}
	}
}
return [{ json: { total, groups } }];
`;

const period = { period: 'custom', start: '={{ $json.de }}', end: '={{ $json.ate }}' };

function variantNodes(target: Target, variant: SummaryVariant): NodeSpec[] {
	const read = (parameters: Json) =>
		dialerNode(target.dialer, {
			resource: 'report',
			operation: 'getInboundCalls',
			...period,
			filters: {},
			...parameters,
		});
	if (variant === 'summary') {
		return [
			read({
				output: 'summary',
				groupBy: 'destination',
				serviceLevelSeconds: SERVICE_LEVEL_SECONDS,
			}),
		];
	}
	return [
		read({ output: 'items', returnAll: true }),
		{
			name: 'Summarise',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: { jsCode: CODE },
		},
	];
}

async function measure(
	target: Target,
	variant: SummaryVariant,
	items: Json[],
	rows: number,
	runs: number,
): Promise<RunSample[]> {
	const create = (answer: 'noData' | 'allEntries') =>
		createRunWorkflow(target.api, variantNodes(target, variant), {
			save: 'none',
			timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
			answer,
			name: `bench summary ${variant} ${answer}`,
		});
	const answer = await (await create('allEntries')).post(items);
	const [first] = Array.isArray(answer.body) ? (answer.body as Json[]) : [];
	const offered = (first?.total as Json | undefined)?.offered;
	if (answer.status !== 200 || offered !== rows)
		throw new Error(`${variant}: ${String(offered)} calls offered for ${rows} rows`);
	return await timeRuns(target, await create('noData'), items, runs);
}

/** Every inbound call the simulator holds (half as many as its calls), read over their period. */
export async function runSummaries(
	sim: DialerSimulator,
	secret: string,
	runs: number,
): Promise<SummariesResult> {
	let first = Infinity;
	let last = -Infinity;
	for (const call of sim.data.inboundCalls) {
		first = Math.min(first, call.dataHora);
		last = Math.max(last, call.dataHora);
	}
	const compact = (epochMs: number) => new WallClock().formatIsoLocal(epochMs).replace(/\D/g, '');
	const items = [{ de: compact(first), ate: compact(last + 999) }];
	const rows = sim.data.inboundCalls.length;
	const variants: SummaryVariantResult[] = [];
	for (const variant of ['summary', 'itemsAndCode'] as const) {
		log(`summaries: ${variant}, ${rows} inbound calls`);
		const samples = await withTarget(sim, secret, (target) =>
			measure(target, variant, items, rows, runs),
		);
		variants.push({
			variant,
			ms: summarize(samples.map((s) => s.ms)),
			addedPeakMb: summarize(samples.map((s) => s.addedPeakMb)),
			peakMb: summarize(samples.map((s) => s.peakMb)),
			mainThreadMs: summarize(samples.map((s) => s.mainThreadMs)),
		});
	}
	return { rows, days: Math.round((last - first) / 86_400_000), variants };
}

const NAMES: Record<SummaryVariant, string> = {
	summary: 'Dialer, Output → Summary (one item)',
	itemsAndCode: 'Dialer, one item per call → Code node computing the same figures',
};

export function summariesSection(result: SummariesResult): string[] {
	const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
	const mb = (value: number) => `${Math.round(value).toLocaleString('en-US')} MB`;
	const spread = (s: Summary, unit: (value: number) => string) =>
		`${unit(s.median)} (${unit(s.min)}–${unit(s.max)})`;
	const lines = [
		`### Report summaries: ${result.rows.toLocaleString('en-US')} inbound calls over ${result.days} days`,
		'',
		'Get Inbound Calls (getRE2) summarised per queue with a 20 s service level (offered, answered, within the service level, waits), against reading one item per call and computing the same figures in a Code node, as a workflow does without Output → Summary. Each variant in a fresh n8n, saving off; both checked to count every call. Wall time from the POST to the workflow’s webhook until n8n answers after the run; memory as in section 1. Median (min–max).',
		'',
		'| Variant | Wall time | Added peak RSS | Peak RSS | Main-thread CPU |',
		'|---|---|---|---|---|',
	];
	for (const v of result.variants) {
		lines.push(
			`| ${NAMES[v.variant]} | ${spread(v.ms, ms)} | ${spread(v.addedPeakMb, mb)} | ${mb(v.peakMb.median)} | ${ms(v.mainThreadMs.median)} |`,
		);
	}
	const [summary, code] = ['summary', 'itemsAndCode'].map((variant) =>
		result.variants.find((v) => v.variant === variant),
	);
	if (summary && code) {
		const x = (value: number) => `${value.toFixed(2)}×`;
		lines.push(
			'',
			`Summary ÷ items + Code: time ${x(ratio(summary.ms.median, code.ms.median))}, added peak memory ${x(ratio(summary.addedPeakMb.median, code.addedPeakMb.median))}, main-thread CPU ${x(ratio(summary.mainThreadMs.median, code.mainThreadMs.median))}.`,
		);
	}
	lines.push('');
	return lines;
}
