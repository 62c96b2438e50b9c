/**
 * The Dialer Report Trigger in its own real n8n, in timezones whose clocks go back: it backfills
 * from just before the night of the change (2026-11-01 in New York), 8 fichas a poll, and n8n is
 * restarted after the first polls. Every ficha from the start on is emitted by exactly one
 * execution, the two 01:xx hours included, none from before the start or of another form. Only
 * the night and the morning after it are awaited, so the test takes as long in any year. In
 * Santiago, a start inside the hour before the change (as an activation there makes) emits the
 * rows of the repeated hour whose wall-clock time is before the start's. And a restart right
 * after the activation, before any row, still emits the row written in between.
 *
 * Each simulator runs as its own process with TZ set, so its wall clock is the workflow's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DateTime } from 'luxon';
import { request } from 'undici';

import { startN8n, type N8nInstance } from '../../harness/n8n/instance';
import type { ArrivedRow, RecordedRequest, RowArrival } from '../../harness/simulator/types';
import { registerSecret } from './setup/connection';
import { emittedFichas, reportTriggerNode } from './support/reportTrigger';

const ZONE = 'America/New_York';
/** 2026-11-01 in New York: 02:00 EDT becomes 01:00 EST, so 01:00–01:59 happens twice. */
const START_FROM = '2026-11-01T00:00:00';
const TOKEN = `e2e-report-dst-${randomUUID()}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const utc = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' }).toMillis();

/** A simulator process whose wall clock is `zone`'s. */
interface ZoneSimulator {
	process: ChildProcess;
	url: string;
}

const simulators: ZoneSimulator[] = [];
let simulatorUrl = '';
let n8n: N8nInstance | undefined;

async function startZoneSimulator(zone: string): Promise<ZoneSimulator> {
	const root = path.join(__dirname, '..', '..');
	// node --import tsx runs in one process, so the PID stopped below is the simulator's.
	const child = spawn(
		process.execPath,
		[
			'--import',
			'tsx',
			'harness/simulator/cli.ts',
			'--port',
			'0',
			'--token',
			TOKEN,
			'--fichas',
			'0',
		],
		{ cwd: root, env: { ...process.env, TZ: zone }, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const started: ZoneSimulator = { process: child, url: '' };
	simulators.push(started);
	const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as string[];
	started.url = (JSON.parse(line) as { baseUrl: string }).baseUrl;
	return started;
}

async function control<T>(
	method: 'GET' | 'POST',
	route: string,
	body?: unknown,
	url = simulatorUrl,
): Promise<T> {
	const response = await request(`${url}/__simulator/${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await response.body.json()) as T;
}

const addRows = async (arrivals: RowArrival[], url = simulatorUrl) =>
	(await control<{ rows: ArrivedRow[] }>('POST', 'rows', arrivals, url)).rows;

async function reads(url = simulatorUrl): Promise<RecordedRequest[]> {
	const { requests } = await control<{ requests: RecordedRequest[] }>(
		'GET',
		'requests',
		undefined,
		url,
	);
	return requests.filter((recorded) => recorded.operation === 'getFP1');
}

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 180_000) {
	const deadline = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
		await sleep(1000);
	}
}

beforeAll(async () => {
	registerSecret(TOKEN);
	simulatorUrl = (await startZoneSimulator(ZONE)).url;
	n8n = await startN8n({
		purpose: 'report-trigger',
		env: { GENERIC_TIMEZONE: ZONE, N8N_LOG_LEVEL: 'info' },
	});
}, 180_000);

afterAll(async () => {
	await n8n?.stop();
	for (const { process: child } of simulators) {
		if (child.pid && child.exitCode === null && child.signalCode === null) {
			const exited = once(child, 'exit');
			process.kill(child.pid, 'SIGTERM');
			await exited;
		}
	}
}, 60_000);

async function credentialFor(url: string) {
	return await n8n!.api.createCredential('dialerApi', `Dialer report trigger e2e ${url}`, {
		baseUrl: url,
		pathSegment: 'ipbox',
		token: TOKEN,
		authScheme: 'raw',
		ignoreSslIssues: false,
	});
}

