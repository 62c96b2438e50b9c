/**
 * The Report Trigger's clock check: rows dated ahead of now, or appearing dated before anything a
 * poll still reads, mean the dialer's clock or zone is not the one configured. Checked against a
 * simulated dialer that writes a row a minute on its own wall clock and filters reads by text.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	CHECK_INTERVAL_MS,
	checkClock,
	judgeClock,
	testEventWarnings,
} from '../../../nodes/DialerReportTrigger/clockCheck';
import type { ReadWindow } from '../../../nodes/DialerReportTrigger/cursor';
import { rowTime } from '../../../nodes/shared/dialerTime';
import { TEST_ZONES } from '../support/zones';
import { propertyRuns } from '../support/propertyRuns';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const settings = (zone: string) => ({ zone, overlapMs: 10 * MINUTE });
const NOW = Date.UTC(2026, 10, 21, 15, 0, 0);

describe('one check', () => {
	const window: ReadWindow = { from: NOW - 26 * HOUR, to: NOW + 26 * HOUR, de: '', ate: '' };

	it('is quiet for rows up to the Overlap Window ahead of now', () => {
		const times = [NOW - HOUR, NOW, NOW + 9 * MINUTE, undefined];
		expect(judgeClock(times, window, undefined, Infinity, NOW, settings('UTC')).warnings).toEqual(
			[],
		);
	});

	it('warns of rows dated further ahead: they come that much late', () => {
		const { warnings } = judgeClock(
			[NOW, NOW + 2 * HOUR],
			window,
			undefined,
			Infinity,
			NOW,
			settings('UTC'),
		);
		expect(warnings).toEqual([
			expect.stringMatching(/^Rows are dated up to 2 h 0 min ahead of now .* read in UTC/),
		]);
	});

	it('warns of rows that appeared dated before anything a poll still reads: they are lost', () => {
		const memory = { at: NOW - 15 * MINUTE, newest: NOW - 3 * HOUR, readFrom: NOW - 25 * MINUTE };
		const times = [NOW - 4 * HOUR, NOW - 2 * HOUR - 45 * MINUTE, NOW - 20 * MINUTE];
		const { warnings } = judgeClock(
			times,
			window,
			memory,
			Infinity,
			NOW,
			settings('America/Sao_Paulo'),
		);
		expect(warnings).toEqual([
			expect.stringMatching(/^1 row appeared dated up to 2 h 45 min before now .* not emitted/),
		]);
	});

	it("leaves the rows dated where the trigger's memory tells emitted rows apart to that memory", () => {
		const memory = { at: NOW - 15 * MINUTE, newest: NOW - 3 * HOUR, readFrom: NOW - 25 * MINUTE };
		const times = [NOW - 2 * HOUR - 45 * MINUTE, NOW - HOUR];
		const judged = (from: number) =>
			judgeClock(times, window, memory, from, NOW, settings('UTC')).warnings;
		expect(judged(NOW - 2 * HOUR)).toEqual([expect.stringMatching(/^1 row appeared/)]);
		expect(judged(NOW - 3 * HOUR)).toEqual([]);
	});

	it('Fetch Test Event names how old the newest row is when the last hour had none', () => {
		const warnings = testEventWarnings(
			[NOW - 5 * HOUR, NOW - 3 * HOUR],
			NOW,
			settings('UTC'),
			HOUR,
		);
		expect(warnings).toEqual([expect.stringMatching(/^The newest row is dated 3 h 0 min before/)]);
		expect(testEventWarnings([NOW - 30 * MINUTE], NOW, settings('UTC'), HOUR)).toEqual([]);
	});
});

/** A dialer writing a row every minute on the wall clock of `zone`, read by wall-clock text. */
function dialer(zone: string, from: number, to: number, clockBehindMs = 0) {
	const texts: string[] = [];
	for (let at = from; at <= to; at += MINUTE) {
		texts.push(DateTime.fromMillis(at - clockBehindMs, { zone }).toFormat('yyyy-MM-dd HH:mm:ss'));
	}
	const digits = (text: string) => text.replace(/\D/g, '');
	return {
		/** The rows written by `now`, inside the read's de/ate, their times read in `readZone`. */
		read(read: ReadWindow, now: number, readZone: string) {
			const written = texts.slice(0, Math.floor((now - from) / MINUTE) + 1);
			return written
				.filter((text) => digits(text) >= read.de && digits(text) <= read.ate)
				.map((text) => rowTime(text, readZone));
		},
	};
}

