/**
 * The Report Trigger's clock check: rows dated ahead of now, or appearing dated before anything a
 * poll still reads, mean the dialer's clock or zone is not the one configured. Checked against a
 * simulated dialer that writes a row a minute on its own wall clock and filters reads by text.
 */
import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import {
	CHECK_INTERVAL_MS,
	judgeClock,
	testEventWarnings,
} from '../../../nodes/DialerReportTrigger/clockCheck';
import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { fakePollFunctions } from '../support/pollFunctions';
import { TEST_ZONES } from '../support/zones';
import { propertyRuns } from '../support/propertyRuns';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const settings = (zone: string) => ({ zone, overlapMs: 10 * MINUTE });
const NOW = Date.UTC(2026, 10, 21, 15, 0, 0);

describe('one check', () => {
	it('is quiet for rows up to the Overlap Window ahead of now', () => {
		const times = [NOW - HOUR, NOW, NOW + 9 * MINUTE, undefined];
		expect(judgeClock(times, NOW, settings('UTC'))).toEqual([]);
	});

	it('warns of rows dated further ahead: they come that much late', () => {
		expect(judgeClock([NOW, NOW + 2 * HOUR], NOW, settings('UTC'))).toEqual([
			expect.stringMatching(/^Rows are dated up to 2 h 0 min ahead of now .* read in UTC/),
		]);
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

/** A dialer writing a ficha every minute on the wall clock of `zone`, read by wall-clock text. */
function dialer(zone: string, from: number, to: number, clockBehindMs = 0) {
	const written: Array<{ at: number; digits: string; data: string }> = [];
	for (let at = from; at <= to; at += MINUTE) {
		const wall = DateTime.fromMillis(at - clockBehindMs, { zone });
		written.push({
			at,
			digits: wall.toFormat('yyyyMMddHHmmss'),
			data: wall.toFormat('dd/MM/yyyy HH:mm:ss'),
		});
	}
	/** getFP1's answer at `now`: the fichas written by then inside the read's de/ate. */
	return (form: URLSearchParams, now: number) => ({
		data: written
			.filter(({ at }) => at <= now)
			.filter(({ digits }) => digits >= form.get('de')! && digits <= form.get('ate')!)
			.map(({ at, data }) => ({ ficha: String(at / MINUTE), data, agente: 'ana', status: 'P' })),
	});
}

let triggers = 0;
const trigger = new DialerReportTrigger();

/**
 * An active Report Trigger reading in `triggerZone` polled every 15 minutes from `start` (13
 * polls, 3 hours, by default) against a dialer in `dialerZone`; the warnings of each poll.
 */
async function checksOver(
	dialerZone: string,
	triggerZone: string,
	start: number,
	{ behindMs = 0, polls = 13 } = {},
) {
	const answer = dialer(dialerZone, start - 30 * HOUR, start + polls * CHECK_INTERVAL_MS, behindMs);
	const workflowId = `clock-${++triggers}`;
	const staticData: IDataObject = {};
	const warnings: string[][] = [];
	try {
		for (let poll = 0; poll < polls; poll++) {
			const now = start + poll * CHECK_INTERVAL_MS;
			Settings.now = () => now;
			const logged: string[] = [];
			await trigger.poll.call(
				fakePollFunctions({
					parameters: { event: 'newFilledForm', form: '41', filters: {}, options: {} },
					staticData,
					workflowId,
					timezone: triggerZone,
					warnings: logged,
					answer: (form) => answer(form, now),
				}),
			);
			warnings.push(logged);
		}
	} finally {
		Settings.now = () => Date.now();
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
			{ numRuns: propertyRuns(10) },
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
			{ numRuns: propertyRuns(skipNearChange ? 20 : 10) },
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
		expect(warnings[0]).toEqual([]);
		expect(warnings[1]).toEqual([
			expect.stringMatching(
				/^15 rows appeared later than the Overlap Window \(10 min\) allows and will not be emitted/,
			),
		]);
	});
});
