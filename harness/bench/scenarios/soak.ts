/**
 * A shift soak: the supervision examples active as users run them (live over-limit alerts to a
 * file, the agent board, the wallboard; their own workflow settings) in a fresh n8n per rate, the
 * simulator's shift at each rate for `minutes`, on n8n's defaults and on the recommended settings.
 *
 * The shift's own pauses have maxima of 10 to 60 minutes, so probe agents (ids from 90000) add
 * pauses with a 90-s maximum all along: every 15 s one agent comes back after 30 s (no alert) and
 * one after 120 s (alerted at 90 s). 90 s, not less: n8n keeps a wait under 65 s in memory, a real
 * pause limit never is. Every alert is checked against the reference model
 * (harness/pauseAlertModel.ts) over the events n8n accepted, and so is the board at the end.
 * While the shift runs, every 5 s (the wallboard page's refresh): the wallboard's data request as the
 * page makes it (the rows since its last reading) timed, n8n's memory (its process group's RSS), its
 * running and waiting executions.
 */
import { takeOneCore } from '../../services/busyMachine';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';

import { exampleTable } from '../../n8n/dataTables';
import { RECOMMENDED_N8N_SETTINGS, sleep, TRIGGER_TYPE, triggerUrl } from '../../n8n/dialer';
import { waitUntilServed, type Workflow } from '../../n8n/api';
import {
	ALERT_LOG,
	configureExample,
	createWallboardCredentials,
	LIVE_ALERTS_EXAMPLE,
	openWallboard,
	readExamples,
	readLog,
	WALLBOARD_EXAMPLE,
	wallboardUrl,
} from '../../demo';
import type { AgentEvent, DialerSimulator } from '../../simulator/types';
import { decide, parseAlert, type LoggedAlert } from '../../pauseAlertModel';
import { groupMemory } from '../lib/procfs';
import { percentile } from '../lib/stats';
import { log, startTarget, type Target } from '../lib/target';

/** Every example a supervisor runs on the agent events, each active. */
const SUPERVISION_EXAMPLES = [LIVE_ALERTS_EXAMPLE, 'agent-board.json', WALLBOARD_EXAMPLE];

/**
 * The configurations soaked, by the name the page gives them, each with the key `--settings`
 * picks it by. `busy`: another process takes one of the machine's cores for the whole point, as
 * other work on the n8n host would (the alerts then come later, never wrong).
 */
export const SOAK_SETTINGS: ReadonlyArray<{
	key: string;
	name: string;
	env: Record<string, string>;
	busy?: boolean;
}> = [
	{ key: 'defaults', name: "n8n's defaults", env: {} },
	{ key: 'recommended', name: 'recommended', env: RECOMMENDED_N8N_SETTINGS },
	{ key: 'defaultsBusy', name: "n8n's defaults, a core taken", env: {}, busy: true },
];

const PROBE_FIRST_AGENT = 90_000;
const PROBE_EVERY_MS = 15_000;
const PROBE_LIMIT_S = 90;
const PROBE_IN_TIME_MS = 30_000;
const PROBE_OVER_MS = 120_000;
/** The wallboard page asks for its data this often (its Wallboard Settings' refreshSeconds). */
const SAMPLE_EVERY_MS = 5_000;
const WALLBOARD_TIMEOUT_MS = 30_000;
/** After the shift, how long n8n may take to save the events it accepted. */
const DRAIN_MS = 5 * 60_000;
/** Memory after this much of the shift counts as after warm-up. */
const WARM_UP_MS = 2 * 60_000;
/**
 * The shift and n8n are stopped once n8n's processes hold half the machine's memory: on n8n's
 * defaults above the rate it holds, memory grew by gigabytes a minute (the bench machine has no swap).
 */
const MEMORY_CEILING_MB = Math.round(os.totalmem() / 2 / 1024 / 1024);

/** The goals a rate is held by (issue: 10 events/s on 2 cores). */
/** Alerts: the 5 s the dialer may take to deliver, from the pause's own delivery, plus 2 s. */
export const SOAK_GOALS = { alertP99Ms: 8000, wallboardP99Ms: 1000, memoryMbPerMinute: 5 };