/** Polls every 15 minutes from `start` (3 hours by default); the warnings of each, in order. */
let triggers = 0;

async function checksOver(
	dialerZone: string,
	triggerZone: string,
	start: number,
	{ behindMs = 0, polls = 13 } = {},
) {
	const sim = dialer(dialerZone, start - 30 * HOUR, start + polls * CHECK_INTERVAL_MS, behindMs);
	const trigger = `trigger-${++triggers}`;
	const warnings: string[][] = [];
	for (let poll = 0; poll < polls; poll++) {
		const now = start + poll * CHECK_INTERVAL_MS;
		const done = await checkClock(
			trigger,
			'scope',
			now,
			Infinity,
			settings(triggerZone),
			async (read) => sim.read(read, now, triggerZone),
			(time) => time,
		);
		warnings.push(done(now).warnings);
	}
	return warnings;
}

/** Instants over 2026, with the clock changes of the zones above among them. */
const starts = fc.oneof(
	fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) }),
	fc.constantFrom(
		Date.UTC(2026, 2, 8, 5), // New York, forward
		Date.UTC(2026, 2, 29, 0), // Berlin, forward
		Date.UTC(2026, 3, 4, 1), // Santiago, Sydney, Auckland, back
		Date.UTC(2026, 9, 25, 0), // Berlin, back
		Date.UTC(2026, 10, 1, 4), // New York, back
	),
);

describe('checks over hours of polling', () => {
	it('never warn when the trigger reads in the dialer zone, across clock changes', async () => {
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...TEST_ZONES), starts, async (zone, start) => {
				expect((await checksOver(zone, zone, start)).flat()).toEqual([]);
			}),
			{ numRuns: propertyRuns(40) },
		);
	});

	/** The minutes `dialerZone` is ahead of `triggerZone` at each instant. */
	const zoneGaps = (dialerZone: string, triggerZone: string, instants: number[]) =>
		instants.map(
			(at) =>
				DateTime.fromMillis(at, { zone: dialerZone }).offset -
				DateTime.fromMillis(at, { zone: triggerZone }).offset,
		);
	/** Whether `zone` moves its clocks within two hours of `at` (the check then allows that much). */
	const nearClockChange = (zone: string, at: number) =>
		new Set([at - 2 * HOUR, at, at + 2 * HOUR].map((t) => DateTime.fromMillis(t, { zone }).offset))
			.size > 1;

	/**
	 * A wrong zone read in, off by at least half an hour over `spanMs` from the start, is warned of
	 * within `polls` polls (`skipNearChange`: starts near the trigger zone's clock change left out).
	 */
	const warnsOfWrongZone = (spanMs: number, polls: number, skipNearChange: boolean) =>
		fc.assert(
			fc.asyncProperty(
				fc.constantFrom(...TEST_ZONES),
				fc.constantFrom(...TEST_ZONES),
				starts,
				async (dialerZone, triggerZone, start) => {
					const gaps = zoneGaps(dialerZone, triggerZone, [start, start + spanMs]);
					fc.pre(gaps.every((gap) => Math.abs(gap) >= 30));
					fc.pre(!(skipNearChange && nearClockChange(triggerZone, start + spanMs / 2)));
					expect((await checksOver(dialerZone, triggerZone, start, { polls })).flat()).not.toEqual(
						[],
					);
				},
			),
			{ numRuns: propertyRuns(skipNearChange ? 60 : 30) },
		);

	// Near its own clock change the trigger reads an hour's times either way: warned later.
	it('warn by the second check when the zone read in is wrong by more than half an hour', () =>
		warnsOfWrongZone(30 * MINUTE, 3, true));

	it('warn within three hours when the zone is wrong by more than half an hour, across clock changes', () =>
		warnsOfWrongZone(3 * HOUR, 13, false));

	it('warn when the dialer clock is behind by more than the Overlap Window and a check', async () => {
		const warnings = await checksOver('America/Sao_Paulo', 'America/Sao_Paulo', NOW, {
			behindMs: 40 * MINUTE,
		});
		expect(warnings[1]).toEqual([]);
		expect(warnings[2]).toEqual([expect.stringMatching(/rows appeared dated .* not emitted/)]);
	});
});
