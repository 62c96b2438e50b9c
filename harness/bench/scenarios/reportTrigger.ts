/**
 * Scenario 5, a Report Trigger poll that finds many new rows: the Dialer Report Trigger (New
 * Filled Form) against the Dialer node's Get Filled Forms reading the same window. Both
 * workflows end in the same node, an HTTP Request run once that tells the bench the items have
 * arrived; each run is timed from the simulator receiving the report request to that call, so
 * both sides cover reading the answer and turning it into items, and the trigger also its row
 * keys, its stored state and the execution it starts.
 *
 * Two kinds of poll. A first poll: each run adds the rows in one new second and activates a new
 * workflow that starts from that second (Start From); n8n polls on activation, with its
 * activation work beside the poll. A scheduled poll, what a running trigger does all day: one
 * workflow stays active, polling every two minutes with an Overlap Window of one minute; each run
 * adds the rows in one new second after a poll, and the next scheduled poll reads them (and no
 * earlier run's rows: those lie before its window). The action node then reads each window the
 * trigger read, through a webhook.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { linearConnections, type NodeSpec } from '../../n8n/api';
import { REPORT_TRIGGER_TYPE, sleep, usesCredential } from '../../n8n/dialer';
import { WallClock } from '../../simulator/time';
import type { DialerSimulator } from '../../simulator/types';
import { pollStorageRuns } from '../lib/pollStorage';
import type { RememberedKeysResult } from '../lib/rememberedKeys';
import { cpuTimes, groupMemory, resetPeaks } from '../lib/procfs';
import { summarize, type Summary } from '../lib/stats';
import { idleRssMb, log, withTarget, type Target } from '../lib/target';
import { createRunWorkflow, settingsFor } from '../lib/workflows';
import { filledFormsNode } from './reports';

// The in-process simulator's wall clock: this process's zone.
const clock = new WallClock();

export type PollVariant = 'trigger' | 'action';

export interface PollVariantResult {
	variant: PollVariant;
	/** From the report request reaching the dialer to the next node holding the items. */
	ms: Summary;
	addedPeakMb: Summary;
	peakMb: Summary;
	mainThreadMs: Summary;
	/**
	 * The package's own part: the trigger's `poll`, the Dialer node's `execute`, from its start to
	 * its items handed to n8n (absent from the earliest recorded rounds).
	 */
	ownMs?: Summary;
	/**
	 * The simulator building its answer to the report request, in the bench's process on the same
	 * cores: inside both times above (absent from the earliest recorded rounds).
	 */
	dialerMs?: Summary;
	/** The own code's time split at its report request (absent from the earliest recorded rounds). */
	phases?: Record<keyof OwnPhases, Summary>;
}

/** Where the own code's time goes, around its (last) report request. */
export interface OwnPhases {
	/** From its start to the first request sent. */
	beforeRequestMs: number;
	/** From the last request sent to its answer's headers: n8n's request helper and the dialer. */
	toHeadersMs: number;
	/** From those headers to the rows handed to n8n: reading, parsing, making items. */
	afterAnswerMs: number;
}

export interface ReportTriggerResult {
	/** New rows each poll found (and the action node read). */
	rows: number;
	/** First polls, run by n8n as it activates a new workflow, against the action node. */
	variants: PollVariantResult[];
	/**
	 * Scheduled polls of an active workflow, against the action node (absent from the earliest
	 * recorded rounds).
	 */
	scheduled?: PollVariantResult[];
	/**
	 * n8n's floor for a poll emitting these rows: its `flatted.stringify` of the execution it
	 * stores before running it, outside n8n (harness/bench/lib/pollStorage.ts; absent from the earliest
	 * recorded rounds).
	 */
	storage?: { ms: Summary; mb: number };
	/**
	 * Each measured scheduled poll with what the trigger remembered after it: the fichas of every
	 * poll before stay remembered for a day, so each poll adds `rows` (absent from rounds saved
	 * before it was measured).
	 */
	memory?: RememberedPoll[];
	/**
	 * The trigger's memory at 10,000 and 100,000 fichas and its look back for late rows over a
	 * day, in the bench's process (harness/bench/probes/reportTriggerKeys.ts; measured on its own date).
	 */
	keys?: RememberedKeysResult;
}

