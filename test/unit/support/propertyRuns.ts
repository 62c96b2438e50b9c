/**
 * How many generated cases a property test runs: `runs` is sized for CI (a few seconds a test on 2
 * cores); PROPERTY_RUNS_SCALE multiplies every test's runs at once (10 for a long hunt before a
 * release, 0.1 for a quick look while editing).
 */
export function propertyRuns(runs: number): number {
	const scale = Number(process.env.PROPERTY_RUNS_SCALE ?? '1');
	return Math.max(1, Math.round(runs * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}
