/**
 * The Report Trigger against a dialer whose clock reads in São Paulo while the workflow is in
 * UTC: the credential's Dialer Timezone decides how periods are asked and row times are read.
 */
import { DateTime } from 'luxon';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { startSimulator, type DialerSimulator } from '../../../harness/simulator';
import { fakePollFunctions, type FakePollOptions } from '../support/pollFunctions';

const DIALER_ZONE = 'America/Sao_Paulo';
const WORKFLOW_ZONE = 'UTC';

let sim: DialerSimulator;
const trigger = new DialerReportTrigger();

beforeAll(async () => {
	sim = await startSimulator({ fichas: 30, calls: 30, timezone: DIALER_ZONE });
});
afterAll(() => sim?.close());

const newFilledForm = { event: 'newFilledForm', form: '41', filters: {} };

function activeTrigger(dialerTimezone: string, extra: Partial<FakePollOptions> = {}) {
	const staticData: IDataObject = {};
	const warnings: string[] = [];
	const poll = async () => {
		const output = await trigger.poll.call(
			fakePollFunctions({
				sim,
				parameters: newFilledForm,
				staticData,
				timezone: WORKFLOW_ZONE,
				credentials: { dialerTimezone },
				warnings,
				...extra,
			}),
		);
		return output === null ? [] : output[0].map((item) => String(item.json.ficha));
	};
	return { poll, warnings };
}

/**
 * The last poll's own read of the report: the one that ends now (the clock check, after it, reads
 * a day ahead).
 */
const lastRead = () =>
	sim.requests
		.filter((request) => request.operation === 'getFP1')
		.filter(
			(request) =>
				Number(request.fields.ate) <=
				Number(DateTime.now().plus({ hours: 15 }).toFormat('yyyyMMddHHmmss')),
		)
		.at(-1)!;

it('with the Dialer Timezone set, asks for the dialer now and emits the fichas as they come', async () => {
	const { poll, warnings } = activeTrigger(DIALER_ZONE);
	await poll();
	const fichas = sim.rows.add({ report: 'getFP1', form: 41, count: 3 });
	expect(await poll()).toEqual(fichas.map((ficha) => String(ficha.id)));
	const dialerNow = DateTime.now().setZone(DIALER_ZONE).toFormat('yyyyMMddHH');
	expect(lastRead().fields.ate.slice(0, 10)).toBe(dialerNow);
	expect(warnings).toEqual([]);
});

it('left empty, the workflow UTC east of the dialer asks hours ahead of it and emits nothing', async () => {
	const { poll } = activeTrigger('');
	await poll();
	sim.rows.add({ report: 'getFP1', form: 41, count: 3 });
	expect(await poll()).toEqual([]);
	const utcNow = DateTime.now().setZone(WORKFLOW_ZONE).toFormat('yyyyMMddHH');
	expect(lastRead().fields.ate.slice(0, 10)).toBe(utcNow);
});

it('corrected in the credential while the workflow is active, applies from the next poll, also when n8n polls with one context (1.x)', async () => {
	const context = fakePollFunctions({
		sim,
		parameters: newFilledForm,
		staticData: {},
		timezone: WORKFLOW_ZONE,
		credentials: { dialerTimezone: '' },
	});
	await trigger.poll.call(context);
	const utcNow = DateTime.now().setZone(WORKFLOW_ZONE).toFormat('yyyyMMddHH');
	expect(lastRead().fields.ate.slice(0, 10)).toBe(utcNow);
	// n8n decrypts a new copy on every read.
	const corrected = { ...(await context.getCredentials('dialerApi')), dialerTimezone: DIALER_ZONE };
	context.getCredentials = (async () => ({ ...corrected })) as IPollFunctions['getCredentials'];
	await trigger.poll.call(context);
	const dialerNow = DateTime.now().setZone(DIALER_ZONE).toFormat('yyyyMMddHH');
	expect(lastRead().fields.ate.slice(0, 10)).toBe(dialerNow);
});

it('left empty, Fetch Test Event shows the rows and logs how old the newest is', async () => {
	sim.rows.add({ report: 'getFP1', form: 41, count: 1 });
	const warnings: string[] = [];
	const output = await trigger.poll.call(
		fakePollFunctions({
			sim,
			parameters: newFilledForm,
			mode: 'manual',
			timezone: WORKFLOW_ZONE,
			credentials: { dialerTimezone: '' },
			warnings,
		}),
	);
	expect(output![0].length).toBeGreaterThan(0);
	expect(warnings).toEqual([
		expect.stringMatching(/^The newest row is dated 3 h 0 min before now .* read in UTC/),
	]);
});

it('left empty with the workflow in New York, west of the dialer, the clock check warns in its first poll', async () => {
	const { poll, warnings } = activeTrigger('', { timezone: 'America/New_York' });
	sim.rows.add({ report: 'getFP1', form: 41, count: 1 });
	await poll();
	// Two hours while New York keeps winter time, one while it keeps summer time.
	const [dialer, workflow] = [DIALER_ZONE, 'America/New_York'].map((zone) =>
		DateTime.now().setZone(zone),
	);
	const ahead = (dialer.offset - workflow.offset) / 60;
	expect(warnings).toEqual([
		expect.stringMatching(
			new RegExp(`^Rows are dated up to ${ahead} h 0 min ahead of now .* America/New_York`),
		),
	]);
});

it('reads Start From without an offset on the dialer clock', async () => {
	const start = DateTime.now().setZone(DIALER_ZONE).minus({ minutes: 30 }).startOf('second');
	const [before] = sim.rows.add({ report: 'getFP1', form: 41, at: start.toMillis() - 60_000 });
	const [after] = sim.rows.add({ report: 'getFP1', form: 41, at: start.toMillis() + 60_000 });
	const { poll } = activeTrigger(DIALER_ZONE, {
		parameters: {
			...newFilledForm,
			options: { startFrom: start.toFormat("yyyy-MM-dd'T'HH:mm:ss") },
		},
	});
	const emitted = await poll();
	expect(emitted).toContain(String(after.id));
	expect(emitted).not.toContain(String(before.id));
});