/** One scheduled poll and the trigger's memory after it. */
export interface RememberedPoll {
	/** Fichas the trigger remembered after the poll. */
	remembered: number;
	/** The node's static data as n8n stores it (JSON), in kB. */
	staticDataKb: number;
	/** From the report request to the next node holding the items. */
	ms: number;
	/** The trigger's own `poll` (NaN in an n8n started without harness/bench/lib/nodeTimes.cjs). */
	ownMs: number;
}

interface Timings {
	ms: number;
	addedPeakMb: number;
	peakMb: number;
	mainThreadMs: number;
	/** NaN (and the phases too) in an n8n started without harness/bench/lib/nodeTimes.cjs (a shared one). */
	ownMs: number;
	dialerMs: number;
}

type Sample = Timings & OwnPhases;

interface Arrival {
	at: number;
	/** How many items the last node received. */
	items: number;
}

/** The time of each call the workflows' last node makes to the bench, and its item count. */
class DoneSignals {
	private waiting?: (arrival: Arrival) => void;

	private constructor(
		private readonly server: Server,
		readonly url: string,
	) {}

	static async start(): Promise<DoneSignals> {
		const server = createServer();
		server.listen(0, '127.0.0.1');
		await once(server, 'listening');
		const { port } = server.address() as AddressInfo;
		const signals = new DoneSignals(server, `http://127.0.0.1:${port}/done`);
		server.on('request', (req, res) => {
			const at = Date.now();
			const items = Number(new URL(req.url ?? '/', signals.url).searchParams.get('items'));
			req.resume();
			res.end('{}');
			signals.waiting?.({ at, items });
			signals.waiting = undefined;
		});
		return signals;
	}

	next(timeoutMs: number): Promise<Arrival> {
		return new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`no items reached the last node within ${timeoutMs} ms`)),
				timeoutMs,
			);
			this.waiting = (arrival) => {
				clearTimeout(timer);
				resolve(arrival);
			};
		});
	}

	async close(): Promise<void> {
		this.server.close();
		await once(this.server, 'close');
	}
}

/**
 * Counts the items (Summarize) and calls the bench once with the count. Not `$input.all().length`
 * in one HTTP Request: n8n 2.x evaluates expressions in an isolate and copies every item into it
 * for `$input.all()`, 100–400 ms for 10,000 rows (CPU profile), after the items have arrived
 * and more for the trigger's than for the action node's.
 */
function doneNodes(url: string): NodeSpec[] {
	return [
		{
			name: 'Count Items',
			type: 'n8n-nodes-base.summarize',
			typeVersion: 1.1,
			parameters: {
				fieldsToSummarize: { values: [{ aggregation: 'count', field: 'ficha' }] },
				options: {},
			},
		},
		{
			name: 'Items Arrived',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'POST',
				url,
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'items', value: '={{ $json.count_ficha }}' }] },
				options: {},
			},
		},
	];
}

const NODE_TIMES_PRELOAD = path.join(__dirname, '..', 'lib', 'nodeTimes.cjs');

type TimedClass = 'DialerReportTrigger' | 'Dialer';

/** How long the package's own methods ran in n8n, as harness/bench/lib/nodeTimes.cjs writes it. */
class NodeTimes {
	readonly file = path.join(tmpdir(), `dialer-node-times-${randomUUID()}.log`);

	constructor() {
		writeFileSync(this.file, '');
	}

	/** What n8n's environment needs for it, beside `env` (whose NODE_OPTIONS are kept). */
	env(env: Record<string, string>): Record<string, string> {
		const options = [env.NODE_OPTIONS, `--require ${NODE_TIMES_PRELOAD}`].filter(Boolean);
		return { ...env, NODE_OPTIONS: options.join(' '), BENCH_NODE_TIMES_FILE: this.file };
	}

