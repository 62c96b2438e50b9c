/**
 * Preloaded into n8n (`NODE_OPTIONS=--require <this file>`, file named by BENCH_NODE_TIMES_FILE)
 * by harness/bench/scenarios/reportTrigger.ts: one line per run of the Report Trigger's `poll` and the
 * Dialer node's `execute`, `<class> <started ms> <ended ms>` (epoch), appended as n8n runs. It
 * tells the package's own time from what n8n does around it: before the first node after a
 * trigger runs, n8n stores the execution with the trigger's items (a poll's rows; a webhook's
 * request), the Dialer node's rows when its execution ends.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const Module = require('node:module');

const file = process.env.BENCH_NODE_TIMES_FILE;
const TIMED = { DialerReportTrigger: 'poll', Dialer: 'execute' };

if (file) {
	const load = Module._load;
	Module._load = function (request, ...rest) {
		const exports = load.call(this, request, ...rest);
		if (typeof request !== 'string' || !request.endsWith('.node.js')) return exports;
		for (const [name, method] of Object.entries(TIMED)) {
			const prototype = exports?.[name]?.prototype;
			const original = prototype?.[method];
			if (typeof original !== 'function' || original.timed) continue;
			prototype[method] = Object.assign(
				async function (...args) {
					const started = Date.now();
					const marks = [];
					const { helpers } = this;
					const sendRequest = helpers.httpRequest;
					const ownRequest = Object.prototype.hasOwnProperty.call(helpers, 'httpRequest');
					const emit = this.__emit;
					// The moments the dialer's answer came (headers) and the rows went to n8n, wrapped in
					// place: n8n's helpers are not all own properties.
					helpers.httpRequest = async function (...options) {
						const sent = Date.now();
						const response = await sendRequest.apply(this, options);
						marks.push(`request=${sent}-${Date.now()}`);
						return response;
					};
					if (typeof emit === 'function') {
						this.__emit = (...emitted) => {
							marks.push(`emit=${Date.now()}`);
							return emit(...emitted);
						};
					}
					try {
						return await original.apply(this, args);
					} finally {
						appendFileSync(file, [name, started, Date.now(), ...marks].join(' ') + '\n');
						if (ownRequest) helpers.httpRequest = sendRequest;
						else delete helpers.httpRequest;
						if (typeof emit === 'function') this.__emit = emit;
					}
				},
				{ timed: true },
			);
		}
		return exports;
	};
}
