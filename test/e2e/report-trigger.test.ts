/**
 * The Dialer Report Trigger inside a real n8n, polling the simulator every 2 seconds while fichas
 * are filled, some written late, and one poll is answered HTTP 500: every ficha is emitted by
 * exactly one execution, none from before the activation, none of another form. And a credential
 * corrected while the trigger polls reaches its polls within the 10 s they share a read.
 */
import type { ArrivedRow } from '../../harness/simulator/types';
import { registerSecret } from './setup/connection';
import { DialerRunner } from './support/dialerRunner';
import { emittedFichas, pollWhileRowsArrive, runFilledFormPolls } from './support/reportTrigger';

// The simulator writes wall-clock times in this process's zone: the workflow reads them in it.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

let dialer: DialerRunner;

beforeAll(async () => {
	dialer = await DialerRunner.start({ timezone: ZONE });
});

afterAll(() => dialer?.close());

it('emits every ficha exactly once over 20+ polls with late rows and a poll answered HTTP 500', async () => {
	const run = await runFilledFormPolls(dialer, {
		minPolls: 20,
		timezone: ZONE,
		name: 'e2e report trigger exactly once',
	});
	const failed = run.executions.filter((execution) => execution.status === 'error');
	const emitted = emittedFichas(run.executions);
	console.log(
		`report trigger e2e: ${run.polls} polls, ${run.expected.length} fichas, ` +
			`${run.executions.length} executions, ${failed.length} failed`,
	);
	expect(failed).toHaveLength(run.failedPolls);
	expect(emitted.length).toBe(new Set(emitted).size);
	expect(new Set(emitted)).toEqual(new Set(run.expected));
	for (const ficha of run.excluded) expect(emitted).not.toContain(ficha);
}, 300_000);

it('uses a corrected credential within 10 seconds: a wrong token fails the polls, the right one emits what came meanwhile', async () => {
	const { sim } = dialer;
	const wrongToken = `${dialer.token}-revoked`;
	registerSecret(wrongToken);
	const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
	/** Ms from now until the trigger's read with this token (its first after `since`). */
	const untilReadWith = async (token: string, since: number) => {
		for (;;) {
			if (sim.requests.some((r) => r.receivedAt > since && r.headers.authorization === token))
				return Date.now() - since;
			if (Date.now() - since > 30_000) throw new Error('no poll used the corrected credential');
			await sleep(100);
		}
	};
	const fichas: ArrivedRow[] = [];
	const taken: number[] = [];
	const run = await pollWhileRowsArrive(dialer, {
		name: 'e2e report trigger corrected credential',
		timezone: ZONE,
		report: 'getFP1',
		minPolls: 6,
		// A form the test above leaves alone: its fichas are within this activation's Overlap Window.
		trigger: { event: 'newFilledForm', form: '43', filters: {}, options: {} },
		async round(round) {
			if (round === 0) fichas.push(...sim.rows.add({ report: 'getFP1', form: 43 }));
			if (round !== 1) return;
			const revokedAt = Date.now();
			await dialer.updateCredential({ token: wrongToken });
			taken.push(await untilReadWith(wrongToken, revokedAt));
			fichas.push(...sim.rows.add({ report: 'getFP1', form: 43 }));
			const correctedAt = Date.now();
			await dialer.updateCredential();
			taken.push(await untilReadWith(dialer.token, correctedAt));
		},
	});
	const emitted = emittedFichas(run.executions);
	console.log(
		`report trigger corrected credential e2e: the wrong token in ${taken[0]} ms, ` +
			`the right one in ${taken[1]} ms, ${run.reads.length} reads`,
	);
	// 10 s of a shared read, then the next poll (2 s apart, later on a busy machine).
	for (const ms of taken) expect(ms).toBeLessThan(15_000);
	expect(run.executions.some((execution) => execution.status === 'error')).toBe(true);
	expect(emitted.sort()).toEqual(fichas.map((ficha) => String(ficha.id)).sort());
}, 180_000);
