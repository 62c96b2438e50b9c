/** How the page writes numbers: one formatter per unit for every section. */
import type { Summary } from '../lib/stats';

const whole = (value: number, unit: string) =>
	Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} ${unit}` : '–';

export const ms = (value: number) => whole(value, 'ms');
export const mb = (value: number) => whole(value, 'MB');
export const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');
export const verdict = (met: boolean) => (met ? '✅ met' : '❌ missed');
/** A median with its range over the runs; one run alone (or a range runs left blank) as is. */
export const spread = (s: Summary, unit: (value: number) => string) =>
	s.runs > 1 && Number.isFinite(s.min) && Number.isFinite(s.max)
		? `${unit(s.median)} (${unit(s.min)}–${unit(s.max)})`
		: unit(s.median);
