/**
 * n8n's floor for any polling trigger: before it runs an execution started by a poll, n8n stores
 * it with the poll's items, serialized with `flatted` (so does one a webhook started, with the
 * webhook's items). Here, in n8n's Node and with n8n's own n8n-workflow and
 * flatted, outside n8n: a bare fetch of the answer a poll read, its rows as items in the
 * execution data n8n builds for a polled execution, and the time of n8n's stringify of it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { ensureRuntime } from '../../n8n/runtime';

export interface PollStorageRequest {
	url: string;
	token: string;
	/** Form fields of the poll's request. */
	fields: Record<string, string>;
	/** Where the rows are in the parsed answer, e.g. `data`. */
	rowsPath: string;
	/** The polling node, as n8n puts it on the execution stack. */
	node: Record<string, unknown>;
}

export interface PollStorageSample {
	/** n8n's `flatted.stringify` of the execution data. */
	ms: number;
	/** The stored text, in MB. */
	mb: number;
	rows: number;
}

// Plain CommonJS for `node -e`: warm-up + runs, one JSON line of samples on stdout.
const SCRIPT = `
const input = JSON.parse(process.env.BENCH_POLL_STORAGE);
const { stringify } = require(input.flatted);
const { createRunExecutionData } = require(input.workflow);
(async () => {
	const res = await fetch(input.url, { method: 'POST', headers: { authorization: input.token, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(input.fields) });
	const text = await res.text();
	const samples = [];
	for (let run = 0; run < input.warmup + input.runs; run++) {
		const rows = input.rowsPath.split('.').reduce((value, key) => value[key], JSON.parse(text));
		// What n8n's workflow-execution service builds for a poll's items (runWorkflow).
		const data = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: input.node, data: { main: [rows.map((json) => ({ json }))] }, source: null }],
			},
		});
		const started = performance.now();
		const stored = stringify(data);
		const ms = performance.now() - started;
		if (run >= input.warmup) samples.push({ ms, mb: Buffer.byteLength(stored) / 1048576, rows: rows.length });
	}
	process.stdout.write(JSON.stringify(samples));
})().catch((error) => { console.error(error); process.exit(1); });
`;

export async function pollStorageRuns(
	request: PollStorageRequest,
	runs: number,
	warmup = 1,
): Promise<PollStorageSample[]> {
	const { nodeBin, n8nDir } = await ensureRuntime();
	const modules = path.join(n8nDir, 'node_modules');
	const input = {
		...request,
		runs,
		warmup,
		flatted: path.join(modules, 'flatted'),
		workflow: path.join(modules, 'n8n-workflow'),
	};
	const { stdout } = await promisify(execFile)(nodeBin, ['-e', SCRIPT], {
		env: { PATH: process.env.PATH, BENCH_POLL_STORAGE: JSON.stringify(input) },
		maxBuffer: 1 << 20,
	});
	return JSON.parse(stdout) as PollStorageSample[];
}
