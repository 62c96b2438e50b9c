/** BENCHMARKS.md, assembled from the sections' saved results (./sections.ts). */
import type { BulkResult } from '../scenarios/bulk';
import type { BurstResult } from '../scenarios/burst';
import { DEPLOYMENT_NAMES, type BurstQueueResult } from '../scenarios/burstQueue';
import type { BurstSettingsResult } from '../scenarios/burstSettings';
import type { BurstRun, DeliveryCost, RatePoint } from '../scenarios/events';
import type { CurvePoint, ReportResult } from '../scenarios/reports';
import { recordingsSection } from './recordings';
import { reportFloorSection } from './floor';
import type { RefusedFloodResult } from '../scenarios/refusedFlood';
import type { PollVariantResult, ReportTriggerResult } from '../scenarios/reportTrigger';
import { summariesSection } from '../scenarios/summaries';
import { ratio, type Summary } from '../lib/stats';
import { mb, ms, spread, verdict, x } from './format';
import { soakSection } from './soak';
import {
	SECTIONS,
	type EventsResult,
	type Machine,
	type SavedSections,
	type SectionName,
	type SectionRecord,
	type SectionResults,
} from './sections';

function reportSection(results: ReportResult[]): string[] {
	const lines = [
		'## 1. Report to items',
		'',
		'Dialer node vs HTTP Request (response format forced to JSON) + Split Out; "bare" is a Node 24 `fetch` + `JSON.parse` of the same answers, nothing else. Wall time is the client’s: POST to the workflow’s webhook until n8n answers after the run (execution saved, when saving is on). Memory is the peak RSS of n8n’s processes (main + task runner) during a run, above their RSS before the variant’s first (warm-up) run, i.e. above an idle n8n with the workflow in place. Median (min–max).',
		'',
	];
	for (const result of results) {
		lines.push(
			`### ${result.operation}: ${result.rows.toLocaleString('en-US')} rows in ${result.requests} request${result.requests > 1 ? 's' : ''}`,
			'',
			`Bare fetch + JSON.parse: ${spread(result.bare.ms, ms)}; its own process’s peak RSS +${mb(result.bare.addedPeakMb.median)} above its RSS just before each run (not comparable with n8n’s column, which counts from before the warm-up).`,
			'',
			'| Saving | Variant | Wall time | ÷ bare | Added peak RSS | Peak RSS | Main-thread CPU |',
			'|---|---|---|---|---|---|---|',
		);
		for (const v of result.variants) {
			lines.push(
				`| ${v.save} | ${v.variant === 'dialer' ? 'Dialer' : 'HTTP Request + Split Out'} | ${spread(v.ms, ms)} | ${x(ratio(v.ms.median, result.bare.ms.median))} | ${spread(v.addedPeakMb, mb)} | ${mb(v.peakMb.median)} | ${ms(v.mainThreadMs.median)} |`,
			);
		}
		lines.push('', '| Goal | Measured | |', '|---|---|---|');
		const find = (variant: string, save: string) =>
			result.variants.find((v) => v.variant === variant && v.save === save);
		const dialerOff = find('dialer', 'none');
		const genericOff = find('generic', 'none');
		if (dialerOff && genericOff) {
			const time = ratio(dialerOff.ms.median, genericOff.ms.median);
			const memory = ratio(dialerOff.addedPeakMb.median, genericOff.addedPeakMb.median);
			const bare = ratio(dialerOff.ms.median, result.bare.ms.median);
			lines.push(
				`| wall time ≤ 0.8× generic (saving off) | ${x(time)} | ${verdict(time <= 0.8)} |`,
				`| added peak memory ≤ 0.8× generic (saving off) | ${x(memory)} | ${verdict(memory <= 0.8)} |`,
				`| wall time ≤ 1.3× bare fetch + JSON.parse (saving off) | ${x(bare)} | ${verdict(bare <= 1.3)} |`,
			);
		}
		const dialerOn = find('dialer', 'all');
		const genericOn = find('generic', 'all');
		if (dialerOn && genericOn) {
			const time = ratio(dialerOn.ms.median, genericOn.ms.median);
			const memory = ratio(dialerOn.addedPeakMb.median, genericOn.addedPeakMb.median);
			lines.push(
				`| saving on: no worse than generic (time) | ${x(time)} | ${verdict(time <= 1)} |`,
				`| saving on: no worse than generic (memory) | ${x(memory)} | ${verdict(memory <= 1)} |`,
			);
		}
		lines.push('');
	}
	return lines;
}

