/** harness/bench/chart.svg: the size curve of section "reports" and the rates of section "events". */
import type { RatePoint } from '../scenarios/events';
import type { CurvePoint } from '../scenarios/reports';
import { chartSvg, type Panel } from './chart';
import type { SavedSections } from './sections';

const colors = { dialer: '#1f77b4', generic: '#ff7f0e', bare: '#2ca02c' };

function sizePanels(curve: CurvePoint[]): Panel[] {
	const sizePanel = (title: string, yLabel: string, pick: (p: CurvePoint) => number): Panel => ({
		title,
		xLabel: 'rows',
		yLabel,
		logX: true,
		series: (
			[
				['dialer', 'Dialer'],
				['generic', 'HTTP Request + Split Out'],
				['bare', 'bare fetch + JSON.parse'],
			] as const
		).map(([variant, name]) => ({
			name,
			color: colors[variant],
			points: curve
				.filter((p) => p.variant === variant)
				.map((p): [number, number] => [p.rows, pick(p)]),
		})),
	});
	return [
		sizePanel('getFP1 to items: wall time (saving off)', 'ms (median)', (p) => p.ms.median),
		sizePanel(
			'getFP1 to items: peak RSS above idle n8n',
			'MB (median)',
			(p) => p.addedPeakMb.median,
		),
	];
}

function ratePanels(rates: RatePoint[]): Panel[] {
	const ratePanel = (
		title: string,
		yLabel: string,
		pick: (r: RatePoint) => number,
		goal?: Panel['goal'],
	): Panel => ({
		title,
		xLabel: 'events/s sent (7 kinds, 1 wanted)',
		yLabel,
		goal,
		series: (
			[
				['trigger', 'Dialer Trigger', colors.dialer],
				['generic', 'Webhook + IF', colors.generic],
			] as const
		).map(([variant, name, color]) => ({
			name,
			color,
			points: rates
				.filter((r) => r.variant === variant)
				.map((r): [number, number] => [r.targetRate, pick(r)]),
		})),
	});
	return [
		ratePanel('Agent events: p99 acknowledgement', 'ms', (r) => r.p99Ms, {
			y: 100,
			label: 'goal 100 ms',
		}),
		ratePanel('Agent events: n8n main thread busy', '% of one core', (r) => r.mainThreadLoad * 100),
	];
}

/** The chart of the saved sections that have curves; undefined when none has. */
export function benchChart({ reports, events }: SavedSections): string | undefined {
	const panels = [
		...(reports ? sizePanels(reports.result.curve) : []),
		...(events ? ratePanels(events.result.rates) : []),
	];
	if (panels.length === 0) return undefined;
	const versions = [
		...new Set([reports, events].flatMap((r) => (r ? [r.machine.n8nVersion] : []))),
	];
	return chartSvg(`n8n-nodes-dialer vs n8n's generic nodes (n8n ${versions.join(', ')})`, panels);
}
