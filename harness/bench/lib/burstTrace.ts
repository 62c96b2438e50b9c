/**
 * Which deliveries of a burst wait longer than their turn, and on what. One fresh n8n, one
 * receiving workflow (Dialer Trigger or Webhook + IF, as the burst benchmark builds them), a
 * burst sent the way the simulator sends it (undici, keep-alive, at most N in flight, 5 s
 * timeout) with each delivery numbered in an `x-bench-seq` header; n8n runs with
 * ./webhookPhases.cjs preloaded, which times each step of its webhook path per request.
 *
 * CLI (under the machine lock): `npx tsx harness/bench/lib/burstTrace.ts [--variant trigger|generic]
 * [--in-flight 150] [--deliveries 1000] [--env NAME=VALUE …] [--out FILE]`. Prints the answer
 * times of selected against ignored events, by position in the burst, and the steps' mean
 * times for the slowest 5 % against all deliveries; writes every delivery joined with its
 * steps to FILE (JSON) for closer reading.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';

import { startSimulator } from '../../simulator';
import { AgentStates, eventKinds } from '../../simulator/agent-states';
import { Random } from '../../simulator/random';
import { createReceiver, removeReceiver, WANTED, type EventVariant } from '../scenarios/events';
import { envFlags, flagValue } from './args';
import { percentile } from './stats';
import { log, startTarget } from './target';

const TIMEOUT_MS = 5000;
const now = () => performance.timeOrigin + performance.now();

/** One delivery as the sender saw it, with n8n's steps for it (ms; `…End`: since n8n read it). */
export interface TracedDelivery {
	seq: number;
	wanted: boolean;
	sentAt: number;
	ms: number;
	status?: number;
	error?: string;
	/** From the preload: when n8n started reading the request, and its steps. */
	server?: Record<string, number>;
}

function parseArgs(argv: string[]) {
	const value = (flag: string, fallback: string) => flagValue(argv, flag) ?? fallback;
	return {
		variant: value('--variant', 'trigger') as EventVariant,
		inFlight: Number(value('--in-flight', '150')),
		deliveries: Number(value('--deliveries', '1000')),
		out: value('--out', ''),
		env: envFlags(argv),
	};
}

async function send(
	url: string,
	secret: string,
	bodies: object[],
	inFlight: number,
): Promise<TracedDelivery[]> {
	const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 256 });
	const deliveries: TracedDelivery[] = [];
	let next = 0;
	const worker = async () => {
		for (let seq = next++; seq < bodies.length; seq = next++) {
			const body = bodies[seq] as { evento: string };
			const delivery: TracedDelivery = {
				seq,
				wanted: body.evento === WANTED,
				sentAt: now(),
				ms: 0,
			};
			const signal = AbortSignal.timeout(TIMEOUT_MS);
			try {
				const response = await request(url, {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'x-webhook-secret': secret,
						'x-bench-seq': String(seq),
					},
					body: JSON.stringify(body),
					dispatcher,
					signal,
				});
				await response.body.text();
				delivery.status = response.statusCode;
			} catch (error) {
				delivery.error = signal.aborted ? 'timeout' : (error as Error).message;
			}
			delivery.ms = now() - delivery.sentAt;
			deliveries.push(delivery);
		}
	};
	await Promise.all(Array.from({ length: inFlight }, worker));
	await dispatcher.close();
	return deliveries.sort((a, b) => a.seq - b.seq);
}

const lost = (d: TracedDelivery) => d.status === undefined || d.status >= 300;
const fmt = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–');

function line(label: string, group: TracedDelivery[]): string {
	const ms = group.map((d) => d.ms);
	return (
		`${label.padEnd(22)} ${String(group.length).padStart(5)}  p50 ${fmt(percentile(ms, 50))}  ` +
		`p90 ${fmt(percentile(ms, 90))}  max ${fmt(Math.max(...ms))}  lost ${group.filter(lost).length}`
	);
}

/** Each of n8n's steps (and the wait before n8n read the request), ms, per answered delivery. */
function steps(group: TracedDelivery[]): Map<string, number[]> {
	const byStep = new Map<string, number[]>();
	for (const d of group.filter((delivery) => delivery.server && !lost(delivery))) {
		const server = d.server!;
		const parts: Array<[string, number]> = [
			['before n8n read it', server.start - d.sentAt],
			...Object.entries(server).filter(
				([key]) => !key.endsWith('End') && !['seq', 'start'].includes(key),
			),
		];
		for (const [key, value] of parts) byStep.set(key, [...(byStep.get(key) ?? []), value]);
	}
	return byStep;
}