export interface SoakOptions {
	/** Events per second of the shift, ascending. */
	rates: number[];
	minutes: number;
	/** Keys of SOAK_SETTINGS to measure (measured in that list's order). */
	settings: string[];
	/** Settings every configuration gets on top of its own (--env). */
	env: Record<string, string>;
}

export interface SoakSample {
	/** Seconds since the shift started. */
	atS: number;
	rssMb: number;
	running: number;
	waiting: number;
	/** The wallboard's data request; undefined when it failed or took over 30 s. */
	wallboardMs?: number;
}

export interface Percentiles {
	p50: number;
	p99: number;
	max: number;
}

export interface SoakPoint {
	settings: string;
	env: Record<string, string>;
	rate: number;
	minutes: number;
	/** Events sent (shift and probes), accepted with 200, lost (any other answer or none in 5 s). */
	sent: number;
	accepted: number;
	lost: number;
	/** From the end of an event's second to its row in the agents' table. */
	savedAfterSecondMs: Percentiles;
	/** Accepted events without a row 5 minutes after the shift. */
	unsaved: number;
	alerts: {
		expected: number;
		/** Expected and alerted once. */
		alerted: number;
		missed: number;
		/** Alerted though the model says no, or a second time. */
		wrong: number;
		/** From the pause's maximum to its alert line (the example waits 2 s for late events). */
		lateMs: Percentiles;
	};
	wallboard: Percentiles & { requests: number; failed: number };
	/** Agents whose wallboard state differs from their latest accepted event (at the end). */
	boardWrong: number;
	memory: { startMb: number; endMb: number; peakMb: number; mbPerMinuteAfterWarmUp: number };
	executions: { runningMax: number; waitingMax: number };
	/** Seconds into the shift when it was stopped, n8n's memory over MEMORY_CEILING_MB. */
	stoppedAtS?: number;
	samples: SoakSample[];
	held: boolean;
}

export interface SoakResult extends SoakOptions {
	goals: typeof SOAK_GOALS;
	memoryCeilingMb: number;
	points: SoakPoint[];
}

const percentiles = (values: number[]): Percentiles => ({
	p50: percentile(values, 50),
	p99: percentile(values, 99),
	max: values.length ? Math.max(...values) : NaN,
});

/** The largest value, NaN for none (a figure never measured). */
const highest = (values: number[]) => {
	const finite = values.filter(Number.isFinite);
	return finite.length ? Math.max(...finite) : NaN;
};

/**
 * Memory growth in MB a minute: the highest RSS of the samples' last half against the highest of
 * their first half, over the time between the halves' middles. Peaks, not a fitted line: garbage
 * collection drops RSS by hundreds of MB at moments of its own, which tilt a line either way,
 * while memory that is never given back raises every peak.
 */
export function peakGrowthPerMinute(samples: Array<{ atS: number; rssMb: number }>): number {
	if (samples.length < 4) return NaN;
	const middle = (samples[0].atS + samples.at(-1)!.atS) / 2;
	const peakOf = (half: typeof samples) => highest(half.map((s) => s.rssMb));
	const growth =
		peakOf(samples.filter((s) => s.atS >= middle)) - peakOf(samples.filter((s) => s.atS < middle));
	return growth / ((middle - samples[0].atS) / 60);
}

/** The supervision examples, configured as their notes say and active; the trigger served. */
async function deploySupervision(target: Target, folder: string) {
	const { api } = target;
	// Made by the examples when published (2.x), by hand on 1.x, as their notes say.
	const tableSetup = await exampleTable(api);
	const { wallboard, login } = await createWallboardCredentials(api);
	const deployed: Array<{ file: string; workflow: Workflow }> = [];
	for (const { file, workflow } of await readExamples()) {
		if (!SUPERVISION_EXAMPLES.includes(file)) continue;
		const configured = configureExample(workflow, target.dialer, folder, tableSetup.ref, wallboard);
		// As users run them: the live alerts save no successful execution.
		const created = await api.createWorkflow({ ...configured, settings: workflow.settings });
		await api.activateWorkflow(created.id);
		deployed.push({ file, workflow: created });
	}
	const alerts = deployed.find(({ file }) => file === LIVE_ALERTS_EXAMPLE)!.workflow;
	const trigger = alerts.nodes.find((node) => node.type === TRIGGER_TYPE)!;
	const url = triggerUrl(api, trigger.webhookId!);
	await waitUntilServed(url);
	const table = await tableSetup.made();
	const page = wallboardUrl(api, deployed);
	for (let tries = 0; ; tries++) {
		try {
			return {
				table,
				alerts,
				url,
				events: trigger.parameters.events as string[],
				...(await openWallboard(page, login)),
			};
		} catch (error) {
			if (tries >= 50) throw error;
			await sleep(200);
		}
	}
}