it('backfills the night clocks go back, 8 fichas a poll, across an n8n restart, each ficha once', async () => {
	const api = n8n!.api;
	const before = await addRows([
		{ report: 'getFP1', form: 41, count: 3, at: utc('2026-11-01T03:00:00'), stepMs: 600_000 },
	]);
	// Every 5 minutes from 00:00 EDT to 03:00 EST: both 01:xx hours, with the same wall-clock times.
	const night = await addRows([
		{ report: 'getFP1', form: 41, count: 49, at: utc('2026-11-01T04:00:00'), stepMs: 300_000 },
	]);
	const morning = await addRows([
		{ report: 'getFP1', form: 41, count: 3, at: utc('2026-11-01T09:00:00'), stepMs: 3_600_000 },
		{ report: 'getFP1', form: 42, at: utc('2026-11-01T09:30:00') },
	]);
	const twice = night.filter(
		(row) => row.at >= utc('2026-11-01T05:00:00') && row.at < utc('2026-11-01T07:00:00'),
	);
	expect(twice).toHaveLength(24);

	const credential = await credentialFor(simulatorUrl);
	const workflow = await api.createWorkflow({
		name: 'e2e report trigger restart and DST',
		nodes: [
			reportTriggerNode(
				{
					event: 'newFilledForm',
					form: '41',
					filters: {},
					options: { startFrom: START_FROM, maxRowsPerPoll: 8 },
				},
				{ id: credential.id, name: credential.name },
			),
		],
		connections: {},
		settings: { timezone: ZONE, saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' },
	});
	const emitted = async () => emittedFichas(await api.listExecutions(workflow.id, true));
	await api.activateWorkflow(workflow.id);

	// Two polls into the night, n8n goes down and comes back.
	await waitUntil(async () => (await emitted()).length >= 16, 'two polls emitted');
	await n8n!.restart();
	const readsAfterRestart = (await reads()).length;
	const expected = [...night, ...morning.slice(0, 3)].map((row) => String(row.id));
	await waitUntil(async () => new Set(await emitted()).size >= expected.length, 'every ficha');
	const readsNow = (await reads()).length;
	await waitUntil(async () => (await reads()).length >= readsNow + 3, 'three more polls');
	await api.deactivateWorkflow(workflow.id);
	await sleep(3000);

	const executions = await api.listExecutions(workflow.id, true);
	const fichas = emittedFichas(executions);
	console.log(
		`report trigger restart/DST e2e: ${(await reads()).length} reads ` +
			`(${readsAfterRestart} before the restart's first poll), ${executions.length} executions, ` +
			`${fichas.length} fichas emitted of ${expected.length}`,
	);
	expect(executions.every((execution) => execution.status === 'success')).toBe(true);
	expect(fichas.length).toBe(new Set(fichas).size);
	expect(new Set(fichas)).toEqual(new Set(expected));
	for (const row of [...before, morning[3]]) expect(fichas).not.toContain(String(row.id));
}, 300_000);

it('starts inside the hour before clocks go back in Santiago: the repeated hour comes whole, once', async () => {
	const api = n8n!.api;
	const santiago = 'America/Santiago';
	const { url } = await startZoneSimulator(santiago);
	// 2026-04-05 00:00 -03 becomes 2026-04-04 23:00 -04: 23:00–23:59 happens twice. Start From
	// 23:20 is the first 23:20, as an activation at 23:30 with a 10-minute Overlap Window.
	const before = await addRows(
		[{ report: 'getFP1', form: 41, at: utc('2026-04-05T01:50:00') }],
		url,
	);
	// Every 5 minutes from the first 23:20 to 00:30 after the change.
	const night = await addRows(
		[{ report: 'getFP1', form: 41, count: 27, at: utc('2026-04-05T02:20:00'), stepMs: 300_000 }],
		url,
	);
	const secondHourBeforeStart = night.filter(
		(row) => row.at >= utc('2026-04-05T03:00:00') && row.at < utc('2026-04-05T03:20:00'),
	);
	expect(secondHourBeforeStart).toHaveLength(4);
	const credential = await credentialFor(url);
	const workflow = await api.createWorkflow({
		name: 'e2e report trigger Santiago fall-back start',
		nodes: [
			reportTriggerNode(
				{
					event: 'newFilledForm',
					form: '41',
					filters: {},
					options: { startFrom: '2026-04-04T23:20:00' },
				},
				{ id: credential.id, name: credential.name },
			),
		],
		connections: {},
		settings: {
			timezone: santiago,
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	});
	const emitted = async () => emittedFichas(await api.listExecutions(workflow.id, true));
	await api.activateWorkflow(workflow.id);
	try {
		await waitUntil(
			async () => new Set(await emitted()).size >= night.length,
			'every ficha',
			60_000,
		);
		const readsNow = (await reads(url)).length;
		await waitUntil(async () => (await reads(url)).length > readsNow, 'one more poll', 30_000);
	} finally {
		await api.deactivateWorkflow(workflow.id);
	}
	await sleep(2000);
	const fichas = await emitted();
	console.log(
		`report trigger Santiago fall-back e2e: ${fichas.length} fichas emitted of ${night.length} ` +
			`(${secondHourBeforeStart.length} in the second 23:00–23:19)`,
	);
	expect(fichas.length).toBe(new Set(fichas).size);
	expect(new Set(fichas)).toEqual(new Set(night.map((row) => String(row.id))));
	expect(fichas).not.toContain(String(before[0].id));
}, 120_000);

it('restarted right after the activation, before any row: the row written in between comes once', async () => {
	const api = n8n!.api;
	const credential = await credentialFor(simulatorUrl);
	// Polled only at activation (and at n8n's start): once a year otherwise.
	const node = reportTriggerNode(
		{ event: 'newFilledForm', form: '43', filters: {}, options: { overlapWindow: 1 } },
		{ id: credential.id, name: credential.name },
	);
	const workflow = await api.createWorkflow({
		name: 'e2e report trigger restart before the first row',
		nodes: [
			{
				...node,
				parameters: {
					...node.parameters,
					pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] },
				},
			},
		],
		connections: {},
		settings: { timezone: ZONE, saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' },
	});
	const readsBefore = (await reads()).length;
	await api.activateWorkflow(workflow.id);
	const activatedAt = Date.now();
	await waitUntil(async () => (await reads()).length > readsBefore, 'the activation poll', 30_000);
	// Written now, 52 s after the time it carries: inside the first state's window, but before
	// the Overlap Window of a poll that would start afresh 8 s or more after the activation.
	const [late] = await addRows([{ report: 'getFP1', form: 43, at: activatedAt - 52_000 }]);
	await n8n!.restart();
	const executions = async () => api.listExecutions(workflow.id, true);
	try {
		await waitUntil(async () => (await executions()).length > 0, 'an execution', 60_000);
	} finally {
		await api.deactivateWorkflow(workflow.id);
	}
	const fichas = emittedFichas(await executions());
	console.log(
		`report trigger restart before the first row e2e: restarted ` +
			`${((Date.now() - activatedAt) / 1000).toFixed(0)} s after the activation, fichas ${fichas}`,
	);
	expect(fichas).toEqual([String(late.id)]);
}, 180_000);