function curveSection(points: CurvePoint[]): string[] {
	const sizes = [...new Set(points.map((p) => p.rows))].sort((a, b) => a - b);
	const cell = (rows: number, variant: string, pick: (p: CurvePoint) => string) => {
		const point = points.find((p) => p.rows === rows && p.variant === variant);
		return point ? pick(point) : '–';
	};
	const lines = [
		'### Growth with size (getFP1, saving off)',
		'',
		'One fresh n8n per variant, sizes run smallest first; medians.',
		'',
		'| Rows | Bare | Dialer | HTTP Request + Split Out | Dialer ÷ generic | Dialer added RSS | Generic added RSS |',
		'|---|---|---|---|---|---|---|',
	];
	for (const rows of sizes) {
		const dialer = points.find((p) => p.rows === rows && p.variant === 'dialer');
		const generic = points.find((p) => p.rows === rows && p.variant === 'generic');
		lines.push(
			`| ${rows.toLocaleString('en-US')} | ${cell(rows, 'bare', (p) => ms(p.ms.median))} | ${cell(rows, 'dialer', (p) => ms(p.ms.median))} | ${cell(rows, 'generic', (p) => ms(p.ms.median))} | ${dialer && generic ? x(ratio(dialer.ms.median, generic.ms.median)) : '–'} | ${cell(rows, 'dialer', (p) => mb(p.addedPeakMb.median))} | ${cell(rows, 'generic', (p) => mb(p.addedPeakMb.median))} |`,
		);
	}
	lines.push('');
	return lines;
}

function pollTable(variants: PollVariantResult[]): string[] {
	const lines = [
		'| Variant | Read to items | Own code: `poll` / `execute` | Own code: before the request / to the answer’s headers / after them | The simulator building its answer | Added peak RSS | Peak RSS | Main-thread CPU |',
		'|---|---|---|---|---|---|---|---|',
	];
	for (const v of variants) {
		lines.push(
			`| ${v.variant === 'trigger' ? 'Dialer Report Trigger' : 'Dialer → Get Filled Forms'} | ${spread(v.ms, ms)} | ${v.ownMs ? spread(v.ownMs, ms) : '–'} | ${v.phases ? [v.phases.beforeRequestMs, v.phases.toHeadersMs, v.phases.afterAnswerMs].map((phase) => ms(phase.median)).join(' / ') : '–'} | ${v.dialerMs ? spread(v.dialerMs, ms) : '–'} | ${spread(v.addedPeakMb, mb)} | ${mb(v.peakMb.median)} | ${ms(v.mainThreadMs.median)} |`,
		);
	}
	const [trigger, action] = ['trigger', 'action'].map((variant) =>
		variants.find((v) => v.variant === variant),
	);
	if (trigger && action) {
		const own =
			trigger.ownMs && action.ownMs
				? `, own code ${x(ratio(trigger.ownMs.median, action.ownMs.median))}`
				: '';
		lines.push(
			'',
			`Trigger ÷ action node: time ${x(ratio(trigger.ms.median, action.ms.median))}${own}, added peak memory ${x(ratio(trigger.addedPeakMb.median, action.addedPeakMb.median))}, main-thread CPU ${x(ratio(trigger.mainThreadMs.median, action.mainThreadMs.median))}.`,
		);
	}
	return lines;
}

