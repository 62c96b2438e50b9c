/** How the report trigger reads the times report rows carry. */
import { DateTime } from 'luxon';

import { rowInstants, rowTime } from '../../../nodes/shared/dialerTime';

describe('row times', () => {
	const zone = 'America/Sao_Paulo';
	const expected = DateTime.fromISO('2026-11-23T10:00:01', { zone }).toMillis();

	it.each([
		'23/11/2026 10:00:01',
		'2026-11-23 10:00:01',
		' 23/11/2026 10:00:01 ',
		'2026-11-23T10:00:01',
	])('reads %j as wall-clock time in the workflow timezone', (text) =>
		expect(rowTime(text, zone)).toBe(expected),
	);

	it.each([undefined, '', 'ontem', '31/02/2026 10:00:00', 42])('has no time for %j', (value) =>
		expect(rowTime(value, zone)).toBeUndefined(),
	);

	it('reads minutes-only times (dd/mm/yyyy hh:mm) as the start of that minute', () =>
		expect(rowTime('23/11/2026 10:00', zone)).toBe(expected - 1000));

	it('reads a minutes-only time as its whole minute', () =>
		expect(rowInstants('23/11/2026 10:00', zone)).toEqual({
			earliest: expected - 1000,
			latest: expected + 58_000,
		}));

	it.each(['America/New_York', 'America/Santiago', 'Australia/Sydney', 'Pacific/Auckland'])(
		'reads every quarter hour of both DST change days in %s as every instant it can name',
		(dstZone) => {
			const changes = [3, 4, 9, 10, 11].flatMap((month) =>
				Array.from({ length: 31 }, (_, day) =>
					DateTime.fromObject({ year: 2026, month, day: day + 1 }, { zone: dstZone }),
				).filter((date) => date.isValid && date.offset !== date.plus({ days: 1 }).offset),
			);
			expect(changes).toHaveLength(2);
			let ambiguous = 0;
			for (const change of changes) {
				const day = DateTime.fromISO(change.toISODate()!, { zone: 'UTC' }).minus({ days: 1 });
				for (let minutes = 0; minutes < 72 * 60; minutes += 15) {
					const wall = day.plus({ minutes, seconds: 7 });
					const text = wall.toFormat('dd/MM/yyyy HH:mm:ss');
					// Every offset the zone uses that day, kept where it gives back the same text.
					const offsets = [change.offset, change.plus({ days: 1 }).offset];
					const readings = offsets.map((offset) => wall.toMillis() - offset * 60_000);
					const named = readings.filter(
						(instant) =>
							DateTime.fromMillis(instant, { zone: dstZone }).toFormat('dd/MM/yyyy HH:mm:ss') ===
							text,
					);
					const instants = named.length > 0 ? named : readings;
					if (new Set(named).size === 2) ambiguous++;
					const yearFirst = wall.toFormat('yyyy-MM-dd HH:mm:ss');
					const range = { earliest: Math.min(...instants), latest: Math.max(...instants) };
					expect([rowInstants(text, dstZone), rowInstants(yearFirst, dstZone)]).toEqual([
						range,
						range,
					]);
				}
			}
			// The four quarter hours of the hour that happens twice are read both ways.
			expect(ambiguous).toBe(4);
		},
	);
});