	/** The last run of `name` that ended by `by`: its time and phases, NaN when none did. */
	lastRun(name: TimedClass, by: number): { ownMs: number } & OwnPhases {
		const last = readFileSync(this.file, 'utf8')
			.split('\n')
			.map((line) => line.split(' '))
			.filter(([timed, , ended]) => timed === name && Number(ended) <= by)
			.at(-1);
		if (!last) return { ownMs: NaN, beforeRequestMs: NaN, toHeadersMs: NaN, afterAnswerMs: NaN };
		const [started, ended] = [Number(last[1]), Number(last[2])];
		const marks = last.slice(3).map((mark) => mark.split('='));
		const requests = marks
			.filter(([kind]) => kind === 'request')
			.map(([, span]) => span.split('-').map(Number));
		const emitted = marks.find(([kind]) => kind === 'emit');
		const handedOver = emitted ? Number(emitted[1]) : ended;
		const [sent, headers] = requests.at(-1) ?? [NaN, NaN];
		return {
			ownMs: ended - started,
			beforeRequestMs: (requests[0]?.[0] ?? NaN) - started,
			toHeadersMs: headers - sent,
			afterAnswerMs: handedOver - headers,
		};
	}

	remove(): void {
		rmSync(this.file, { force: true });
	}
}

/** What each measured run reads besides n8n's process: the last node's call, the package's time. */
interface Probes {
	signals: DoneSignals;
	times: NodeTimes;
}

/** Whole seconds, so that each run's rows carry a second no earlier read has covered. */
async function nextSecond(): Promise<number> {
	await sleep(1010 - (Date.now() % 1000));
	return Math.floor(Date.now() / 1000) * 1000;
}

interface Window {
	de: string;
	ate: string;
}

/** The form fields of the report request a poll made. */
type RequestFields = Record<string, string>;

interface Measured {
	sample: Sample;
	window: Window;
	fields: RequestFields;
	/** Scheduled polls: the trigger's static data after the poll. */
	staticData?: { remembered: number; bytes: number };
}

/** The trigger's static data as n8n stored it: how many fichas it remembers, and its size. */
async function storedMemory(target: Target, workflowId: string): Promise<Measured['staticData']> {
	const workflow = await target.api.public<{ staticData?: unknown }>(
		'GET',
		`/workflows/${workflowId}`,
	);
	const text =
		typeof workflow.staticData === 'string'
			? workflow.staticData
			: JSON.stringify(workflow.staticData ?? {});
	const nodes = Object.values((JSON.parse(text) as Record<string, unknown>) ?? {});
	let remembered = 0;
	for (const node of nodes) {
		const cursor = (node as { reportCursor?: { known?: Record<string, string[]> } }).reportCursor;
		for (const entries of Object.values(cursor?.known ?? {})) remembered += entries.length / 2;
	}
	return { remembered, bytes: Buffer.byteLength(text) };
}

/**
 * Runs `poll` (which makes n8n read the report once), checks that the last node received `rows`
 * items, and measures from the report request to the last node's call, with the memory and
 * main-thread CPU of n8n's processes.
 */