export function reportTriggerSection(result: ReportTriggerResult): string[] {
	const lines = [
		`### Report Trigger: one poll finding ${result.rows.toLocaleString('en-US')} new rows`,
		'',
		'New Filled Form against the Dialer node’s Get Filled Forms reading the same window (the one the trigger read), saving off. Both workflows end in an HTTP Request run once, which reports how many items it received (checked) to the bench. Time runs from the simulator receiving the report request to that call: reading the answer and turning it into items, and for the trigger also its row keys, its stored state and n8n starting the execution (which stores the execution with its items). Own code is the package’s part of it, timed inside n8n (harness/bench/lib/nodeTimes.cjs): the trigger’s `poll` from its start to its items handed to n8n, the node’s `execute` from its start to its return; split where its report request goes out and where the answer’s headers come in (the time between is n8n’s request helper and the simulator building the answer, which the next column shows). Memory as in section 1, above the variant’s RSS before its warm-up poll. Median (min–max).',
		'',
	];
	if (result.scheduled) {
		lines.push(
			'**Scheduled poll** (what a running trigger does): one workflow stays active, polling every two minutes with an Overlap Window of one minute; each run adds the rows in a new second after a poll, and the next scheduled poll finds them. Memory and CPU from 1.5 s before the poll.',
			'',
			...pollTable(result.scheduled),
			'',
		);
	}
	if (result.memory) {
		lines.push(
			'**What the trigger remembers**: each scheduled poll above adds its fichas to the keys the trigger keeps a day after their last listing (at most 100,000). After each poll (the warm-up first), the fichas remembered, the node’s static data as n8n stores it (read through n8n’s API a second after the poll), and the poll’s time as above.',
			'',
			'| Poll | Fichas remembered | Static data | Read to items | Own code |',
			'| ---- | ----------------- | ----------- | ------------- | -------- |',
			...result.memory.map(
				(poll, index) =>
					`| ${index === 0 ? 'warm-up' : index} | ${poll.remembered.toLocaleString('en-US')} | ${poll.staticDataKb.toLocaleString('en-US')} kB | ${ms(poll.ms)} | ${Number.isNaN(poll.ownMs) || poll.ownMs === null ? '–' : ms(poll.ownMs)} |`,
			),
			'',
		);
	}
	if (result.keys) {
		const { keys } = result;
		lines.push(
			`**The trigger’s memory at 10,000 and 100,000 fichas, and its look back for late rows** (*measured ${keys.date.slice(0, 16).replace('T', ' ')} UTC at \`${keys.commit}\`, in the bench’s process on Node ${keys.node.replace(/^v/, '')}, no n8n*; harness/bench/probes/reportTriggerKeys.ts): the trigger’s own functions on a day of New Filled Form rows, one ficha a second or more apart, all remembered. Static data is the state n8n stores (JSON). A scheduled poll finds ${keys.newRows.toLocaleString('en-US')} new fichas with that many remembered, against the same poll with none remembered. The look back (every 15 minutes, and in the activation’s poll) reads the whole day, all of it remembered, and tells the rows written too late: its own code after the answer is parsed, against JSON.parse of that answer. Medians (min–max) after a warm-up.`,
			'',
			'| Fichas remembered | Static data | Poll, 1,000 new | Same poll, none remembered | Look back over the day | JSON.parse of its answer | Answer |',
			'| --- | --- | --- | --- | --- | --- | --- |',
			...keys.points.map(
				(point) =>
					`| ${point.remembered.toLocaleString('en-US')} | ${point.staticDataKb.toLocaleString('en-US')} kB | ${spread(point.pollMs, ms)} | ${spread(point.peerPollMs, ms)} | ${spread(point.lookBackMs, ms)} | ${spread(point.parseMs, ms)} | ${point.answerMb.toFixed(1)} MB |`,
			),
			'',
		);
	}
	if (result.storage) {
		lines.push(
			`**n8n’s floor for any polling trigger**: before it runs an execution a poll started, n8n stores it with the poll’s items, serialized with \`flatted\` (so does one a webhook started, with the webhook’s items: here one small request; the Dialer node’s rows are stored when its execution ends). The same ${result.rows.toLocaleString('en-US')} rows, in n8n’s Node with n8n’s own n8n-workflow and flatted, outside n8n: ${spread(result.storage.ms, ms)} to stringify, ${result.storage.mb.toFixed(1)} MB of text, medians of ${result.storage.ms.runs} after a warm-up (harness/bench/lib/pollStorage.ts). Storing that text in SQLite comes on top.`,
			'',
		);
	}
	lines.push(
		'**First poll**: each run adds the rows in a new second and activates a new workflow starting at that second; n8n polls on activation, its activation work beside the poll.',
		'',
		...pollTable(result.variants),
		'',
	);
	return lines;
}

function bulkSection(bulk: BulkResult): string[] {
	const dialer = bulk.variants[0];
	const lines = [
		`## 2. Bulk actions: ${bulk.items.toLocaleString('en-US')} × changeLoteToFila`,
		'',
		'One n8n, the variants in turn each round (saving off). Connections are TCP connections the simulator accepted during the run; max open is the most connections open at once (how many requests the client had under way). Median (min–max).',
		'',
		'| Variant | Wall time | ÷ Dialer | Main-thread CPU | Added peak RSS | TCP connections | Max open connections |',
		'|---|---|---|---|---|---|---|',
	];
	for (const v of bulk.variants) {
		lines.push(
			`| ${v.name} | ${spread(v.ms, ms)} | ${x(ratio(v.ms.median, dialer.ms.median))} | ${ms(v.mainThreadMs.median)} | ${mb(v.addedPeakMb.median)} | ${v.connections.median.toLocaleString('en-US')} for ${v.requests.toLocaleString('en-US')} requests | ${v.maxOpenConnections.median} |`,
		);
	}
	const best = Math.min(...bulk.variants.slice(1).map((v) => v.ms.median));
	const time = ratio(dialer.ms.median, best);
	lines.push(
		'',
		`Goal ≤ 1.0× the faster HTTP Request variant: ${x(time)} ${verdict(time <= 1)}. Connections reused: ${dialer.connections.median < dialer.requests ? '✅' : '❌ no'} (Dialer ${dialer.connections.median} connections for ${dialer.requests} requests).`,
		'',
	);
	return lines;
}

