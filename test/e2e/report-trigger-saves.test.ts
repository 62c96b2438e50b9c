/**
 * The Dialer Report Trigger inside a real n8n against the two dialers the contract leaves open for
 * a ficha saved again later: one that moves its `data` to the save, one that keeps `data` and
 * filters `de`/`ate` by the last save. Each ficha is emitted once, however long after its first
 * time it is saved again; with Emit a Row Again When Its Status Changes, once per status.
 */
import { DateTime } from 'luxon';

import type { FichaSaves } from '../../harness/simulator/types';
import { DialerRunner } from './support/dialerRunner';
import { emittedItems, pollWhileRowsArrive } from './support/reportTrigger';

// The simulator writes wall-clock times in this process's zone: the workflows read them in it.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** Polls 2 s apart: the last save is listed (by a dialer filtering by it) for over a minute. */
const MIN_POLLS = 45;

const CASES: Array<[string, FichaSaves, boolean]> = [
	['re-dated when saved again: once', 'redated', false],
	['listed by its last save: once', 'filteredBySave', false],
	['re-dated, with the option: once per status', 'redated', true],
	['listed by its last save, with the option: once per status', 'filteredBySave', true],
];

describe('a ficha saved again minutes after it was filled', () => {
	it.concurrent.each(CASES)(
		'%s',
		async (_title, fichaSaves, emitStatusChanges) => {
			const started = Date.now();
			const dialer = await DialerRunner.start({ timezone: ZONE, simulator: { fichaSaves } });
			try {
				const { sim } = dialer;
				const filledAt = Math.floor(started / 1000) * 1000 - 210_000;
				const startFrom = DateTime.fromMillis(filledAt - 30_000, { zone: ZONE });
				// Filled 3.5 minutes ago: past the Overlap Window of 1 minute when saved again.
				const [saved] = sim.rows.add({
					report: 'getFP1',
					form: 41,
					at: filledAt,
					status: 'Pendente',
				});
				const [kept] = sim.rows.add({
					report: 'getFP1',
					form: 41,
					at: filledAt,
					status: 'Pendente',
				});
				const run = await pollWhileRowsArrive(dialer, {
					name: `e2e report trigger saves ${fichaSaves} ${emitStatusChanges}`,
					timezone: ZONE,
					report: 'getFP1',
					minPolls: MIN_POLLS,
					trigger: {
						event: 'newFilledForm',
						form: '41',
						filters: {},
						options: {
							overlapWindow: 1,
							emitStatusChanges,
							startFrom: startFrom.toISO({ includeOffset: false, suppressMilliseconds: true }),
						},
					},
					round(round) {
						// Saved again once the first poll has emitted it, and again 15 s later.
						if (round === 1)
							sim.rows.add({ report: 'getFP1', ficha: saved.id, status: 'Finalizada' });
						if (round === 11)
							sim.rows.add({ report: 'getFP1', ficha: saved.id, status: 'Retornar' });
					},
				});
				const emitted = [...run.executions]
					.sort((a, b) => Number(a.id) - Number(b.id))
					.flatMap(emittedItems)
					.map((item) => `${String(item.ficha)} ${String(item.status)}`);
				console.log(
					`report trigger saves ${fichaSaves} e2e: ${run.reads.length} polls, ` +
						`${run.executions.length} executions, emitted ${emitted.join(', ')}, ` +
						`${((Date.now() - started) / 1000).toFixed(1)} s`,
				);
				expect(run.executions.every((execution) => execution.status === 'success')).toBe(true);
				const statuses = emitStatusChanges ? ['Pendente', 'Finalizada', 'Retornar'] : ['Pendente'];
				const of = (id: number) => emitted.filter((item) => item.startsWith(`${id} `));
				expect(of(saved.id)).toEqual(statuses.map((status) => `${saved.id} ${status}`));
				expect(of(kept.id)).toEqual([`${kept.id} Pendente`]);
			} finally {
				await dialer.close();
			}
		},
		300_000,
	);
});