/** Probe pairs so far, over every point: a stopped point's late resume can never end a pause of the next. */
let probePairs = 0;

/**
 * A probe pair's events: both pause with a 90-s maximum now; one comes back in time, one after.
 * Returns the timers of the resumes to come.
 */
function probePair(sim: DialerSimulator, sent: Array<Promise<unknown>>): NodeJS.Timeout[] {
	const pair = probePairs++;
	const t = Math.floor(Date.now() / 1000);
	const [over, inTime] = [PROBE_FIRST_AGENT + 2 * pair, PROBE_FIRST_AGENT + 2 * pair + 1];
	const pauseIn = (usuario_id: number): AgentEvent => ({
		evento: 'agente.pause_in',
		estado: 'paused',
		t,
		usuario_id,
		pausa_id: 3,
		udate: t,
		durmax: PROBE_LIMIT_S,
	});
	const pauseOut = (usuario_id: number) => () =>
		sent.push(
			sim.webhooks.emit({
				evento: 'agente.pause_out',
				estado: 'online',
				t: Math.floor(Date.now() / 1000),
				usuario_id,
			}),
		);
	sent.push(sim.webhooks.emit(pauseIn(over)), sim.webhooks.emit(pauseIn(inTime)));
	return [
		setTimeout(pauseOut(inTime), PROBE_IN_TIME_MS),
		setTimeout(pauseOut(over), PROBE_OVER_MS),
	];
}

/**
 * The wallboard's data as its page reads it: all rows, or those from eventOrder `since` on (up to
 * `before`, when given).
 */
async function timedGet(
	url: string,
	headers: Record<string, string>,
	since?: number,
	before?: number,
) {
	const started = performance.now();
	const query = since === undefined ? '' : `?since=${since}${before ? `&before=${before}` : ''}`;
	try {
		const res = await request(`${url}${query}`, {
			headers,
			signal: AbortSignal.timeout(WALLBOARD_TIMEOUT_MS),
		});
		const body = (await res.body.json()) as {
			lastOrder?: number;
			more?: boolean;
			rows?: number;
			middleOrder?: number | null;
			agents?: Array<{ agentId: number; eventOrder: number; state: string }>;
		};
		return res.statusCode === 200 ? { ms: performance.now() - started, body } : undefined;
	} catch {
		return undefined;
	}
}

/** The wallboard's data times and the most executions running and waiting, from the samples. */
function sampledFigures(samples: SoakSample[]): Pick<SoakPoint, 'wallboard' | 'executions'> {
	const wallboardMs = samples.flatMap((s) => (s.wallboardMs === undefined ? [] : [s.wallboardMs]));
	return {
		wallboard: {
			...percentiles(wallboardMs),
			requests: samples.length,
			failed: samples.length - wallboardMs.length,
		},
		executions: {
			runningMax: highest(samples.map((s) => s.running)),
			waitingMax: highest(samples.map((s) => s.waiting)),
		},
	};
}

/**
 * What a point stopped for memory leaves to report: deliveries, samples, executions, and memory up
 * to the reading that passed the ceiling.
 */
