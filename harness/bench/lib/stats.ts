/** Summaries of repeated measurements: medians with their spread, percentiles of latencies. */

export interface Summary {
	median: number;
	min: number;
	max: number;
	runs: number;
}

export function summarize(values: number[]): Summary {
	if (values.length === 0) return { median: NaN, min: NaN, max: NaN, runs: 0 };
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function ratio(value: number, reference: number): number {
	return reference > 0 ? value / reference : NaN;
}
