/**
 * A dialer whose clock reads in another zone than the workflow's, in a real n8n: with the
 * credential's Dialer Timezone set, the Report Trigger emits every ficha once while it arrives,
 * east (dialer in São Paulo, workflow in UTC) and west (dialer in Sydney, workflow in New York)
 * of the workflow, and the Dialer node sends Yesterday and a custom range on the dialer's
 * calendar. Without it, the clock check says so in n8n's log.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';

import { readConnection } from './setup/connection';
import { DialerRunner } from './support/dialerRunner';
import {
	emittedFichas,
	fetchTestEvent,
	pollWhileRowsArrive,
	reportTriggerNode,
	runFilledFormPolls,
} from './support/reportTrigger';

const runners: DialerRunner[] = [];

/** A simulator playing a dialer in `dialerZone`, workflows in `workflowZone`. */
async function dialerIn(
	dialerZone: string,
	workflowZone: string,
	credentialZone = dialerZone,
): Promise<DialerRunner> {
	const runner = await DialerRunner.start({
		simulator: { timezone: dialerZone },
		timezone: workflowZone,
	});
	runners.push(runner);
	runner.credential = await runner.createCredential({ dialerTimezone: credentialZone });
	return runner;
}

afterAll(async () => {
	for (const runner of runners) await runner.close();
});

/** n8n's log from now on: what the nodes logged while `during` ran. */
async function logDuring(during: () => Promise<unknown>): Promise<string> {
	const { logFile } = readConnection();
	const before = readFileSync(logFile, 'utf8').length;
	await during();
	return readFileSync(logFile, 'utf8').slice(before);
}

const wallClockNow = (zone: string) => DateTime.now().setZone(zone);

describe.each([
	['east of the dialer: dialer in São Paulo, workflow in UTC', 'America/Sao_Paulo', 'UTC'],
	[
		'west of the dialer: dialer in Sydney, workflow in New York',
		'Australia/Sydney',
		'America/New_York',
	],
])('Report Trigger with the Dialer Timezone set, %s', (_name, dialerZone, workflowZone) => {
	it('emits every ficha once, while it arrives, reading the dialer clock', async () => {
		const dialer = await dialerIn(dialerZone, workflowZone);
		const run = await runFilledFormPolls(dialer, {
			minPolls: 8,
			timezone: workflowZone,
			name: `e2e report trigger dialer in ${dialerZone}`,
		});
		const emitted = emittedFichas(run.executions);
		expect(emitted.length).toBe(new Set(emitted).size);
		expect(new Set(emitted)).toEqual(new Set(run.expected));
		for (const ficha of run.excluded) expect(emitted).not.toContain(ficha);
		// The polls asked for the dialer's now, not the workflow's.
		const lastRead = dialer.sim.requests.filter((request) => request.operation === 'getFP1').at(-1);
		const dialerNow = wallClockNow(dialerZone).toFormat('yyyyMMddHHmm');
		expect(lastRead!.fields.ate.slice(0, 10)).toBe(dialerNow.slice(0, 10));
	}, 180_000);
});

describe('Dialer node with the Dialer Timezone set (dialer in Tokyo, workflow in Honolulu)', () => {
	it('sends Yesterday as the dialer calendar day, and a custom range on the dialer clock', async () => {
		const dialer = await dialerIn('Asia/Tokyo', 'Pacific/Honolulu');
		const extension = dialer.sim.data.extensions[0];
		const parameters = {
			resource: 'report',
			operation: 'getCallHistory',
			entityType: extension.tipo,
			extensionOrAgent: extension.numero,
			returnAll: true,
			filters: {},
		};
		const yesterday = await dialer.run({ ...parameters, period: 'yesterday' });
		const day = wallClockNow('Asia/Tokyo').minus({ days: 1 }).toFormat('yyyyMMdd');
		const sent = yesterday.requests.find((request) => request.operation === 'getHC2')!.fields;
		expect([sent.de, sent.ate]).toEqual([`${day}000000`, `${day}235959`]);

		const custom = await dialer.run({
			...parameters,
			period: 'custom',
			// Without an offset: the dialer's clock. With one: that moment, on the dialer's clock.
			start: '2026-11-21T08:00:00',
			end: '2026-11-21T08:00:00Z',
		});
		const range = custom.requests.find((request) => request.operation === 'getHC2')!.fields;
		expect([range.de, range.ate]).toEqual(['20261121080000', '20261121170000']);
	});
});

describe('without the Dialer Timezone, the clock check warns in n8n’s log', () => {
	it('Fetch Test Event, the workflow in UTC east of the dialer: the newest row is hours old', async () => {
		const dialer = await dialerIn('America/Sao_Paulo', 'UTC', '');
		dialer.sim.rows.add({ report: 'getFP1', form: 41, count: 2 });
		const workflow = await dialer.api.createWorkflow({
			name: 'e2e report trigger zone left empty',
			nodes: [
				reportTriggerNode(
					{ event: 'newFilledForm', form: '41', filters: {}, options: {} },
					{ id: dialer.credential.id, name: dialer.credential.name },
				),
			],
			connections: {},
			settings: { timezone: 'UTC', saveManualExecutions: true },
		});
		const log = await logDuring(() => fetchTestEvent(dialer.api, workflow.id));
		expect(log).toMatch(
			/The newest row is dated 3 h 0 min before now on the dialer's clock read in UTC/,
		);
	});

	it('an active workflow in New York west of the dialer: rows dated ahead, in its first polls', async () => {
		const dialer = await dialerIn('America/Sao_Paulo', 'America/New_York', '');
		const offsets = ['America/Sao_Paulo', 'America/New_York'].map(
			(zone) => wallClockNow(zone).offset,
		);
		const ahead = (offsets[0] - offsets[1]) / 60;
		dialer.sim.rows.add({ report: 'getFP1', form: 41, count: 2 });
		const log = await logDuring(() =>
			pollWhileRowsArrive(dialer, {
				name: 'e2e report trigger zone west',
				timezone: 'America/New_York',
				trigger: { event: 'newFilledForm', form: '41', filters: {}, options: {} },
				report: 'getFP1',
				minPolls: 1,
				round: () => undefined,
			}),
		);
		expect(log).toMatch(new RegExp(`Rows are dated up to ${ahead} h \\d+ min ahead of now`));
	}, 120_000);
});
