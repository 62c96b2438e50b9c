import { numberFromText } from '../shared/parameters';

/**
 * The options that refuse stale or replayed deliveries by their event time `t`. Both are off
 * (0) by default: they compare the dialer's clock with n8n's, and a dialer whose clock is wrong
 * by more than the limit would have every event refused, and lost (the dialer never retries).
 */
export interface FreshnessLimits {
	/** Refuse an event more than this many seconds before n8n's clock; 0: off. */
	maxAgeSeconds: number;
	/** Refuse an event more than this many seconds after n8n's clock; 0: off. */
	maxAheadSeconds: number;
}

/**
 * A limit read from the Options collection: a positive number of seconds (also as text, "300"),
 * anything else off.
 */
export function limitSeconds(value: unknown): number {
	const seconds = numberFromText(value);
	return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/** Why an event time is refused under the limits, or undefined when it passes. */
export function freshnessProblem(
	eventSeconds: number,
	nowSeconds: number,
	{ maxAgeSeconds, maxAheadSeconds }: FreshnessLimits,
): string | undefined {
	const age = Math.floor(nowSeconds - eventSeconds);
	if (maxAgeSeconds > 0 && age > maxAgeSeconds)
		return (
			`Stale delivery: its event time t is ${age} s before n8n's clock, and this workflow ` +
			`refuses events older than ${maxAgeSeconds} s (Max Event Age)`
		);
	if (maxAheadSeconds > 0 && -age > maxAheadSeconds)
		return (
			`Delivery from the future: its event time t is ${-age} s after n8n's clock, and this ` +
			`workflow refuses events more than ${maxAheadSeconds} s ahead (Max Event Time Ahead)`
		);
	return undefined;
}
