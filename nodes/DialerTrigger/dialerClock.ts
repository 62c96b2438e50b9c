/**
 * The dialer's clock as seen from n8n: how far n8n's clock is ahead of the dialer's, read from
 * the deliveries themselves.
 *
 * A delivery arrives after its event happened, and `t` is the event's second rounded down, so
 * `arrival − t` is never less than the offset between the two clocks: it is the offset plus the
 * delivery's delay plus the part of the second `t` dropped. The smallest value over recent
 * deliveries is therefore the offset or a little more; shown in whole seconds (and as 0 under
 * 2 s), it is within 2 s of it. Recent means the last few minutes, so a slow drift is followed.
 *
 * A clock set forward shows at once (a smaller value). A clock set back shows as deliveries
 * later than any the dialer waits for: it gives up on a delivery after 5 s, so one arriving
 * `STEP_BACK_SECONDS` later than the offset allows means the dialer's clock moved, and the
 * offset starts over from it. The offset before the change is kept for a few minutes too: a
 * delivery sent before the change and taken after it is read on the clock it was stamped with.
 */

/** How long one bucket of the minimum covers, and how many buckets make the window. */
const BUCKET_MS = 60_000;
const BUCKETS = 3;

/**
 * An offset under this many seconds is taken as 0: a delivery n8n took a moment late looks the
 * same, and a second either way is inside what the live alerts wait for anyway.
 */
const SMALLEST_OFFSET_SECONDS = 2;

/** How much later than the offset a delivery must arrive to show a clock set back. */
const STEP_BACK_SECONDS = 30;

/**
 * The events' order is kept on the dialer's clock (it never jitters with n8n's load), moved by
 * the offset in whole quarter-hours: a dialer writing local time as if it were UTC, or one that
 * changes to or from daylight-saving time, jumps by quarter-hours (every timezone is a whole
 * number of them from UTC), and the order stays continuous across the jump.
 */
const ORDER_STEP_SECONDS = 15 * 60;

/** A skew beyond this many seconds is named in n8n's log and on the items. */
export const SKEW_WARNING_SECONDS = 5;

interface Bucket {
	index: number;
	smallestMs: number;
}

export interface ClockReading {
	/** n8n's clock minus the dialer's, whole seconds: add it to a dialer time to get n8n's. */
	offsetSeconds: number;
	/** The offset in whole quarter-hours: add it to a dialer time to order events. */
	orderShiftSeconds: number;
	/** Set when the skew is beyond `SKEW_WARNING_SECONDS`: what it means, for users. */
	warning?: string;
	/** True for the delivery that first shows a skew (or a new one): the moment to log it. */
	newSkew: boolean;
}

/** What a skew means, in words for the item and the log. */
export function skewWarning(offsetSeconds: number): string {
	const direction = offsetSeconds > 0 ? 'behind' : 'ahead of';
	return (
		`Deliveries arrive as if the dialer's clock were ${Math.abs(offsetSeconds)} s ${direction} ` +
		"n8n's: the dialer's clock is off, or n8n takes deliveries late. Times on n8n's clock are " +
		'in n8nClock; set the dialer server to network time (NTP)'
	);
}

/**
 * The order shift moves only when the offset has moved this far from it: an offset that jitters
 * by a second around 7.5 minutes (mod 15) keeps one shift.
 */
const ORDER_SHIFT_HOLD_SECONDS = 10 * 60;

/** The smallest `arrival − t` of recent deliveries, in buckets of a minute. */
class Window {
	private readonly buckets: Bucket[] = [];
	private orderShift: number | undefined;

	constructor(index: number, sampleMs: number) {
		this.buckets.push({ index, smallestMs: sampleMs });
	}

	add(index: number, sampleMs: number): void {
		const current = this.buckets.at(-1)!;
		if (current.index === index) current.smallestMs = Math.min(current.smallestMs, sampleMs);
		else this.buckets.push({ index, smallestMs: sampleMs });
	}

	/** Drops the buckets older than the window; false once none is left. */
	keep(index: number): boolean {
		while (this.buckets.length > 0 && this.buckets[0].index <= index - BUCKETS)
			this.buckets.shift();
		return this.buckets.length > 0;
	}

	get smallestMs(): number {
		return Math.min(...this.buckets.map((bucket) => bucket.smallestMs));
	}

	/** The offset in whole quarter-hours, held while the offset stays near it. */
	orderShiftFor(offsetSeconds: number): number {
		if (
			this.orderShift === undefined ||
			Math.abs(offsetSeconds - this.orderShift) > ORDER_SHIFT_HOLD_SECONDS
		)
			this.orderShift = ORDER_STEP_SECONDS * Math.round(offsetSeconds / ORDER_STEP_SECONDS) || 0;
		return this.orderShift;
	}

	/** Whether a delivery fits this offset: no earlier than it allows, nor a clock set back. */
	fits(sampleMs: number): boolean {
		const above = sampleMs - this.smallestMs;
		return above >= -SMALLEST_OFFSET_SECONDS * 1000 && above <= STEP_BACK_SECONDS * 1000;
	}
}

/** The offset of one trigger's dialer, from the deliveries of the last few minutes. */
export class DialerClock {
	/** The offset now, and the one before the dialer's clock was last set back. */
	private current: Window | undefined;
	private before: Window | undefined;
	private warnedSeconds: number | undefined;

	/** Takes one delivery (`t` in Unix seconds, arrival in ms) and returns its offset. */
	observe(t: number, arrivalMs: number): ClockReading {
		const index = Math.floor(arrivalMs / BUCKET_MS);
		const sampleMs = arrivalMs - t * 1000;
		if (this.before && !this.before.keep(index)) this.before = undefined;
		if (this.current && !this.current.keep(index)) this.current = this.before = undefined;
		let window: Window;
		if (!this.current) {
			window = this.current = new Window(index, sampleMs);
		} else if (!this.current.fits(sampleMs) && this.before?.fits(sampleMs)) {
			// Sent before the clock was set back, taken after.
			window = this.before;
			window.add(index, sampleMs);
		} else if (sampleMs - this.current.smallestMs > STEP_BACK_SECONDS * 1000) {
			this.before = this.current;
			window = this.current = new Window(index, sampleMs);
		} else {
			window = this.current;
			window.add(index, sampleMs);
		}
		// Whole seconds, rounded down: the fraction is the part of its second `t` drops, so a
		// dialer in step shows 0.
		const measured = Math.floor(window.smallestMs / 1000);
		const offsetSeconds = Math.abs(measured) < SMALLEST_OFFSET_SECONDS ? 0 : measured;
		const skewed = Math.abs(offsetSeconds) > SKEW_WARNING_SECONDS;
		const newSkew =
			skewed &&
			(this.warnedSeconds === undefined ||
				Math.abs(offsetSeconds - this.warnedSeconds) > SKEW_WARNING_SECONDS);
		if (newSkew) this.warnedSeconds = offsetSeconds;
		if (!skewed) this.warnedSeconds = undefined;
		return {
			offsetSeconds,
			orderShiftSeconds: window.orderShiftFor(offsetSeconds),
			newSkew,
			...(skewed ? { warning: skewWarning(offsetSeconds) } : {}),
		};
	}
}

/** One clock per trigger (workflow and node), for as long as this n8n process runs. */
export class DialerClocks {
	private readonly clocks = new Map<string, DialerClock>();

	for(trigger: string): DialerClock {
		let clock = this.clocks.get(trigger);
		if (!clock) {
			clock = new DialerClock();
			this.clocks.set(trigger, clock);
		}
		return clock;
	}
}
