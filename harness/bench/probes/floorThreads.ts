/**
 * Where n8n's CPU goes, thread by thread, while it reads a 100,000-row report the Dialer node's
 * way and the HTTP Request + Split Out way: one fresh n8n with both workflows, the runs
 * alternating, the simulator replaying its answers (as section report-floor does), V8's
 * collections counted in n8n's main process (harness/bench/lib/gcLog.cjs). Each line is the median of
 * the runs; threads are grouped by the name Linux gives them (`node` is n8n's main thread,
 * `V8 Worker` V8's helpers: concurrent marking, parallel scavenging, compiling).
 *
 *   npx tsx harness/bench/probes/floorThreads.ts [--report getRQ4] [--runs 7]
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSimulator } from '../../simulator';
import { flagValue } from '../lib/args';
import { groupPids } from '../lib/procfs';
import { summarize } from '../lib/stats';
import { withTarget } from '../lib/target';
import { checkedWorkflow, floorCase, type FloorOperation } from '../scenarios/reportFloor';

const GC_LOG_PRELOAD = path.join(__dirname, '..', 'lib', 'gcLog.cjs');
const TICK_MS = 10;

/** CPU milliseconds of every thread of n8n's processes, summed by thread name. */
function threadCpu(pgid: number): Map<string, number> {
	const byName = new Map<string, number>();
	for (const pid of groupPids(pgid)) {
		for (const tid of readdirSync(`/proc/${pid}/task`)) {
			try {
				const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
				const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
				const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
				const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
				const key = `${pid === pgid ? 'n8n' : 'child'}:${name}`;
				byName.set(key, (byName.get(key) ?? 0) + ms);
			} catch {
				// The thread ended between listing and reading.
			}
		}
	}
	return byName;
}

async function main() {
	const argv = process.argv.slice(2);
	const report = (flagValue(argv, '--report') ?? 'getRQ4') as FloorOperation;
	const runs = Number(flagValue(argv, '--runs') ?? 7);
	const sim = await startSimulator({ fichas: 240_000, calls: 200_000 });
	sim.replay.on = true;
	const gcFile = path.join(tmpdir(), `dialer-gc-${randomUUID()}.log`);
	writeFileSync(gcFile, '');
	try {
		const measured = floorCase(sim, report, 100_000);
		const check = floorCase(sim, report, 500);
		const env = { NODE_OPTIONS: `--require ${GC_LOG_PRELOAD}`, BENCH_GC_FILE: gcFile };
		await withTarget(
			sim,
			'floor-threads-secret',
			async (target) => {
				const variants = ['dialer', 'generic'] as const;
				const workflows = [];
				for (const variant of variants)
					workflows.push(await checkedWorkflow(target, sim, { measured, check }, variant));
				const samples = variants.map(() => [] as Array<Record<string, number>>);
				for (let run = 0; run <= runs; run++) {
					for (const [index] of variants.entries()) {
						const gcFrom = readFileSync(gcFile, 'utf8').length;
						const before = threadCpu(target.n8n.pid);
						const started = performance.now();
						const answer = await workflows[index].post([measured.item]);
						const wall = performance.now() - started;
						if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
						await new Promise((resolve) => setTimeout(resolve, 300));
						const after = threadCpu(target.n8n.pid);
						const sample: Record<string, number> = { wall };
						for (const [name, ms] of after) sample[name] = ms - (before.get(name) ?? 0);
						for (const line of readFileSync(gcFile, 'utf8').slice(gcFrom).split('\n')) {
							const [pid, kind, ms] = line.split(' ');
							if (Number(pid) !== target.n8n.pid) continue;
							sample[`gc ${kind}`] = (sample[`gc ${kind}`] ?? 0) + 1;
							sample[`gc ${kind} ms`] = (sample[`gc ${kind} ms`] ?? 0) + Number(ms);
						}
						if (run > 0) samples[index].push(sample);
					}
				}
				const keys = [...new Set(samples.flatMap((list) => list.flatMap(Object.keys)))].sort();
				console.log(`| ${report}, 100,000 rows, medians of ${runs} | ${variants.join(' | ')} |`);
				console.log(`| --- | ${variants.map(() => '---').join(' | ')} |`);
				for (const key of keys) {
					const medians = samples.map(
						(list) => summarize(list.map((sample) => sample[key] ?? 0)).median,
					);
					if (medians.every((value) => value === 0)) continue;
					console.log(`| ${key} | ${medians.map((value) => Math.round(value)).join(' | ')} |`);
				}
			},
			env,
		);
	} finally {
		rmSync(gcFile, { force: true });
		await sim.close();
	}
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
