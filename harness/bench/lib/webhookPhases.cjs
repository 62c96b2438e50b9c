/**
 * Preloaded into n8n (`NODE_OPTIONS=--require <this file>`, file named by
 * BENCH_WEBHOOK_PHASES_FILE) by harness/bench/lib/burstTrace.ts: records, for each production webhook
 * call carrying an `x-bench-seq` header, when n8n started reading it and how long each step of
 * its webhook path took, without changing n8n. The steps are wrapped on their prototypes at the
 * first request, when n8n has loaded them; an AsyncLocalStorage ties each step to its request.
 * One JSON line per request, written every second (and at exit).
 */
'use strict';
const { AsyncLocalStorage } = require('node:async_hooks');
const diagnosticsChannel = require('node:diagnostics_channel');
const { appendFileSync } = require('node:fs');
const { monitorEventLoopDelay, performance } = require('node:perf_hooks');

const file = process.env.BENCH_WEBHOOK_PHASES_FILE;
const now = () => performance.timeOrigin + performance.now();
const store = new AsyncLocalStorage();
const pending = [];
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
let patched = false;
let isolatesHeld = 0;

/** Adds the duration of `object.name` (async) to the current request's record. */
function time(object, name, key = name) {
	const original = object?.[name];
	if (typeof original !== 'function') return;
	object[name] = async function (...args) {
		const record = store.getStore();
		const started = now();
		try {
			return await original.apply(this, args);
		} finally {
			if (record) {
				record[key] = (record[key] ?? 0) + now() - started;
				record[`${key}End`] = now() - record.start;
			}
		}
	};
}

function loaded(suffix) {
	const key = Object.keys(require.cache).find((path) => path.endsWith(suffix));
	return key ? require.cache[key].exports : undefined;
}

function patch() {
	patched = true;
	const live = loaded('/n8n/dist/webhooks/live-webhooks.js')?.LiveWebhooks?.prototype;
	if (!live) return;
	const executeWebhook = live.executeWebhook;
	live.executeWebhook = function (request, response, ...rest) {
		const record = request.benchPhases;
		if (!record) return executeWebhook.call(this, request, response, ...rest);
		record.handler = now() - record.start;
		return store.run(record, () => executeWebhook.call(this, request, response, ...rest));
	};
	time(live, 'findWebhook');
	time(live, 'loadWebhookExecutionData', 'loadWorkflow');
	const expression = loaded('/n8n-workflow/dist/cjs/workflow-expression.js')?.WorkflowExpression;
	const acquire = expression?.prototype.acquireIsolate;
	if (acquire) {
		expression.prototype.acquireIsolate = async function () {
			const record = store.getStore();
			if (record) record.isolatesHeldBefore = isolatesHeld++;
			return await acquire.call(this);
		};
		const release = expression.prototype.releaseIsolate;
		expression.prototype.releaseIsolate = async function () {
			if (store.getStore()) isolatesHeld--;
			return await release.call(this);
		};
	}
	time(expression?.prototype, 'acquireIsolate', 'acquire');
	time(expression?.prototype, 'releaseIsolate', 'release');
	time(loaded('/n8n/dist/workflow-execute-additional-data.js'), 'getBase');
	time(loaded('/n8n/dist/webhooks/webhook.service.js')?.WebhookService?.prototype, 'runWebhook');
	time(
		loaded('/n8n/dist/workflows/workflow-static-data.service.js')?.WorkflowStaticDataService
			?.prototype,
		'saveStaticData',
	);
	time(loaded('/n8n/dist/workflow-runner.js')?.WorkflowRunner?.prototype, 'run', 'runExecution');
}

diagnosticsChannel.subscribe('http.server.request.start', ({ request, response }) => {
	const seq = request.headers['x-bench-seq'];
	if (seq === undefined) return;
	if (!patched) {
		patch();
		loopDelay.enable();
	}
	const record = { seq: Number(seq), start: now() };
	request.benchPhases = record;
	pending.push(record);
	response.once('finish', () => (record.answered = now() - record.start));
});

/** Writes the records complete by now: answered, and any execution it started given 5 s. */
function flush(all = false) {
	if (!file) return;
	const done = (record) => all || now() - record.start > (record.answered ?? 25_000) + 5_000;
	const lines = [];
	for (let index = pending.length - 1; index >= 0; index--)
		if (done(pending[index])) lines.unshift(JSON.stringify(pending.splice(index, 1)[0]));
	if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
}

setInterval(flush, 1000).unref();
process.on('exit', () => {
	flush(true);
	if (file && patched)
		appendFileSync(
			file,
			`${JSON.stringify({ loopDelayMs: { p50: loopDelay.percentile(50) / 1e6, max: loopDelay.max / 1e6 } })}\n`,
		);
});
