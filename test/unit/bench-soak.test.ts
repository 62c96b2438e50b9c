/**
 * The soak section of BENCHMARKS.md: a shift stopped because n8n's memory passed the ceiling
 * shows what was measured until then, never figures it could not measure.
 */
import { soakSection } from '../../bench/report/soak';
import type { SoakPoint, SoakResult } from '../../bench/scenarios/soak';

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
