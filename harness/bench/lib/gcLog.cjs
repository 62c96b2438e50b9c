/**
 * Preloaded into n8n (`NODE_OPTIONS=--require <this file>`, file named by BENCH_GC_FILE) by
 * harness/bench/scenarios/recordings.ts: one line per V8 garbage collection, `<pid> <kind> <ms>` (kind
 * minor, major, incremental or weakcb; ms its pause), appended as n8n runs. n8n refuses
 * `--trace-gc` in NODE_OPTIONS; Node's performance observer sees the same collections.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const { PerformanceObserver, constants } = require('node:perf_hooks');

const file = process.env.BENCH_GC_FILE;
const KINDS = {
	[constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
	[constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
	[constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
	[constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

if (file) {
	new PerformanceObserver((list) => {
		const lines = list
			.getEntries()
			.map((entry) => `${process.pid} ${KINDS[entry.detail.kind]} ${entry.duration.toFixed(2)}\n`);
		appendFileSync(file, lines.join(''));
	}).observe({ entryTypes: ['gc'] });
}