export function report(deliveries: TracedDelivery[], inFlight: number, elapsedMs: number): string {
	const perSecond = (deliveries.length * 1000) / elapsedMs;
	const fair = (inFlight / perSecond) * 1000;
	const max = Math.max(...deliveries.map((d) => d.ms));
	const out = [
		`${deliveries.length} deliveries, ${inFlight} in flight: ${perSecond.toFixed(1)}/s, fair share ` +
			`${fmt(fair)}, longest ${fmt(max)} (${(max / fair).toFixed(2)}×), lost ${deliveries.filter(lost).length}`,
		line(
			'selected (execution)',
			deliveries.filter((d) => d.wanted),
		),
		line(
			'ignored',
			deliveries.filter((d) => !d.wanted),
		),
	];
	const tenth = Math.ceil(deliveries.length / 10);
	for (let start = 0; start < deliveries.length; start += tenth)
		out.push(
			line(`position ${start}–${start + tenth - 1}`, deliveries.slice(start, start + tenth)),
		);
	const answered = deliveries.filter((d) => !lost(d));
	const slowest = answered.sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(answered.length / 20));
	const mean = (values: number[] = []) => values.reduce((a, b) => a + b, 0) / values.length;
	const slow = steps(slowest);
	const cell = (value: number) => value.toFixed(0).padStart(7);
	out.push('', 'answered deliveries, ms     p50     p95     max  mean, slowest 5 %');
	for (const [key, values] of steps(deliveries))
		out.push(
			`  ${key.padEnd(24)}${cell(percentile(values, 50))} ${cell(percentile(values, 95))} ` +
				`${cell(Math.max(...values))} ${cell(mean(slow.get(key)))}`,
		);
	out.push(
		`slowest 5 % answered: ${slowest.filter((d) => d.wanted).length} selected, positions ` +
			`${slowest
				.map((d) => d.seq)
				.sort((a, b) => a - b)
				.join(' ')}`,
	);
	return out.join('\n');
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-dialer-trace-'));
	const phasesFile = path.join(folder, 'phases.jsonl');
	const secret = `trace-secret-${Date.now()}`;
	const sim = await startSimulator();
	const env = {
		...args.env,
		NODE_OPTIONS:
			`${args.env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'webhookPhases.cjs')}`.trim(),
		BENCH_WEBHOOK_PHASES_FILE: phasesFile,
	};
	const target = await startTarget(sim, secret, env);
	let deliveries: TracedDelivery[];
	let elapsedMs: number;
	try {
		const receiver = await createReceiver(target, args.variant, 'all', secret);
		const states = new AgentStates(sim.data, new Random(7));
		const bodies = Array.from({ length: args.deliveries }, (_, index) =>
			states.sample(
				eventKinds[index % eventKinds.length],
				sim.data.agents[index % sim.data.agents.length],
			),
		);
		const started = now();
		deliveries = await send(receiver.url, secret, bodies, args.inFlight);
		elapsedMs = now() - started;
		log(`burst sent in ${(elapsedMs / 1000).toFixed(1)} s; waiting for executions to end`);
		await new Promise((resolve) => setTimeout(resolve, 8000));
		await removeReceiver(target, receiver);
	} finally {
		await target.stop();
		await sim.close();
	}
	const lines = readFileSync(phasesFile, 'utf8')
		.trim()
		.split('\n')
		.map((l) => JSON.parse(l));
	const bySeq = new Map(lines.filter((l) => 'seq' in l).map((l) => [l.seq as number, l]));
	for (const d of deliveries) d.server = bySeq.get(d.seq);
	const extra = lines.filter((l) => !('seq' in l));
	process.stdout.write(
		`${args.variant}, n8n settings ${JSON.stringify(args.env)}\n${report(deliveries, args.inFlight, elapsedMs)}\n` +
			`${extra.map((l) => JSON.stringify(l)).join('\n')}\n`,
	);
	const out = args.out || path.join(folder, 'deliveries.json');
	writeFileSync(out, JSON.stringify(deliveries));
	log(`wrote ${out}`);
}

if (require.main === module)
	main().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