async function measurePoll(
	target: Target,
	sim: DialerSimulator,
	{ signals, times }: Probes,
	timed: TimedClass,
	baselineMb: number,
	rows: number,
	poll: () => Promise<unknown>,
	settle: () => Promise<unknown> = () => sleep(300),
): Promise<Measured> {
	const pgid = target.n8n.pid;
	const requestsBefore = sim.requests.length;
	await settle();
	resetPeaks(pgid);
	const cpuBefore = cpuTimes(pgid).mainThreadMs;
	const done = signals.next(POLL_EVERY_MS + 30_000);
	await poll();
	const arrived = await done.catch((error: Error) => {
		const reads = sim.requests
			.slice(requestsBefore)
			.map((request) => `${request.operation} ${JSON.stringify(request.fields)} ${request.status}`);
		throw new Error(`${error.message}; requests meanwhile: ${reads.join('; ') || 'none'}`);
	});
	if (arrived.items !== rows) {
		const reads = sim.requests
			.slice(requestsBefore)
			.map((request) => `${request.operation} ${JSON.stringify(request.fields)} ${request.status}`);
		throw new Error(
			`the last node received ${arrived.items} items for ${rows} new rows; requests: ${reads.join('; ')}`,
		);
	}
	// What comes after the items (the trigger's state, the execution's end) counts too.
	await sleep(300);
	const memory = groupMemory(pgid);
	// The last: the second poll of an activation first checks the dialer's clock, a read of its
	// own (a day back to a day ahead), then reads the window.
	const read = sim.requests
		.slice(requestsBefore)
		.filter((request) => request.operation === 'getFP1')
		.at(-1);
	if (!read) throw new Error('the poll made no getFP1 request');
	return {
		sample: {
			ms: arrived.at - read.receivedAt,
			addedPeakMb: memory.peakMb - baselineMb,
			peakMb: memory.peakMb,
			mainThreadMs: cpuTimes(pgid).mainThreadMs - cpuBefore,
			...times.lastRun(timed, arrived.at),
			dialerMs: (read.answeredAt ?? NaN) - read.receivedAt,
		},
		window: { de: read.fields.de, ate: read.fields.ate },
		fields: read.fields,
	};
}

/** Scheduled polls: every two minutes, at second 0 (n8n 2.x refuses polls under a minute). */
const POLL_EVERY_MS = 120_000;
const SCHEDULED_POLLS = '0 */2 * * * *';
/** Once a year: the only poll of a first-poll run is the one n8n makes on activation. */
const ACTIVATION_ONLY = '0 0 1 1 *';

/** Milliseconds until the next scheduled poll (whole minutes agree in every zone n8n runs in). */
const untilNextPoll = () => POLL_EVERY_MS - (Date.now() % POLL_EVERY_MS);

function triggerWorkflow(
	target: Target,
	form: number,
	from: number,
	signals: DoneSignals,
	schedule: { cron: string; overlapMinutes: number },
) {
	// ISO 8601 in the simulator's (this process's, the workflow's) local time.
	const startFrom = clock.formatIsoLocal(from).replace(' ', 'T');
	const trigger: NodeSpec = {
		name: 'Dialer Report Trigger',
		type: REPORT_TRIGGER_TYPE,
		typeVersion: 1,
		parameters: {
			pollTimes: { item: [{ mode: 'custom', cronExpression: schedule.cron }] },
			event: 'newFilledForm',
			form: String(form),
			filters: {},
			options: {
				startFrom,
				maxRowsPerPoll: 100_000,
				overlapWindow: schedule.overlapMinutes,
			},
		},
		credentials: usesCredential(target.dialer),
	};
	const nodes = [trigger, ...doneNodes(signals.url)];
	return target.api.createWorkflow({
		name: `bench report trigger from ${startFrom}`,
		nodes: nodes.map((node, index) => ({ ...node, position: [index * 220, 0] })),
		connections: linearConnections(nodes.map((node) => node.name)),
		settings: settingsFor('none', Intl.DateTimeFormat().resolvedOptions().timeZone),
	});
}

/**
 * The window the Dialer node reads for a poll: from the second its batch was added, so it reads
 * the rows the poll emitted and not an earlier batch its read reached back to.
 */
function fromBatch(poll: Measured, second: number): Measured {
	const de = clock.formatIsoLocal(second).replace(/\D/g, '');
	return { ...poll, window: { ...poll.window, de }, fields: { ...poll.fields, de } };
}

