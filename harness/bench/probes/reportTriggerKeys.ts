/**
 * Measures what the Report Trigger's memory of fichas costs at 10,000 and 100,000 fichas
 * (harness/bench/lib/rememberedKeys.ts) and saves it in harness/bench/results/report-trigger.json, beside the
 * section's n8n measurements (which it leaves as they are); `npm run bench -- --render` then puts
 * it on BENCHMARKS.md.
 *
 *   npx tsx harness/bench/probes/reportTriggerKeys.ts [--runs 7]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { measureRememberedKeys } from '../lib/rememberedKeys';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const file = path.join(__dirname, '..', 'results', 'report-trigger.json');
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();

void (async () => {
	const keys = await measureRememberedKeys([10_000, 100_000], Number(values.runs), commit);
	const saved = JSON.parse(readFileSync(file, 'utf8')) as { result: Record<string, unknown> };
	saved.result.keys = keys;
	writeFileSync(file, `${JSON.stringify(saved, null, '\t')}\n`);
	process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
})();
