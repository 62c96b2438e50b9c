/** The benchmark's arithmetic and chart, which BENCHMARKS.md's verdicts rest on. */
import { chartSvg } from '../../harness/bench/report/chart';
import { percentile, ratio, summarize } from '../../harness/bench/lib/stats';

describe('bench statistics', () => {
	it('takes the median, min and max of unsorted runs', () => {
		expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, runs: 3 });
		expect(summarize([4, 1, 3, 2]).median).toBe(2.5);
		expect(summarize([]).runs).toBe(0);
	});

	it('takes nearest-rank percentiles', () => {
		const values = Array.from({ length: 100 }, (_, i) => 100 - i);
		expect(percentile(values, 50)).toBe(50);
		expect(percentile(values, 99)).toBe(99);
		expect(percentile([7], 99)).toBe(7);
	});

	it('gives no ratio against nothing', () => {
		expect(ratio(2, 4)).toBe(0.5);
		expect(ratio(2, 0)).toBeNaN();
	});
});

describe('bench chart', () => {
	it('draws every series of every panel, with escaped text', () => {
		const svg = chartSvg('A <title>', [
			{
				title: 'time',
				xLabel: 'rows',
				yLabel: 'ms',
				logX: true,
				series: [
					{
						name: 'Dialer & co',
						color: '#000',
						points: [
							[1000, 10],
							[100000, 900],
						],
					},
				],
			},
			{
				title: 'acks',
				xLabel: 'events/s',
				yLabel: 'ms',
				goal: { y: 100, label: 'goal' },
				series: [{ name: 'b', color: '#111', points: [[5, 20]] }],
			},
		]);
		expect(svg).toMatch(/^<svg [^>]+>/);
		expect(svg).toContain('A &lt;title&gt;');
		expect(svg).toContain('Dialer &amp; co');
		expect(svg.match(/<polyline/g)).toHaveLength(2);
		expect(svg.match(/<circle/g)).toHaveLength(3);
		expect(svg).not.toContain('NaN');
	});
});