function overloadedPoint(
	settings: { name: string; env: Record<string, string> },
	rate: number,
	options: SoakOptions,
	sent: number,
	accepted: number,
	stopped: { atS: number; rssMb: number },
	samples: SoakSample[],
): SoakPoint {
	const none = { p50: NaN, p99: NaN, max: NaN };
	const measured = samples.filter((s) => Number.isFinite(s.rssMb));
	const warm = measured.filter((s) => s.atS * 1000 >= WARM_UP_MS);
	const point: SoakPoint = {
		settings: settings.name,
		env: settings.env,
		rate,
		minutes: options.minutes,
		sent,
		accepted,
		lost: sent - accepted,
		savedAfterSecondMs: none,
		unsaved: NaN,
		alerts: { expected: NaN, alerted: NaN, missed: NaN, wrong: NaN, lateMs: none },
		...sampledFigures(samples),
		boardWrong: NaN,
		memory: {
			startMb: (warm[0] ?? measured[0])?.rssMb ?? NaN,
			endMb: stopped.rssMb,
			peakMb: highest([...measured.map((s) => s.rssMb), stopped.rssMb]),
			mbPerMinuteAfterWarmUp: NaN,
		},
		stoppedAtS: stopped.atS,
		samples,
		held: false,
	};
	log(
		`soak: ${settings.name}, ${rate} events/s: NOT held; stopped at ${stopped.atS} s, ` +
			`${point.lost} of ${sent} lost until then, executions running ${point.executions.runningMax} at most`,
	);
	return point;
}