/** One warm-up and `runs` measured polls, each finding `rows` new fichas of `form`. */
async function triggerPolls(
	target: Target,
	sim: DialerSimulator,
	probes: Probes,
	options: { form: number; rows: number; runs: number },
): Promise<Measured[]> {
	const baselineMb = await idleRssMb(target);
	const measured: Measured[] = [];
	for (let run = 0; run <= options.runs; run++) {
		const second = await nextSecond();
		sim.rows.add({ report: 'getFP1', form: options.form, count: options.rows, at: second });
		const workflow = await triggerWorkflow(target, options.form, second, probes.signals, {
			cron: ACTIVATION_ONLY,
			overlapMinutes: 10,
		});
		const poll = await measurePoll(
			target,
			sim,
			probes,
			'DialerReportTrigger',
			baselineMb,
			options.rows,
			() => target.api.activateWorkflow(workflow.id),
		);
		// Reads start on a whole minute, where the batch before may lie.
		measured.push(fromBatch(poll, second));
		await target.api.deactivateWorkflow(workflow.id);
	}
	return measured;
}

/** Waits for the report request of the poll n8n runs on activation, and for that poll to end. */
async function activationPoll(sim: DialerSimulator, requestsBefore: number): Promise<void> {
	const read = () =>
		sim.requests.slice(requestsBefore).some((request) => request.operation === 'getFP1');
	for (let waited = 0; !read(); waited += 100) {
		if (waited > 30_000) throw new Error('n8n made no poll on activation within 30 s');
		await sleep(100);
	}
	await sleep(2_000);
}

/**
 * One workflow activated with nothing to read, then a warm-up and `runs` measured scheduled polls,
 * each finding `rows` new fichas of `form` added after the poll before.
 */
async function scheduledPolls(
	target: Target,
	sim: DialerSimulator,
	probes: Probes,
	options: { form: number; rows: number; runs: number },
): Promise<Measured[]> {
	const baselineMb = await idleRssMb(target);
	const workflow = await triggerWorkflow(target, options.form, await nextSecond(), probes.signals, {
		cron: SCHEDULED_POLLS,
		overlapMinutes: 1,
	});
	const requestsBefore = sim.requests.length;
	await target.api.activateWorkflow(workflow.id);
	// n8n 2.41.1 runs the activation's poll after answering the activation: rows added before it
	// reads would be its (seen in a run whose warm-up then found nothing new).
	await activationPoll(sim, requestsBefore);
	const measured: Measured[] = [];
	try {
		for (let run = 0; run <= options.runs; run++) {
			// Rows added a moment before a poll could miss it: wait for the one after.
			if (untilNextPoll() < 5_000) await sleep(untilNextPoll() + 1_000);
			const second = await nextSecond();
			sim.rows.add({ report: 'getFP1', form: options.form, count: options.rows, at: second });
			const poll = await measurePoll(
				target,
				sim,
				probes,
				'DialerReportTrigger',
				baselineMb,
				options.rows,
				async () => undefined,
				// Memory and CPU from just before the poll, not over the idle minutes.
				() => sleep(untilNextPoll() - 1_500),
			);
			// The poll's read reaches back by the overlap, where the batch before may lie (the first
			// comes less than a minute before the first scheduled poll).
			// n8n saves the static data with the execution it starts, without waiting for it.
			await sleep(1_000);
			measured.push({
				...fromBatch(poll, second),
				staticData: await storedMemory(target, workflow.id),
			});
		}
	} finally {
		await target.api.deactivateWorkflow(workflow.id);
	}
	return measured;
}

/** The same windows read by the Dialer node (Get Filled Forms), a warm-up first. */
async function actionReads(
	target: Target,
	sim: DialerSimulator,
	probes: Probes,
	form: number,
	rows: number,
	windows: Window[],
): Promise<Measured[]> {
	const workflow = await createRunWorkflow(
		target.api,
		[filledFormsNode(target.dialer), ...doneNodes(probes.signals.url)],
		{
			save: 'none',
			timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
			answer: 'noData',
			name: 'bench report trigger peer: Get Filled Forms',
		},
	);
	const baselineMb = await idleRssMb(target);
	const measured: Measured[] = [];
	for (const window of windows) {
		measured.push(
			await measurePoll(target, sim, probes, 'Dialer', baselineMb, rows, async () => {
				const answer = await workflow.post([{ form: String(form), ...window }]);
				if (answer.status !== 200) throw new Error(`Get Filled Forms answered ${answer.status}`);
			}),
		);
	}
	return measured;
}