function eventsSection(events: EventsResult): string[] {
	const lines = [`## 3. Event stream`, ''];
	const trigger = events.bursts.trigger;
	const generic = events.bursts.generic;
	const rate = (runs: BurstRun[]) =>
		runs.map((r) => r.eventsPerSecond).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
	const p99 = (runs: BurstRun[]) => Math.max(...runs.map((r) => r.p99Ms));
	const failed = (runs: BurstRun[]) => runs.reduce((total, r) => total + r.failed, 0);
	lines.push(
		`${events.count.toLocaleString('en-US')} deliveries over the 7 event kinds at concurrency ${events.concurrency}, in ${trigger.runs.length} bursts; the workflow wants \`agente.login\` (${Math.ceil(events.count / trigger.runs.length / 7) * trigger.runs.length} of them, each burst cycling the kinds from it). Saving: ${events.save}.`,
		'',
		'| Variant | Events/s (median of bursts) | p99 ack (worst burst) | Failed (5 s timeout) | Executions created | Main-thread CPU per delivery |',
		'|---|---|---|---|---|---|',
		`| Dialer Trigger (secret) | ${rate(trigger.runs).toFixed(1)} | ${ms(p99(trigger.runs))} | ${failed(trigger.runs)} | ${trigger.executions} | ${ms(trigger.runs[0]?.mainThreadMsPerDelivery ?? NaN)} |`,
		`| Webhook (Header Auth) + IF | ${rate(generic.runs).toFixed(1)} | ${ms(p99(generic.runs))} | ${failed(generic.runs)} | ${generic.executions} | ${ms(generic.runs[0]?.mainThreadMsPerDelivery ?? NaN)} |`,
		'',
	);
	const costTable = (costs: DeliveryCost[]) => [
		'| Receiver | Event | Main-thread CPU / delivery | All n8n threads / delivery | Ack (median) |',
		'|---|---|---|---|---|',
		...costs.map(
			(c) =>
				`| ${{ trigger: 'Dialer Trigger', generic: 'Webhook (Header Auth) + IF', bareWebhook: 'bare Webhook node' }[c.variant]} | ${c.variant === 'bareWebhook' ? 'any' : c.kind} | ${spread(c.mainThreadMs, ms)} | ${ms(c.groupMs.median)} | ${ms(c.ackMs.median)} |`,
		),
	];
	lines.push('### Cost of one delivery (one at a time)', '', ...costTable(events.costs), '');
	const rateTable = (rates: RatePoint[], failure?: string) => [
		'| Target events/s | Variant | Achieved | p50 ack | p99 ack | Failed | Main thread busy |',
		'|---|---|---|---|---|---|---|',
		...rates.map(
			(r) =>
				`| ${r.targetRate} | ${r.variant === 'trigger' ? 'Dialer Trigger' : 'Webhook + IF'} | ${r.achievedRate.toFixed(1)} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${r.failed} | ${(r.mainThreadLoad * 100).toFixed(0)} % |`,
		),
		...(failure ? ['', `**The series stopped: n8n failed with ${failure}.**`] : []),
	];
	lines.push(
		'### Steady rates',
		'',
		'Open loop: one event every 1/rate s for the given time, kinds in turn, saving off. Ack = the dialer’s wait for n8n’s answer; failed = no answer within its 5 s timeout.',
		'',
		...rateTable(events.rates, events.rateFailure),
		'',
	);
	if (events.legacyEngine) {
		lines.push(
			'### Same, with n8n’s legacy expression engine (`N8N_EXPRESSION_ENGINE=legacy`)',
			'',
			...costTable(events.legacyEngine.costs),
			'',
			...rateTable(events.legacyEngine.rates, events.legacyEngine.rateFailure),
			'',
		);
	}
	const ignored = events.costs.find((c) => c.variant === 'trigger' && c.kind === 'ignored');
	const bare = events.costs.find((c) => c.variant === 'bareWebhook');
	const steady = events.rates.find((r) => r.variant === 'trigger' && r.targetRate === 20);
	const speed = ratio(rate(trigger.runs), rate(generic.runs));
	// Each burst cycles the kinds from the wanted one: ceil(burst size / 7) wanted per burst.
	const wanted = Math.ceil(events.count / trigger.runs.length / 7) * trigger.runs.length;
	if (ignored && bare) {
		const cost = ratio(ignored.mainThreadMs.median, bare.mainThreadMs.median);
		lines.push(
			'| Goal | Measured | |',
			'|---|---|---|',
			`| executions only for the wanted kind | ${trigger.executions} for ${wanted} wanted (generic: ${generic.executions}) | ${verdict(trigger.executions === wanted)} |`,
			`| events/s ≥ 1.2× generic | ${x(speed)} | ${verdict(speed >= 1.2)} |`,
			`| ignored event ≤ 1.1× bare Webhook node (main-thread CPU) | ${x(cost)} | ${verdict(cost <= 1.1)} |`,
			`| p99 ack < 100 ms at a steady 20 events/s | ${steady ? ms(steady.p99Ms) : '–'} | ${verdict(Boolean(steady && steady.p99Ms < 100))} |`,
			'',
		);
	}
	return lines;
}

