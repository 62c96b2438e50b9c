/**
 * Which real-n8n suites `npm test` runs, and in which order, in two lanes at once (one n8n each):
 * most e2e time is waiting (polls every 2 s, pause limits, n8n restarts), so two lanes finish in
 * about half the time on 2 cores. Suites that assert timing (alerts at a limit, bursts, the
 * wallboard's clock) run first in their lane, while the other lane only polls.
 *
 * n8n 2.41.1 runs every e2e suite. The 1.x line and queue mode run what differs there; with
 * DIALER_TEST_ALL=1 (`npm run test:all`) they run the whole matrix.
 */
const ALL = process.env.DIALER_TEST_ALL === '1';

const e2e = (name) => `test/e2e/${name}.test.ts`;
const browser = (name) => `test/browser/${name}.test.ts`;
const queue = (name) => `test/queue-mode/${name}.test.ts`;

/** Agent events: the Dialer Trigger, supervision, the editor. */
const events = [
	e2e('supervision'),
	e2e('pause-alerts-model'),
	e2e('supervision-graceful-restart'),
	e2e('burst'),
	browser('wallboard'),
	e2e('trigger'),
	e2e('trigger-security'),
	e2e('trigger-attacks'),
	e2e('trigger-proxy'),
	browser('editor'),
	browser('examples-import'),
];

/** The dialer's API: the action node, recordings, the Report Trigger, installing, the demo. */
const api = [
	e2e('report-trigger'),
	e2e('report-trigger-order'),
	e2e('report-trigger-events'),
	e2e('report-trigger-field'),
	e2e('report-trigger-timezone'),
	e2e('report-trigger-restart-dst'),
	e2e('dialer'),
	e2e('dialer-faults'),
	e2e('recordings'),
	e2e('credential-test'),
	e2e('morning-digest'),
	e2e('package-loading'),
	e2e('install-from-tarball'),
	e2e('demo'),
];

/**
 * n8n 1.x: what its engine does its own way: loading, the HTTP helpers behind the action node and
 * recordings, activation errors, polls and Fetch Test Event, Data Tables on SQLite, the editor.
 * The credential test is left out: 1.x's tester shows its own texts (docs/compatibility.md).
 */
const n8n1 = [
	e2e('package-loading'),
	e2e('dialer'),
	e2e('dialer-faults'),
	e2e('recordings'),
	e2e('trigger-security'),
	e2e('report-trigger-events'),
	e2e('pause-alerts-model'),
	browser('examples-import'),
	...(ALL
		? [
				e2e('trigger'),
				e2e('report-trigger'),
				e2e('report-trigger-timezone'),
				e2e('supervision'),
				browser('wallboard'),
				e2e('morning-digest'),
			]
		: []),
];

/** Queue mode: the webhook processor, the workers, polls on main, PostgreSQL data tables. */
const queueMode = [
	queue('queue-mode'),
	queue('supervision'),
	queue('report-trigger'),
	...(ALL ? [queue('faults')] : []),
];

module.exports = {
	ALL,
	/** Each lane: jest projects and their files, in order. */
	lanes: {
		events: [
			['e2e', events],
			['queue', queueMode],
		],
		api: [
			['e2e', api],
			['e2e-n8n1', n8n1],
		],
	},
	e2e: [...events, ...api],
	n8n1,
	queueMode,
};
