/** Section report-floor on the page: each round's table, and the goals over all rounds. */
import type {
	FloorCaseResult,
	FloorVariant,
	FloorVariantResult,
	ReportFloorResult,
} from '../scenarios/reportFloor';
import { ratio } from '../lib/stats';
import { mb, ms, x } from './format';

const NAMES: Record<FloorVariant, string> = {
	dialer: 'Dialer node',
	generic: 'HTTP Request + Split Out',
	floor: 'HTTP Request alone (one item)',
};

const µs = (value: number) => `${value.toFixed(2)} µs`;

/** Wall time above the floor's, per row (µs), the floor itself 0. */
export function perRowAboveFloor(result: FloorCaseResult, variant: FloorVariant): number {
	const find = (name: FloorVariant) => result.variants.find((v) => v.variant === name);
	const floor = find('floor');
	const measured = find(variant);
	if (!floor || !measured) return NaN;
	return ((measured.ms.median - floor.ms.median) * 1000) / result.rows;
}

/** The memory a variant added: its first run's and the later runs' median, or the median alone. */
function addedPeak(v: FloorVariantResult): string {
	const later = mb(v.addedPeakMb.median);
	return v.firstRunAddedPeakMb === undefined ? later : `${mb(v.firstRunAddedPeakMb)} (${later})`;
}

/** The memory goal reads the first runs when both have one (rounds since they are measured). */
const memoryOf = (v: FloorVariantResult, other: FloorVariantResult) =>
	v.firstRunAddedPeakMb !== undefined && other.firstRunAddedPeakMb !== undefined
		? v.firstRunAddedPeakMb
		: v.addedPeakMb.median;

function caseTable(result: FloorCaseResult): string[] {
	return [
		`| ${result.operation}, ${result.rows.toLocaleString('en-US')} rows | Wall time, median (min–max) | Above the floor, per row | Main-thread CPU | CPU, all threads | Added peak RSS: first run (later runs’ median) |`,
		'|---|---|---|---|---|---|',
		`| bare fetch + JSON.parse | ${ms(result.bare.median)} (${ms(result.bare.min)}–${ms(result.bare.max)}) | | | | |`,
		...result.variants.map(
			(v) =>
				`| ${NAMES[v.variant]} | ${ms(v.ms.median)} (${ms(v.ms.min)}–${ms(v.ms.max)}) | ${v.variant === 'floor' ? '–' : µs(perRowAboveFloor(result, v.variant))} | ${ms(v.mainThreadMs.median)} | ${v.groupCpuMs ? ms(v.groupCpuMs.median) : '–'} | ${addedPeak(v)} |`,
		),
	];
}

/** The goals for one case: time, cost above the floor, memory against the generic path. */
function goals(result: FloorCaseResult) {
	const dialer = result.variants.find((v) => v.variant === 'dialer');
	const generic = result.variants.find((v) => v.variant === 'generic');
	if (!dialer || !generic) return undefined;
	return {
		time: ratio(dialer.ms.median, generic.ms.median),
		aboveFloor: [perRowAboveFloor(result, 'dialer'), perRowAboveFloor(result, 'generic')],
		memory: ratio(memoryOf(dialer, generic), memoryOf(generic, dialer)),
	};
}

export function reportFloorSection({ rounds }: ReportFloorResult): string[] {
	const lines = [
		'## 1b. Reports at n8n’s floor',
		'',
		'Each whole-period report, its latest 100,000 rows (`npm run bench -- --only report-floor [--cases getFP1,getRQ4] [--append]`): the Dialer node, HTTP Request + Split Out, and HTTP Request alone, whose one item holds the whole answer: fetch + parse inside n8n, the floor under both. What a variant spends above the floor, per row, is what making items costs it. Each variant in a fresh n8n of its own, saving off, a warm-up then the runs as in section 1; the three n8ns are up together and run in turn, the order rotating every run, so that the swings of a shared machine’s load reach all three alike. CPU, all threads: n8n’s processes, V8’s garbage-collection and compiler threads included. Memory: a variant’s first run in its fresh n8n (a cold n8n’s first big read; the goal reads it), with the later runs’ median beside it, which swings with whether V8 gave memory back while the other two ran. The simulator, in the bench’s process on the same cores, takes 1–3 s to build a 100,000-row answer, and that swings with the load: in rounds marked “answers replayed” it builds each request’s answer once (in the warm-up) and sends every run the same bytes, so the timed runs measure fetch and what n8n does. One table per round (a run of the section).',
		'',
	];
	const byOperation = new Map<string, Array<ReturnType<typeof goals>>>();
	for (const [index, round] of rounds.entries()) {
		lines.push(
			`### Round ${index + 1}: ${round.date.slice(0, 16).replace('T', ' ')} UTC, \`${round.commit}\`, load ${round.loadBefore.toFixed(2)}${round.replayedAnswers ? ', answers replayed' : ''}`,
			'',
		);
		for (const result of round.cases) {
			lines.push(...caseTable(result), '');
			const list = byOperation.get(result.operation) ?? [];
			list.push(goals(result));
			byOperation.set(result.operation, list);
		}
	}
	lines.push('### Goals, every round', '', '| Report | Goal | Each round | |', '|---|---|---|---|');
	for (const [operation, list] of byOperation) {
		const measured = list.filter((g) => g !== undefined);
		const row = (goal: string, values: string[], met: boolean) =>
			`| ${operation} | ${goal} | ${values.join(', ')} | ${met ? '✅ met' : '❌ missed'} |`;
		lines.push(
			row(
				'Dialer time ≤ 1.0× HTTP Request + Split Out',
				measured.map((g) => x(g.time)),
				measured.every((g) => g.time <= 1),
			),
			row(
				'Dialer cost above the floor per row ≤ Split Out’s',
				measured.map((g) => `${g.aboveFloor[0].toFixed(2)} vs ${g.aboveFloor[1].toFixed(2)} µs`),
				measured.every((g) => g.aboveFloor[0] <= g.aboveFloor[1]),
			),
			row(
				'Dialer added peak memory ≤ 0.6× generic',
				measured.map((g) => x(g.memory)),
				measured.every((g) => g.memory <= 0.6),
			),
		);
	}
	lines.push('');
	return lines;
}
