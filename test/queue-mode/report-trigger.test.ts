/**
 * The Dialer Report Trigger in n8n queue mode: polls run on the main process, the executions they
 * start on the workers. Every ficha is emitted by exactly one execution, as with a single n8n.
 */
import { startedByWorker } from '../../harness/queue-mode/burst';
import { DialerRunner } from '../e2e/support/dialerRunner';
import { emittedFichas, runFilledFormPolls } from '../e2e/support/reportTrigger';
import { readQueueConnection } from './setup/connection';

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

let dialer: DialerRunner;

beforeAll(async () => {
	dialer = await DialerRunner.start({ timezone: ZONE });
});

afterAll(() => dialer?.close());

it('polls on main, runs the executions on the workers, and emits every ficha exactly once', async () => {
	const run = await runFilledFormPolls(dialer, {
		minPolls: 20,
		timezone: ZONE,
		name: 'queue report trigger exactly once',
	});
	const succeeded = run.executions.filter((execution) => execution.status === 'success');
	const emitted = emittedFichas(run.executions);
	const onWorkers = startedByWorker(readQueueConnection().workers);
	console.log(
		`report trigger in queue mode: ${run.polls} polls, ${run.expected.length} fichas, ` +
			`${succeeded.length} executions, ${run.executions.length - succeeded.length} failed`,
	);
	expect(succeeded.every((execution) => onWorkers.has(execution.id))).toBe(true);
	expect(run.executions.filter((execution) => execution.status === 'error')).toHaveLength(
		run.failedPolls,
	);
	expect(emitted.length).toBe(new Set(emitted).size);
	expect(new Set(emitted)).toEqual(new Set(run.expected));
	for (const ficha of run.excluded) expect(emitted).not.toContain(ficha);
}, 300_000);