function summarizeVariant(variant: PollVariant, measured: Measured[]): PollVariantResult {
	// The first run warms n8n up and is not counted.
	const samples = measured.slice(1).map((m) => m.sample);
	const pick = (field: keyof Sample) => summarize(samples.map((sample) => sample[field]));
	return {
		variant,
		ms: pick('ms'),
		addedPeakMb: pick('addedPeakMb'),
		peakMb: pick('peakMb'),
		mainThreadMs: pick('mainThreadMs'),
		dialerMs: pick('dialerMs'),
		...(samples.some((sample) => !Number.isNaN(sample.ownMs)) && {
			ownMs: pick('ownMs'),
			phases: {
				beforeRequestMs: pick('beforeRequestMs'),
				toHeadersMs: pick('toHeadersMs'),
				afterAnswerMs: pick('afterAnswerMs'),
			},
		}),
	};
}

/** Without `shared`, each variant gets a fresh n8n (memory is compared between processes in the same state). */
export async function runReportTrigger(
	sim: DialerSimulator,
	secret: string,
	options: { rows: number; runs: number; scheduledRuns: number },
	shared?: Target,
	env: Record<string, string> = {},
): Promise<ReportTriggerResult> {
	const form = sim.data.forms[0].id;
	const probes: Probes = { signals: await DoneSignals.start(), times: new NodeTimes() };
	const onTarget = <T>(work: (target: Target) => Promise<T>) =>
		shared ? work(shared) : withTarget(sim, secret, work, probes.times.env(env));
	const versusAction = async (trigger: Measured[]) => {
		const action = await onTarget((target) =>
			actionReads(
				target,
				sim,
				probes,
				form,
				options.rows,
				trigger.map((m) => m.window),
			),
		);
		return [summarizeVariant('trigger', trigger), summarizeVariant('action', action)];
	};
	try {
		log(`report trigger: first polls finding ${options.rows} new fichas`);
		const first = await onTarget((target) =>
			triggerPolls(target, sim, probes, { form, ...options }),
		);
		log('report trigger: the Dialer node reading the same windows');
		const variants = await versusAction(first);
		if (options.scheduledRuns === 0) return { rows: options.rows, variants };
		log(`report trigger: scheduled polls every ${POLL_EVERY_MS / 60_000} min`);
		const scheduled = await onTarget((target) =>
			scheduledPolls(target, sim, probes, {
				form,
				rows: options.rows,
				runs: options.scheduledRuns,
			}),
		);
		log("report trigger: the Dialer node reading the scheduled polls' windows");
		const versus = await versusAction(scheduled);
		log('report trigger: n8n storing a polled execution with these rows, outside n8n');
		const stored = await pollStorageRuns(
			{
				url: `${sim.apiUrl}/getFP1`,
				token: sim.token,
				fields: (scheduled[1] ?? scheduled[0]).fields,
				rowsPath: 'data',
				node: { name: 'Dialer Report Trigger', type: REPORT_TRIGGER_TYPE, typeVersion: 1 },
			},
			options.scheduledRuns,
		);
		if (stored.some((sample) => sample.rows !== options.rows))
			throw new Error(`the stored execution held ${stored[0]?.rows} rows, not ${options.rows}`);
		return {
			rows: options.rows,
			variants,
			scheduled: versus,
			storage: { ms: summarize(stored.map((sample) => sample.ms)), mb: stored[0].mb },
			memory: scheduled.map(({ sample, staticData }) => ({
				remembered: staticData?.remembered ?? 0,
				staticDataKb: Math.round((staticData?.bytes ?? 0) / 1024),
				ms: sample.ms,
				ownMs: sample.ownMs,
			})),
		};
	} finally {
		await probes.signals.close();
		probes.times.remove();
	}
}
