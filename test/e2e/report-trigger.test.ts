/**
 * The Dialer Report Trigger inside a real n8n, polling the simulator every 2 seconds while fichas
 * are filled, some written late, and one poll is answered HTTP 500: every ficha is emitted by
 * exactly one execution, none from before the activation, none of another form.
 */
import { DialerRunner } from './support/dialerRunner';
import { emittedFichas, runFilledFormPolls } from './support/reportTrigger';

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