const count = (s: Summary) =>
	s.min === s.max ? String(s.median) : `${s.median} (${s.min}–${s.max})`;

/** The shift-start burst table; also printed alone by `npm run bench -- --only burst`. */
export function burstSection(burst: BurstResult): string[] {
	const settings = Object.entries(burst.env).map(([name, value]) => `\`${name}=${value}\``);
	const name = (variant: string) =>
		variant === 'trigger' ? 'Dialer Trigger' : 'Webhook (Header Auth) + IF';
	const first = (level: number | null) =>
		level === null ? `none up to ${burst.levels.at(-1)}` : `${level} in flight`;
	return [
		`## 4. Shift-start bursts, n8n ${settings.length ? settings.join(', ') : 'defaults'}`,
		'',
		`${burst.deliveries.toLocaleString('en-US')} deliveries over the 7 event kinds, the workflow wants \`agente.login\`; the client keeps N deliveries in flight and gives up after the dialer’s 5 s (lost). Each variant in its own fresh n8n, both started side by side and measured back to back at each level; ${burst.runs} run${burst.runs > 1 ? 's' : ''} per level, median (min–max). Saving: ${burst.save}.`,
		'',
		'Tail ratio = longest answer ÷ (in flight ÷ events per second), the wait of a delivery queued in arrival order at that throughput: above 1, some deliveries wait longer than their fair share.',
		'',
		'| In flight | Variant | Events/s | Ack p50 | Ack max | Tail ratio | Lost (>5 s) |',
		'|---|---|---|---|---|---|---|',
		...burst.points.map(
			(p) =>
				`| ${p.inFlight} | ${name(p.variant)} | ${spread(p.eventsPerSecond, (v) => v.toFixed(1))} | ${spread(p.p50Ms, ms)} | ${spread(p.maxMs, ms)} | ${spread(p.tailRatio, x)} | ${count(p.lost)} |`,
		),
		'',
		`First level with a lost delivery (any run): Dialer Trigger ${first(burst.firstLoss.trigger)}; Webhook + IF ${first(burst.firstLoss.generic)}.`,
		'',
		'| Goal | Measured | |',
		'|---|---|---|',
		...burst.levels.map((level) => {
			const tail = burst.points.find((p) => p.variant === 'trigger' && p.inFlight === level)!;
			return `| Dialer Trigger tail ratio ≤ 1.25× at ${level} in flight | ${x(tail.tailRatio.median)} | ${verdict(tail.tailRatio.median <= 1.25)} |`;
		}),
		`| Dialer Trigger loses nothing at any level | first loss: ${first(burst.firstLoss.trigger)} | ${verdict(burst.firstLoss.trigger === null)} |`,
		...burst.levels.map((level) => {
			const lostPerRun = (variant: string) =>
				burst.points
					.find((p) => p.variant === variant && p.inFlight === level)!
					.runs.map((run) => run.failed);
			const [trigger, generic] = [lostPerRun('trigger'), lostPerRun('generic')];
			const ok = trigger.every((lost, run) => lost <= generic[run]);
			return `| Dialer Trigger loses no more than Webhook + IF in the same run, ${level} in flight | ${trigger.join(', ')} against ${generic.join(', ')} | ${verdict(ok)} |`;
		}),
		...burst.points
			.filter((p) => p.variant === 'trigger' && p.inFlight === 150)
			.map(
				(p) =>
					`| nothing lost at 150 in flight | ${count(p.lost)} | ${verdict(p.lost.max === 0)} |`,
			),
		'',
	];
}

