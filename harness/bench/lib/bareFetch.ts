/**
 * The physical limit for a report: a bare `fetch` of the same answers plus `JSON.parse`, in a
 * separate Node 24 (n8n's runtime), nothing else. Its own process so its memory is its own.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { ensureRuntime } from '../../n8n/runtime';

export interface BareRequest {
	url: string;
	token: string;
	/** Form fields of each request, sent in parallel as the nodes do. */
	bodies: Array<Record<string, string>>;
	/** Where the rows are in the parsed answer, e.g. `data` or `data.chamadas`. */
	rowsPath: string;
}

export interface BareSample {
	ms: number;
	rows: number;
	addedPeakMb: number;
}

// Plain CommonJS for `node -e`: runs warm-up + runs, one JSON line of samples on stdout.
const SCRIPT = `
const { readFileSync, writeFileSync } = require('node:fs');
const input = JSON.parse(process.env.BENCH_BARE);
const kb = (field) => Number(new RegExp('^' + field + ':\\\\s+(\\\\d+)', 'm').exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const rowsAt = (value) => input.rowsPath.split('.').reduce((v, key) => v[key], value).length;
async function once() {
	const answers = await Promise.all(input.bodies.map(async (fields) => {
		const res = await fetch(input.url, { method: 'POST', headers: { authorization: input.token, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
		return JSON.parse(await res.text());
	}));
	return answers.reduce((total, answer) => total + rowsAt(answer), 0);
}
(async () => {
	const samples = [];
	for (let run = 0; run < input.warmup + input.runs; run++) {
		writeFileSync('/proc/self/clear_refs', '5');
		const before = kb('VmRSS');
		const started = performance.now();
		const rows = await once();
		const ms = performance.now() - started;
		if (run >= input.warmup) samples.push({ ms, rows, addedPeakMb: (kb('VmHWM') - before) / 1024 });
	}
	process.stdout.write(JSON.stringify(samples));
})().catch((error) => { console.error(error); process.exit(1); });
`;

export async function bareFetchRuns(
	request: BareRequest,
	runs: number,
	warmup = 1,
): Promise<BareSample[]> {
	const { nodeBin } = await ensureRuntime();
	const { stdout } = await promisify(execFile)(nodeBin, ['-e', SCRIPT], {
		env: { PATH: process.env.PATH, BENCH_BARE: JSON.stringify({ ...request, runs, warmup }) },
		maxBuffer: 1 << 20,
	});
	return JSON.parse(stdout) as BareSample[];
}
