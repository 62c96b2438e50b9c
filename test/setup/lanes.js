/**
 * Which real-n8n suites `npm test` runs, and in which order, in two lanes at once: each entry of a
 * lane is a jest run with its own n8n, running its suites one at a time or several at once. Both
 * lanes share 2 cores, so CPU-bound suites (the browser, bursts) run one at a time per lane, and
 * the suites that assert timing (alerts at a limit, the wallboard's clock) run first in the events
 * lane. Suites that mostly wait (polls every 2 s, waits n8n parks in its database, n8n restarts)
 * and bound no latency run five at a time. (A third lane made n8n answer a burst of 10 in flight
 * too late for the dialer.)
 *
 * `npm test` runs on n8n 2.41.1 and in queue mode what a change most often breaks and what only a
 * server shows, in the time CI allows (docs/development.md). With DIALER_TEST_ALL=1
 * (`npm run test:all`) the lanes run the whole matrix: every suite on 2.41.1 and in queue mode,
 * n8n 1.x, and the demo.
 */
const ALL = process.env.DIALER_TEST_ALL === '1';

const e2e = (name) => `test/e2e/${name}.test.ts`;
const browser = (name) => `test/browser/${name}.test.ts`;
const queue = (name) => `test/queue-mode/${name}.test.ts`;
/** Suites of the whole matrix only. */
const matrixOnly = (suites) => (ALL ? suites : []);

/** Agent events (the Dialer Trigger, the wallboard) and the action node. */
const events = [
	e2e('pause-alerts-model'),
	e2e('trigger-security'),
	browser('wallboard'),
	e2e('trigger'),
	e2e('dialer'),
	e2e('dialer-faults'),
	e2e('recordings'),
];
// Capacity is the bench's to measure: the burst and the attacks' floods run in the whole matrix.
const eventsMatrix = [
	e2e('burst'),
	e2e('trigger-attacks'),
	e2e('trigger-proxy'),
	browser('editor'),
];

/**
 * The credential test, the digest, loading and installing from the tarball, then the examples
 * imported in the editor, and supervision set up as a supervisor does it.
 */
const examples = [
	e2e('credential-test'),
	e2e('morning-digest'),
	e2e('package-loading'),
	e2e('install-from-tarball'),
	browser('examples-import'),
	// After it, on the same n8n: each deletes the dialer_agents table the examples made.
	browser('supervision-setup'),
];

/**
 * `npm run demo -- --check` starts an n8n of its own and runs every example: in the whole matrix,
 * since the examples are imported in the editor on both lines in every run.
 */
const demo = [e2e('demo')];

/**
 * Waiting: the Report Trigger's polls, the over-limit alerts' long waits and n8n restarts, five at
 * a time (longest first).
 */
const waiting = [
	e2e('report-trigger'),
	e2e('supervision-restart'),
	e2e('report-trigger-order'),
	e2e('report-trigger-saves'),
	e2e('report-trigger-events'),
	e2e('report-trigger-field'),
	e2e('supervision'),
	e2e('report-trigger-timezone'),
	e2e('supervision-graceful-restart'),
	e2e('report-trigger-restart-dst'),
];

/**
 * Queue mode: the webhook processor, the workers, polls on main, PostgreSQL data tables. One at a
 * time: beside the burst, resumes reached the workers after their pause's maximum and were alerted.
 */
const queueMode = [queue('queue-mode')];
const queueModeMatrix = [queue('supervision'), queue('report-trigger'), queue('faults')];

/**
 * n8n 1.x: what its engine does its own way: loading, the HTTP helpers behind the action node,
 * recordings and the credential test, activation errors, polls and Fetch Test Event, the editor
 * and the examples' Data Tables on SQLite, then the rest of the matrix.
 */
const n8n1 = [
	e2e('package-loading'),
	e2e('credential-test'),
	// While the other lane's editor runs, the suites that only poll or publish: under that load
	// n8n 1.x's regular-expression check of a By ID picker (250 ms limit) timed out once.
	e2e('report-trigger-events'),
	e2e('trigger-security'),
	e2e('recordings'),
	e2e('dialer-faults'),
	e2e('dialer'),
	browser('examples-import'),
	// The notes' 1.x steps: the table made by hand, the 2.x table-making nodes deleted.
	browser('supervision-setup'),
	e2e('pause-alerts-model'),
	e2e('trigger'),
	e2e('report-trigger'),
	e2e('report-trigger-timezone'),
	e2e('supervision'),
	browser('wallboard'),
	e2e('morning-digest'),
];

module.exports = {
	ALL,
	/** Each lane: jest projects, their files in order, and how many of them run at once. */
	lanes: {
		events: [
			['e2e', [...events, ...matrixOnly(eventsMatrix)], 1],
			['queue', [...queueMode, ...matrixOnly(queueModeMatrix)], 1],
		],
		reports: [
			['e2e', waiting, 5],
			['e2e', [...examples, ...matrixOnly(demo)], 1],
			...(ALL ? [['e2e-n8n1', n8n1, 1]] : []),
		],
	},
	/** Every suite of each project, for jest.config.js (a suite runs alone with `npx jest <file>`). */
	suites: {
		e2e: [...events, ...eventsMatrix, ...waiting, ...examples, ...demo],
		n8n1,
		queueMode: [...queueMode, ...queueModeMatrix],
	},
};
