/**
 * Emit a Row Again When Its Status Changes: each change of a ficha's status once, never lost and
 * never twice, whatever order a read lists rows in, and whenever the look back for late rows runs.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import {
	pollReport,
	startState,
	type CursorSettings,
	type CursorState,
} from '../../../nodes/DialerReportTrigger/cursor';
import { rowIdentifier } from '../../../nodes/DialerReportTrigger/rowIdentity';
import { propertyRuns } from '../support/propertyRuns';
import { RULES } from '../support/reportRules';

const MINUTE = 60_000;
const zone = 'America/Sao_Paulo';
const settings: CursorSettings = {
	zone,
	overlapMs: 10 * MINUTE,
	maxRows: 1000,
	emitStatusChanges: true,
};
const start = DateTime.fromISO('2026-11-25T09:00:00', { zone }).toMillis();
const identify = rowIdentifier(RULES.getFP1, zone);

/** What each poll emits, one a minute from 09:01, each read listing what `listing` says then. */
async function emitsEachMinute(
	minutes: number,
	listing: (minute: number) => IDataObject[],
): Promise<IDataObject[][]> {
	let state: CursorState = startState('getFP1', null, start);
	const emitted: IDataObject[][] = [];
	for (let minute = 1; minute <= minutes; minute++) {
		const result = await pollReport(
			state,
			start + minute * MINUTE,
			settings,
			async () => listing(minute),
			identify,
		);
		emitted.push(result.emit);
		state = JSON.parse(JSON.stringify(result.state)) as CursorState;
	}
	return emitted;
}

const pending = { ficha: '42', data: '25/11/2026 09:00:05', agente: 'ana', status: 'Pendente' };
const done = { ...pending, status: 'Finalizada' };

describe('a ficha listed twice in one read with two statuses', () => {
	it('counts as its latest listing: emitted once, not again poll after poll (found: once a poll)', async () => {
		const later = { ...done, data: '25/11/2026 09:00:40' };
		// Both listings in every read, in an order that flips from read to read.
		const emitted = await emitsEachMinute(20, (minute) =>
			minute % 2 ? [pending, later] : [later, pending],
		);
		expect(emitted.flat()).toEqual([later]);
	});

	it('listed under the same time, the one chosen is the same every read', async () => {
		const emitted = await emitsEachMinute(20, (minute) =>
			minute % 2 ? [pending, done] : [done, pending],
		);
		expect(emitted.flat()).toHaveLength(1);
	});

	it('in any orders, over generated reads, at most one emission per distinct listing set', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.boolean(), { minLength: 2, maxLength: 30 }),
				fc.boolean(),
				async (flips, sameTime) => {
					const other = sameTime ? done : { ...done, data: '25/11/2026 09:00:40' };
					const emitted = await emitsEachMinute(flips.length, (minute) =>
						flips[minute - 1] ? [pending, other] : [other, pending],
					);
					expect(emitted.flat()).toHaveLength(1);
				},
			),
			{ numRuns: propertyRuns(50) },
		);
	});
});
