import { DialerClock, SKEW_WARNING_SECONDS } from '../../../nodes/DialerTrigger/dialerClock';

/** 2026-12-01 12:00:00 UTC, Unix seconds. */
const NOON = 1_796_126_400;

/** A delivery of an event at dialer second `t`, arriving `afterMs` after n8n's `t + offset`. */
const arrival = (t: number, offsetSeconds: number, afterMs: number) =>
	(t + offsetSeconds) * 1000 + afterMs;

describe("the dialer's clock offset, read from deliveries", () => {
	it('is 0 for a dialer in step, whatever part of its second an event happened in', () => {
		const clock = new DialerClock();
		for (const [i, afterMs] of [0, 999, 450, 80, 990].entries()) {
			const reading = clock.observe(NOON + i, arrival(NOON + i, 0, afterMs));
			expect(reading.offsetSeconds).toBe(0);
			expect(reading.warning).toBeUndefined();
		}
	});

	it.each([6, 10, -7, 10_800, -10_800])(
		'is %i s for a dialer that far behind (ahead, when negative), and warns once',
		(offsetSeconds) => {
			const clock = new DialerClock();
			const readings = [0, 1, 2, 3].map((i) =>
				clock.observe(NOON + i, arrival(NOON + i, offsetSeconds, 40 + i * 200)),
			);
			expect(readings.map((reading) => reading.offsetSeconds)).toEqual([
				offsetSeconds,
				offsetSeconds,
				offsetSeconds,
				offsetSeconds,
			]);
			expect(readings.map((reading) => reading.newSkew)).toEqual([true, false, false, false]);
			expect(readings[3].warning).toContain(`${Math.abs(offsetSeconds)} s`);
		},
	);

	it('takes an offset under 2 s for 0: a delivery n8n took a moment late looks the same', () => {
		const clock = new DialerClock();
		expect(clock.observe(NOON, arrival(NOON, 0, 1_900)).offsetSeconds).toBe(0);
		expect(clock.observe(NOON + 1, arrival(NOON + 1, -1, 300)).offsetSeconds).toBe(0);
		expect(new DialerClock().observe(NOON, arrival(NOON, 2, 10)).offsetSeconds).toBe(2);
	});

	it('takes late deliveries for what they are: the smallest delay of recent ones counts', () => {
		const clock = new DialerClock();
		clock.observe(NOON, arrival(NOON, 0, 100));
		// n8n took these 25 s late: the offset stays what the prompt delivery showed.
		for (let i = 1; i <= 20; i++)
			expect(clock.observe(NOON + i, arrival(NOON + i, 0, 25_000)).offsetSeconds).toBe(0);
	});

	it("never puts a time on n8n's clock 2 s or more before the true offset, nor 1 s after it", () => {
		for (const trueOffsetMs of [0, 400, 600, 999, 1_999, 2_001, 6_000, 6_499, 6_501, -6_200]) {
			const clock = new DialerClock();
			let reading = clock.observe(NOON, NOON * 1000 + trueOffsetMs + 1);
			for (let i = 1; i < 10; i++)
				reading = clock.observe(NOON + i, (NOON + i) * 1000 + trueOffsetMs + i * 97);
			expect(reading.offsetSeconds * 1000).toBeGreaterThan(trueOffsetMs - 2000);
			expect(reading.offsetSeconds * 1000).toBeLessThan(trueOffsetMs + 1000);
		}
	});

	it('follows a dialer whose clock is corrected, within a few minutes', () => {
		const clock = new DialerClock();
		clock.observe(NOON, arrival(NOON, 30, 50));
		expect(clock.observe(NOON + 60, arrival(NOON + 60, 30, 50)).offsetSeconds).toBe(30);
		// Set to network time: later deliveries show 0, and the old minimum ages out.
		const later = NOON + 400;
		expect(clock.observe(later, arrival(later, 0, 50))).toEqual({
			offsetSeconds: 0,
			orderShiftSeconds: 0,
			newSkew: false,
		});
	});

	it(`warns again only when the skew moves by more than ${SKEW_WARNING_SECONDS} s`, () => {
		const clock = new DialerClock();
		expect(clock.observe(NOON, arrival(NOON, 20, 10)).newSkew).toBe(true);
		expect(clock.observe(NOON + 1, arrival(NOON + 1, 20, 10)).newSkew).toBe(false);
		// Clock set forward by 10 s more: a new skew, named again.
		expect(clock.observe(NOON + 2, arrival(NOON + 2, 9, 10)).newSkew).toBe(true);
	});

	it('follows a dialer clock set back at once: no delivery is that late (it gives up at 5 s)', () => {
		const clock = new DialerClock();
		clock.observe(NOON, arrival(NOON, 0, 50));
		// Set back 40 s: the next delivery shows it, and the offset moves with it.
		expect(clock.observe(NOON - 30, arrival(NOON - 30, 40, 80)).offsetSeconds).toBe(40);
		expect(clock.observe(NOON - 29, arrival(NOON - 29, 40, 900)).offsetSeconds).toBe(40);
	});

	it('reads a delivery sent before the clock was set back, and taken after, on the old offset', () => {
		const clock = new DialerClock();
		clock.observe(NOON, arrival(NOON, 6, 50));
		// Set back an hour (daylight-saving time ends): the offset moves by the hour.
		const after = NOON + 2 - 3600;
		expect(clock.observe(after, arrival(after, 3606, 40)).offsetSeconds).toBe(3606);
		// An event of NOON + 1, held back 4 s: still on the clock it was stamped with.
		const held = clock.observe(NOON + 1, arrival(NOON + 1, 6, 4000));
		expect(held).toMatchObject({ offsetSeconds: 6, orderShiftSeconds: 0 });
		expect(clock.observe(after + 1, arrival(after + 1, 3606, 300))).toMatchObject({
			offsetSeconds: 3606,
			orderShiftSeconds: 3600,
		});
	});

	it('forgets a delivery misread as a clock set back at the next prompt one', () => {
		const clock = new DialerClock();
		clock.observe(NOON, arrival(NOON, 0, 50));
		expect(clock.observe(NOON + 1, arrival(NOON + 1, 0, 45_000)).offsetSeconds).toBe(45);
		expect(clock.observe(NOON + 47, arrival(NOON + 47, 0, 60)).offsetSeconds).toBe(0);
	});

	it('keeps one order shift for a dialer about 7.5 minutes off, its offset jittering', () => {
		const clock = new DialerClock();
		const shifts = [600, 30, 700, 20, 900, 10].map(
			(afterMs, i) => clock.observe(NOON + i, arrival(NOON + i, 449.9, afterMs)).orderShiftSeconds,
		);
		expect(new Set(shifts).size).toBe(1);
	});

	it.each([
		[0, 0],
		[6, 0],
		[-420, 0],
		[3600, 3600],
		[-3600, -3600],
		[3 * 3600 + 4, 3 * 3600],
		[-(5 * 3600 + 1800), -(5 * 3600 + 1800)],
		[-(5 * 3600 + 2700) + 3, -(5 * 3600 + 2700)],
	])('orders events of a dialer %i s off by whole quarter-hours: %i s', (offset, shift) => {
		const reading = new DialerClock().observe(NOON, arrival(NOON, offset, 30));
		expect(reading.orderShiftSeconds).toBe(shift);
	});
});