/** n8n's expression-engine settings side by side; also printed alone by `--only burst-settings`. */
export function burstSettingsSection(result: BurstSettingsResult): string[] {
	const extra = Object.entries(result.env).map(([name, value]) => `\`${name}=${value}\``);
	// A level where every delivery was lost leaves no execution to time.
	const cell = (s: Summary, unit: (v: number) => string) =>
		Number.isFinite(s.median) ? spread(s, unit) : '–';
	const env = (settings: Record<string, string>) =>
		Object.entries(settings)
			.map(([name, value]) => `\`${name}=${value}\``)
			.join(', ') || 'none';
	return [
		"## 4b. Shift-start bursts, n8n's expression-engine settings side by side",
		'',
		`The Dialer Trigger with the live alerts example behind it (\`examples/live-pause-alerts-to-file.json\`: every event updates the agents' data table, a pause with a maximum waits for it), ${result.deliveries.toLocaleString('en-US')} deliveries over the 7 event kinds, the client giving up after the dialer’s 5 s (lost). Each configuration in its own fresh n8n, one after another in one run, with \`N8N_METRICS=true\` (the event-loop delay is n8n's own, from the burst's start until its executions settled)${extra.length ? ` and ${extra.join(', ')}` : ''}; ${result.runs} run${result.runs > 1 ? 's' : ''} per level, median (min–max). Executions: those the burst started; their duration counts the finished ones (a pause's wait for its maximum parks its execution). n8n calls lazy acquisition experimental and the legacy engine less secure and soon deprecated.`,
		'',
		'| In flight | Settings | n8n settings | Lost (>5 s) | Longest answer | Events/s | Execution p50 | Execution p99 | Event-loop delay p99 | Event-loop delay max |',
		'|---|---|---|---|---|---|---|---|---|---|',
		...[...result.points]
			.sort((a, b) => a.inFlight - b.inFlight)
			.map(
				(p) =>
					`| ${p.inFlight} | ${p.settings} | ${env(p.env)} | ${count(p.lost)} | ${spread(p.maxMs, ms)} | ${spread(p.eventsPerSecond, (v) => v.toFixed(1))} | ${cell(p.executionP50Ms, ms)} | ${cell(p.executionP99Ms, ms)} | ${cell(p.loopDelayP99Ms, ms)} | ${cell(p.loopDelayMaxMs, ms)} |`,
			),
		'',
	];
}

