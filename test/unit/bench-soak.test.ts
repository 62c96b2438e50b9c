/**
 * The soak section of BENCHMARKS.md: a shift stopped because n8n's memory passed the ceiling
 * shows what was measured until then, never figures it could not measure; memory is called flat
 * by its peaks, whatever moment garbage collection gives memory back.
 */
import { soakSection } from '../../harness/bench/report/soak';
import {
	peakGrowthPerMinute,
	SOAK_GOALS,
	type SoakPoint,
	type SoakResult,
} from '../../harness/bench/scenarios/soak';

const none = { p50: NaN, p99: NaN, max: NaN };

const stopped: SoakPoint = {
	settings: "n8n's defaults",
	env: {},
	rate: 20,
	minutes: 10,
	sent: 6000,
	accepted: 5990,
	lost: 10,
	savedAfterSecondMs: none,
	unsaved: NaN,
	alerts: { expected: NaN, alerted: NaN, missed: NaN, wrong: NaN, lateMs: none },
	wallboard: { p50: 900, p99: 4000, max: 4000, requests: 40, failed: 30 },
	boardWrong: NaN,
	memory: { startMb: 900, endMb: 12400, peakMb: 12400, mbPerMinuteAfterWarmUp: NaN },
	executions: { runningMax: 1644, waitingMax: 9 },
	stoppedAtS: 410,
	samples: [
		{ atS: 0, rssMb: 600, running: 0, waiting: 0, wallboardMs: 100 },
		{ atS: 400, rssMb: 12400, running: 1644, waiting: 9 },
	],
	held: false,
};

const result: SoakResult = {
	rates: [20],
	minutes: 10,
	settings: ['defaults'],
	env: {},
	goals: { alertP99Ms: 3000, wallboardP99Ms: 1000, memoryMbPerMinute: 5 },
	memoryCeilingMb: 12000,
	points: [stopped],
};

it('shows a shift stopped for memory as not held, with its deliveries, executions and memory until then', () => {
	const row = soakSection(result).find((line) => line.startsWith("| n8n's defaults ("))!;
	expect(row).toContain('10 of 6000 until stopped');
	expect(row).toContain('1644 / 9');
	expect(row).toMatch(/stopped at 410 s, memory over 12,000 MB/);
	expect(row).not.toContain('NaN');
});

it('shows a point stopped after its shift by how long after, and memory it could not read as –', () => {
	const late: SoakPoint = {
		...stopped,
		stoppedAtS: 700,
		executions: { runningMax: NaN, waitingMax: NaN },
		samples: [...stopped.samples, { atS: 405, rssMb: NaN, running: NaN, waiting: NaN }],
	};
	const lines = soakSection({ ...result, points: [late] });
	expect(lines.join('\n')).toMatch(/n8n stopped 100 s after the shift, memory over 12,000 MB/);
	expect(lines.join('\n')).not.toMatch(/NaN|Infinity/);
});

describe('memory growth after warm-up', () => {
	const every5s = (rss: (atS: number) => number) =>
		Array.from({ length: 97 }, (_, i) => ({ atS: 120 + 5 * i, rssMb: rss(120 + 5 * i) }));

	it('is flat when memory climbs and is given back each cycle, wherever the drops fall', () => {
		// A sawtooth: +1 MB a second, back to 600 MB every 100 s, the drops at any offset.
		for (const offset of [0, 17, 33, 71, 99]) {
			const growth = peakGrowthPerMinute(every5s((s) => 600 + ((s + offset) % 100)));
			expect(Math.abs(growth)).toBeLessThan(1);
		}
	});

	it('is the rise of the peaks when memory is never given back in full', () => {
		// The same sawtooth on a floor rising 12 MB a minute.
		const growth = peakGrowthPerMinute(every5s((s) => 600 + (s * 12) / 60 + (s % 100)));
		expect(growth).toBeGreaterThan(SOAK_GOALS.memoryMbPerMinute);
	});

	it('is falling when the first big collection comes after warm-up', () => {
		expect(peakGrowthPerMinute(every5s((s) => (s < 200 ? 1400 : 700)))).toBeLessThan(0);
	});
});
