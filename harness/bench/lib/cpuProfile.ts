/**
 * Where a V8 CPU profile (`node --cpu-prof`, e.g. n8n started with
 * `npm run bench -- --only burst --env "NODE_OPTIONS=--cpu-prof --cpu-prof-dir=DIR"`) spent its
 * time: self time by package and by function, and total time (self + callees) of the functions
 * that matter on n8n's webhook path.
 *
 * CLI: `npx tsx harness/bench/lib/cpuProfile.ts <file.cpuprofile> [--from S] [--to S] [names to total…]`;
 * `--from`/`--to` keep the samples between those seconds of the profile (a burst, not start-up),
 * and the busy milliseconds of each second are printed to find them.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** n8n's webhook path, the expression isolate, the database and the execution engine. */
const DEFAULT_TOTALS = [
	'executeWebhook',
	'runWebhook',
	'webhook',
	'acquireIsolate',
	'releaseIsolate',
	'createBridge',
	'initialize',
	'dispose',
	'getSimpleParameterValue',
	'getDecrypted',
	'runQuery',
	'loadWebhookExecutionData',
	'findWebhook',
	'getBase',
	'run',
	'processRunExecutionData',
	'runNode',
	'saveExecutionProgress',
	'updateExistingExecution',
	'createNewExecution',
	'Statement',
	'(garbage collector)',
	'(idle)',
	'(program)',
];

/** `node_modules/@scope/name/…` → `@scope/name`; Node's own code → `node:…`; else the frame kind. */
export function packageOf(url: string, functionName: string): string {
	const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
	if (match) return match[1];
	if (url.startsWith('node:')) return 'node (built-in)';
	if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
	return url.split('/').slice(-2).join('/');
}

export interface ProfileSummary {
	totalMs: number;
	/** Milliseconds not idle, per second of the profile. */
	busyPerSecond: number[];
	byPackage: Array<[string, number]>;
	bySelf: Array<[string, number]>;
	totals: Array<[string, number]>;
}

export function summarizeProfile(
	profile: CpuProfile,
	totalNames: string[],
	window: { fromS: number; toS: number } = { fromS: 0, toS: Infinity },
): ProfileSummary {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const label = (node: ProfileNode) =>
		`${node.callFrame.functionName || '(anonymous)'} ${packageOf(node.callFrame.url, node.callFrame.functionName)}:${node.callFrame.lineNumber + 1}`;

	const self = new Map<string, number>();
	const packages = new Map<string, number>();
	const totals = new Map<string, number>(totalNames.map((name) => [name, 0]));
	const add = (map: Map<string, number>, key: string, ms: number) =>
		map.set(key, (map.get(key) ?? 0) + ms);

	const busyPerSecond: number[] = [];
	let windowMs = 0;
	let atUs = 0;
	profile.samples.forEach((id, index) => {
		const ms = (profile.timeDeltas[index] ?? 0) / 1000;
		atUs += profile.timeDeltas[index] ?? 0;
		const node = byId.get(id)!;
		const second = Math.floor(atUs / 1e6);
		if (node.callFrame.functionName !== '(idle)')
			busyPerSecond[second] = (busyPerSecond[second] ?? 0) + ms;
		if (atUs / 1e6 < window.fromS || atUs / 1e6 >= window.toS) return;
		windowMs += ms;
		add(self, label(node), ms);
		add(packages, packageOf(node.callFrame.url, node.callFrame.functionName), ms);
		// Each name counts once per sample however deep the recursion.
		const seen = new Set<string>();
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const name = byId.get(at)!.callFrame.functionName;
			if (totals.has(name) && !seen.has(name)) {
				seen.add(name);
				add(totals, name, ms);
			}
		}
	});
	const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
	return {
		totalMs: windowMs,
		busyPerSecond: Array.from(busyPerSecond, (ms) => Math.round(ms ?? 0)),
		byPackage: sorted(packages),
		bySelf: sorted(self),
		totals: sorted(totals),
	};
}

if (require.main === module) {
	const args = process.argv.slice(2);
	const option = (flag: string, fallback: number) => {
		const index = args.indexOf(flag);
		return index >= 0 ? Number(args.splice(index, 2)[1]) : fallback;
	};
	const window = { fromS: option('--from', 0), toS: option('--to', Infinity) };
	const [file, ...more] = args;
	if (!file)
		throw new Error(
			'usage: tsx harness/bench/lib/cpuProfile.ts <file> [--from S] [--to S] [names…]',
		);
	const summary = summarizeProfile(
		JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
		[...DEFAULT_TOTALS, ...more],
		window,
	);
	console.log(`Busy ms per second: ${summary.busyPerSecond.join(' ')}`);
	const row = ([name, ms]: [string, number]) =>
		`${ms.toFixed(0).padStart(8)} ms ${((ms / summary.totalMs) * 100).toFixed(1).padStart(5)} %  ${name}`;
	console.log(
		`${file}: ${summary.totalMs.toFixed(0)} ms from ${window.fromS} s to ${window.toS} s`,
	);
	console.log('\nSelf time by package:');
	console.log(summary.byPackage.slice(0, 20).map(row).join('\n'));
	console.log('\nSelf time by function:');
	console.log(summary.bySelf.slice(0, 30).map(row).join('\n'));
	console.log('\nTotal time (self + callees):');
	console.log(summary.totals.map(row).join('\n'));
}