async function soakOne(
	sim: DialerSimulator,
	secret: string,
	settings: { name: string; env: Record<string, string>; busy?: boolean },
	rate: number,
	options: SoakOptions,
): Promise<SoakPoint> {
	const otherWork = settings.busy ? takeOneCore() : undefined;
	const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'dialer-bench-soak-')));
	const env = { ...settings.env, ...options.env, N8N_RESTRICT_FILE_ACCESS_TO: folder };
	const target = await startTarget(sim, secret, env);
	let stopping: Promise<void> | undefined;
	const stopTarget = () => (stopping ??= target.stop());
	const timers: NodeJS.Timeout[] = [];
	let memoryWatch: NodeJS.Timeout | undefined;
	let probes: NodeJS.Timeout | undefined;
	const stopProbes = () => {
		clearInterval(probes);
		for (const timer of timers) clearTimeout(timer);
	};
	try {
		const { api } = target;
		const pgid = target.n8n.pid;
		const { table, alerts, url, events, dataUrl, headers } = await deploySupervision(
			target,
			folder,
		);
		const receiver = sim.webhooks.register({ url, secret, events });
		const shiftMs = options.minutes * 60_000;
		const started = Date.now();
		log(`soak: ${settings.name}, ${rate} events/s for ${options.minutes} min`);
		sim.shift.start({ eventsPerSecond: rate, durationMs: shiftMs });

		const sent: Array<Promise<unknown>> = [];
		// The last pair's late agent comes back before the shift ends.
		probes = setInterval(() => {
			if (Date.now() - started + PROBE_OVER_MS < shiftMs) timers.push(...probePair(sim, sent));
		}, PROBE_EVERY_MS);
		const samples: SoakSample[] = [];
		// Like the page: all rows first, then the rows from the newest eventOrder it has (never past
		// the clock) less 30 s.
		let lastOrder: number | undefined;
		let stopped: { atS: number; rssMb: number } | undefined;
		// A process group that is gone reads as 0 MB: not a measurement.
		const rssMb = () => {
			try {
				return groupMemory(pgid).rssMb || NaN;
			} catch {
				return NaN;
			}
		};
		// On a timer of its own, from the shift's start to the point's end: an overloaded n8n stopped
		// answering its API, and the samples with it, while its memory passed 20 GB, and the
		// executions it held went on after the deliveries stopped (7.8 GB 5 minutes into the shift,
		// 22.9 GB 9 minutes after it). The shift stops first: no new delivery, though those in
		// flight may still fail and count as lost.
		memoryWatch = setInterval(() => {
			const now = rssMb();
			if (stopped || !(now > MEMORY_CEILING_MB)) return;
			stopped = { atS: Math.round((Date.now() - started) / 1000), rssMb: now };
			log(`soak: shift and n8n stopped at ${stopped.atS} s, n8n's memory ${Math.round(now)} MB`);
			stopProbes();
			void sim.shift.stop();
			// Its failure, if any, is met where the point ends and awaits the same stop.
			stopTarget().catch(() => undefined);
		}, 1000);
		while (Date.now() - started < shiftMs && !stopped) {
			const tick = Date.now();
			// Memory first: the requests below may take up to 30 s from an overloaded n8n.
			const memory = rssMb();
			const [wallboard, running, waiting] = await Promise.all([
				timedGet(
					dataUrl,
					headers,
					lastOrder === undefined
						? undefined
						: Math.max(0, Math.floor(Math.min(lastOrder, Date.now() / 100) - 300)),
				),
				api.executionCount(alerts.id, 'running').catch(() => NaN),
				api.executionCount(alerts.id, 'waiting').catch(() => NaN),
			]);
			const sample = {
				atS: Math.round((tick - started) / 1000),
				rssMb: memory,
				running,
				waiting,
				wallboardMs: wallboard?.ms,
			};
			samples.push(sample);
			if (wallboard?.body.lastOrder !== undefined)
				lastOrder = Math.max(lastOrder ?? 0, wallboard.body.lastOrder);
			if (samples.length % 12 === 0)
				log(
					`soak: ${sample.atS} s, RSS ${sample.rssMb.toFixed(0)} MB, executions running ${running}, waiting ${waiting}, wallboard ${wallboard ? `${wallboard.ms.toFixed(0)} ms` : 'failed'}`,
				);
			await sleep(Math.max(0, SAMPLE_EVERY_MS - (Date.now() - tick)));
		}
		clearInterval(probes);
		await sim.shift.stop();
		await Promise.all(sent);
		sim.webhooks.unregister(receiver);

		const deliveries = sim.webhooks.deliveries.filter((d) => d.receiverId === receiver);
		const accepted = deliveries.filter((d) => d.status === 200).map((d) => d.event);
		const overloaded = () =>
			overloadedPoint(
				settings,
				rate,
				options,
				deliveries.length,
				accepted.length,
				stopped!,
				samples,
			);
		if (stopped) return overloaded();
		// Waits after the shift end early once n8n is stopped for memory.
		const sleepUntil = async (at: number, stepMs: number) => {
			while (!stopped && Date.now() < at) await sleep(Math.min(stepMs, at - Date.now()));
		};

		/** Nothing lost, every alert and the board right, against the model. */
		const judge = async (): Promise<SoakPoint> => {
			// Drain: every accepted event saved, or 5 minutes.
			const drainUntil = Date.now() + DRAIN_MS;
			while (!stopped && (await table.count()) < accepted.length && Date.now() < drainUntil)
				await sleepUntil(Date.now() + 5000, 1000);

			const model = decide(accepted);
			// Every probe's limit has passed by the shift's end; the shift's own pauses may still be open.
			const observedUntil = Date.now() / 1000 - 5;
			const expected = model.alerts.filter((alert) => alert.limit < observedUntil);
			const lastLimit = Math.max(0, ...expected.map((alert) => alert.limit));
			await sleepUntil((lastLimit + 15) * 1000, 1000);
			const logged: LoggedAlert[] = (await readLog(path.join(folder, ALERT_LOG))).map(parseAlert);
			const rows = await table.rows();

			const key = (alert: { agentId: number; pauseId: number }) =>
				`${alert.agentId}/${alert.pauseId}`;
			const limits = new Map(expected.map((alert) => [key(alert), alert.limit]));
			const seen = new Set<string>();
			const lateMs: number[] = [];
			let wrong = 0;
			for (const alert of logged) {
				const limit = limits.get(key(alert));
				if (limit === undefined || seen.has(key(alert))) wrong++;
				else {
					seen.add(key(alert));
					lateMs.push(alert.at - limit * 1000);
				}
			}

			const eventSecond = new Map(
				accepted.map(({ usuario_id, evento, t }) => [`${usuario_id} ${evento} ${t}`, t]),
			);
			const savedAfterSecond = rows.flatMap((row) => {
				const t = eventSecond.get(
					`${row.agentId} ${row.lastEvent} ${Date.parse(row.lastEventAt) / 1000}`,
				);
				return t === undefined ? [] : [Date.parse(row.createdAt) - (t + 1) * 1000];
			});

			// The whole table, as the page reads it on opening: windows of eventOrder of at most 1000
			// rows, a full one asked again narrower, the next sized for about 600 rows.
			const shown = new Map<number, { eventOrder: number; state: string }>();
			const clockOrder = Math.floor(Date.now() / 100);
			for (let lo = 0, span: number | null = null; ;) {
				const answer = await timedGet(dataUrl, headers, lo, span === null ? undefined : lo + span);
				if (!answer) break;
				for (const agent of answer.body.agents ?? []) {
					const known = shown.get(agent.agentId);
					if (!known || agent.eventOrder >= known.eventOrder) shown.set(agent.agentId, agent);
				}
				if (answer.body.more && (span === null || span > 1)) {
					const half = Math.ceil((span ?? Math.max(2, clockOrder + 300 - lo)) / 2);
					const middle = (answer.body.middleOrder ?? lo) - lo;
					span = middle >= 1 && (span === null || middle < span) ? middle : half;
				} else if (span !== null) {
					const rows = Math.max(answer.body.rows ?? 1, 1);
					const grown = Math.max(1, Math.round(span * Math.min(4, 600 / rows)));
					lo += span;
					span = lo + grown >= clockOrder ? null : grown;
				} else break;
			}
			const boardWrong = [...model.latest].filter(
				([agentId, event]) => shown.get(agentId)?.state !== event.estado,
			).length;

			const warm = samples.filter((s) => s.atS * 1000 >= WARM_UP_MS);
			const point: Omit<SoakPoint, 'held'> = {
				settings: settings.name,
				env: settings.env,
				rate,
				minutes: options.minutes,
				sent: deliveries.length,
				accepted: accepted.length,
				lost: deliveries.length - accepted.length,
				savedAfterSecondMs: percentiles(savedAfterSecond),
				unsaved: accepted.length - rows.length,
				alerts: {
					expected: expected.length,
					alerted: seen.size,
					missed: expected.length - seen.size,
					wrong,
					lateMs: percentiles(lateMs),
				},
				...sampledFigures(samples),
				boardWrong,
				memory: {
					startMb: warm[0]?.rssMb ?? NaN,
					endMb: samples.at(-1)?.rssMb ?? NaN,
					peakMb: highest(samples.map((s) => s.rssMb)),
					mbPerMinuteAfterWarmUp: peakGrowthPerMinute(warm),
				},
				samples,
			};
			const held =
				point.lost === 0 &&
				point.unsaved === 0 &&
				point.alerts.missed === 0 &&
				point.alerts.wrong === 0 &&
				point.boardWrong === 0 &&
				point.wallboard.failed === 0 &&
				point.alerts.lateMs.p99 <= SOAK_GOALS.alertP99Ms &&
				point.wallboard.p99 <= SOAK_GOALS.wallboardP99Ms &&
				point.memory.mbPerMinuteAfterWarmUp <= SOAK_GOALS.memoryMbPerMinute;
			log(
				`soak: ${settings.name}, ${rate} events/s: ${held ? 'held' : 'NOT held'}; ` +
					`${point.lost} lost, ${point.unsaved} unsaved, alerts ${seen.size}/${expected.length} ` +
					`(${wrong} wrong, late p99 ${point.alerts.lateMs.p99} ms), wallboard p99 ` +
					`${point.wallboard.p99.toFixed(0)} ms (${point.wallboard.failed} failed), board wrong ${point.boardWrong}, ` +
					`memory ${point.memory.mbPerMinuteAfterWarmUp.toFixed(1)} MB/min after warm-up`,
			);
			return { ...point, held };
		};

		const point = await judge().catch((error: unknown) => {
			// n8n was stopped for memory while it saved or alerted its last events.
			if (stopped) return undefined;
			throw error;
		});
		return point && !stopped ? point : overloaded();
	} finally {
		clearInterval(memoryWatch);
		stopProbes();
		otherWork?.stop();
		await stopTarget();
		await rm(folder, { recursive: true, force: true });
	}
}

export async function runSoakScenario(
	sim: DialerSimulator,
	secret: string,
	options: SoakOptions,
): Promise<SoakResult> {
	const points: SoakPoint[] = [];
	for (const settings of SOAK_SETTINGS.filter((s) => options.settings.includes(s.key))) {
		for (const rate of options.rates)
			points.push(await soakOne(sim, secret, settings, rate, options));
	}
	return { ...options, goals: SOAK_GOALS, memoryCeilingMb: MEMORY_CEILING_MB, points };
}