/** Queue-mode bursts against single mode; also printed alone by `npm run bench -- --only burst-queue`. */
export function burstQueueSection(result: BurstQueueResult): string[] {
	// The same heading measured on any settings: the docs link to it.
	const heading = '## 5. Shift-start bursts in queue mode, the live alerts behind the trigger';
	// Saved before the live alerts were behind the trigger: a bare trigger, the legacy engine.
	if (result.behindTrigger === undefined)
		return [
			heading,
			'',
			'The results saved are of an earlier form of this section (a bare trigger, the legacy engine) and are not shown: it needs a fresh run, `npm run bench -- --only burst-queue`.',
			'',
		];
	const settings = Object.entries(result.env).map(([name, value]) => `\`${name}=${value}\``);
	const single = (inFlight: number) =>
		result.points.find((p) => p.deployment === 'single' && p.inFlight === inFlight);
	const ratioCell = (s: Summary) =>
		Number.isFinite(s.median) ? spread(s, (v) => v.toFixed(2)) : '–';
	return [
		heading,
		'',
		`The Dialer Trigger with the live alerts example behind it (\`examples/${result.behindTrigger}\`, as in section 4b), ${result.deliveries.toLocaleString('en-US')} deliveries over the 7 event kinds at its production URL, the client giving up after the dialer’s 5 s, in n8n's queue mode on ${settings.length ? `n8n's defaults and ${settings.join(', ')}` : "n8n's defaults"} (every process of every deployment): PostgreSQL, Redis, a main, two workers (10 jobs each) and one or two webhook processors; the dialer posts to one URL, so two processors sit behind a round-robin front on 127.0.0.1 (node:http handing each request to undici's BalancedPool). The peer is single mode (one n8n, SQLite). Each deployment fresh and alone on the machine; before each burst, every process of it (main, webhook processors, workers) idle; ${result.runs} run${result.runs > 1 ? 's' : ''} per level, median (min–max). Lost deliveries are lost for good (one attempt, no retry), counted by why. Executions per 2xx: the live alerts' executions the burst started ÷ deliveries answered 2xx, counted once the workers are idle. Delivery is at least once, not exactly once: above 1 are deliveries n8n took after the dialer gave up, or a job a worker ran twice after a stall (queue mode does that). Finished: executions that ran to their end (the others failed or wait for a pause's maximum).`,
		'',
		'| In flight | Deployment | Events/s | ÷ single mode | Answered 2xx | Lost: 503 | Lost: timed out | Lost: refused | Lost: other | Answer p99 | Executions per 2xx | Live alerts finished |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
		...result.points.map(
			(p) =>
				`| ${p.inFlight} | ${DEPLOYMENT_NAMES[p.deployment]} | ${spread(p.eventsPerSecond, (v) => v.toFixed(1))} | ${x(ratio(p.eventsPerSecond.median, single(p.inFlight)?.eventsPerSecond.median ?? NaN))} | ${count(p.answered)} | ${count(p.lostBy.unavailable)} | ${count(p.lostBy.timedOut)} | ${count(p.lostBy.refused)} | ${count(p.lostBy.other)} | ${spread(p.p99Ms, ms)} | ${ratioCell(p.executionsPerAnswered)} | ${count(p.finished)} |`,
		),
		'',
		'| Goal | Measured | |',
		'|---|---|---|',
		...result.points
			.filter((p) => p.deployment !== 'single' && single(p.inFlight)?.lost.max === 0)
			.map(
				(p) =>
					`| ${DEPLOYMENT_NAMES[p.deployment]}: nothing lost at ${p.inFlight} in flight (single mode lost none) | ${count(p.lost)} lost | ${verdict(p.lost.max === 0)} |`,
			),
		...result.points.map(
			(p) =>
				`| ${DEPLOYMENT_NAMES[p.deployment]}, ${p.inFlight} in flight: at least one execution per delivery answered 2xx, every run | executions per 2xx ${ratioCell(p.executionsPerAnswered)} | ${verdict(p.atLeastOnce)} |`,
		),
		'',
	];
}

/** One line per section: when, on what, and how long it took. */
function runsTable(saved: SavedSections): string[] {
	return [
		'| Section | Measured | Commit | n8n | Machine | Load before / after (1 min) | Took |',
		'|---|---|---|---|---|---|---|',
		...SECTIONS.map((name) => {
			const machine: Machine | undefined = saved[name]?.machine;
			if (!machine) return `| ${name} | not yet: \`npm run bench -- --only ${name}\` | | | | | |`;
			const took = machine.durationMin === undefined ? '' : `${machine.durationMin.toFixed(1)} min`;
			return `| ${name}${machine.quick ? ' (quick)' : ''} | ${machine.date} | \`${machine.commit}\` | ${machine.n8nVersion} on Node ${machine.n8nNode} | ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb.toFixed(0)} GB, Linux ${machine.kernel}, bench on Node ${machine.benchNode} | ${machine.loadBefore[0].toFixed(2)} / ${machine.loadAfter[0].toFixed(2)} | ${[took, machine.note].filter(Boolean).join('; ')} |`;
		}),
	];
}

const FLOOD_NAMES = {
	none: 'none (the peer)',
	wrongSecret: 'one with a wrong secret per event (401)',
	address: 'one from an address not allowed per event (403)',
};

/** Section 6: the accepted deliveries' pace with a refused delivery alongside each. */
export function refusedFloodSection(result: RefusedFloodResult): string[] {
	const settings = Object.entries(result.env).map(([name, value]) => `\`${name}=${value}\``);
	const peer = result.points.find((p) => p.kind === 'none')!;
	return [
		`## 6. Refused deliveries amid accepted ones, n8n ${settings.length ? settings.join(', ') : 'defaults'}`,
		'',
		`${result.deliveries.toLocaleString('en-US')} events over the 7 kinds to a Dialer Trigger that accepts them all (one execution each), ${result.inFlight} events in flight; with a flood, each event also goes out once more to be refused, at the same moment (so ${result.deliveries.toLocaleString('en-US')} refused interleaved with the accepted ones, twice the requests in flight). The peer is the accepted deliveries alone, measured in the same n8n in the same runs; ${result.runs} run${result.runs > 1 ? 's' : ''} per kind, median (min–max). Executions = accepted deliveries and no refused delivery answered 2xx, in every run: ${result.exactlyOnce ? 'yes' : 'no'}.`,
		'',
		'| Refused alongside | Accepted/s | ÷ peer | Accepted ack p50 | Accepted ack max | Accepted lost (>5 s) | Refused ack p50 | Refused answers (last run) |',
		'|---|---|---|---|---|---|---|---|',
		...result.points.map(
			(p) =>
				`| ${FLOOD_NAMES[p.kind]} | ${spread(p.acceptedPerSecond, (v) => v.toFixed(1))} | ${x(ratio(p.acceptedPerSecond.median, peer.acceptedPerSecond.median))} | ${spread(p.acceptedP50Ms, ms)} | ${spread(p.acceptedMaxMs, ms)} | ${count(p.lost)} | ${p.kind === 'none' ? '–' : spread(p.refusedP50Ms, ms)} | ${JSON.stringify(p.runs.at(-1)?.refusedOutcomes ?? {})} |`,
		),
		'',
	];
}

/** Each section's tables from its results. */
const TABLES: { [Name in SectionName]: (result: SectionResults[Name]) => string[] } = {
	reports: ({ reports, curve }) => [...reportSection(reports), ...curveSection(curve)],
	'report-floor': reportFloorSection,
	'report-trigger': reportTriggerSection,
	summaries: summariesSection,
	recordings: recordingsSection,
	bulk: bulkSection,
	events: eventsSection,
	burst: (bursts) => bursts.flatMap(burstSection),
	'burst-settings': burstSettingsSection,
	'burst-queue': burstQueueSection,
	'refused-flood': refusedFloodSection,
	soak: (result) => soakSection(result),
	'soak-busy': (result) => soakSection(result, 'busy'),
};

/** A section's tables, under its heading a line saying when and on which n8n it was measured. */
export function sectionMarkdown<Name extends SectionName>(record: SectionRecord<Name>): string[] {
	const [heading, blank, ...rest] = TABLES[record.section](record.result);
	const { machine } = record;
	return [
		heading,
		blank,
		`*Measured ${machine.date} on n8n ${machine.n8nVersion}${machine.quick ? ', quick mode: not numbers to quote' : ''}.*`,
		'',
		...rest,
	];
}

/**
 * The line where BENCHMARKS.md's hand-written part begins: how the bench is run and what was
 * measured outside its sections. `npm run bench` rewrites the page above it and keeps the rest.
 */
export const HAND_WRITTEN_MARKER = '<!-- Written by hand from here on: npm run bench keeps it. -->';

/** The page `npm run bench` writes: the generated part, then the hand-written part of `current`. */
export function withHandWritten(generated: string, current: string | undefined): string {
	const start = current?.indexOf(HAND_WRITTEN_MARKER) ?? -1;
	return start < 0 ? generated : `${generated}\n${current!.slice(start)}`;
}

export function benchmarksMarkdown(saved: SavedSections, chartPath: string): string {
	const newest = Object.values(saved).sort((a, b) =>
		b.machine.date.localeCompare(a.machine.date),
	)[0];
	return [
		'# Benchmarks',
		'',
		'Generated by `npm run bench` (harness/bench/run.ts): this package against n8n’s generic nodes on the same n8n, simulator and data. Each section is measured in one run of its own and kept in `harness/bench/results/<section>.json`; `npm run bench` measures them all in turn, `npm run bench -- --only <section>` measures one again, and this page is assembled from the saved sections: do not edit it by hand down to [How the benchmarks are run](#how-the-benchmarks-are-run), which is written by hand, with what was measured outside these sections.',
		'',
		`![Benchmark curves](${chartPath})`,
		'',
		'## Runs',
		'',
		...runsTable(saved),
		'',
		...(newest
			? [
					'## Settings',
					'',
					...Object.entries(newest.settings).map(([name, value]) => `- ${name}: ${value}`),
					'- n8n in SQLite, regular mode, default expression engine unless said',
					'',
				]
			: []),
		...SECTIONS.flatMap((name) => {
			const record = saved[name];
			return record ? sectionMarkdown(record) : [];
		}),
	].join('\n');
}
