/** The Dialer Report Trigger's poll against the simulator, with rows appearing between polls. */
import { DateTime } from 'luxon';
import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import * as filledForms from '../../../nodes/shared/reports/filledForms';
import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { startSimulator, type DialerSimulator } from '../../../harness/simulator';
import { clockForwardBy } from '../../support/clock';
import { fakePollFunctions, type FakePollOptions } from '../support/pollFunctions';

let sim: DialerSimulator;
const trigger = new DialerReportTrigger();
// The simulator's wall clock is this process's: the workflow's timezone is the same.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeAll(async () => {
	sim = await startSimulator({ fichas: 30, calls: 30 });
});
afterAll(() => sim?.close());

const newFilledForm = { event: 'newFilledForm', form: '41', filters: {} };

/** A trigger whose static data lives across polls, as on an active workflow. */
function activeTrigger(parameters: Record<string, unknown>, extra: Partial<FakePollOptions> = {}) {
	const staticData: IDataObject = {};
	const pollItems = async () => {
		const output = await trigger.poll.call(
			fakePollFunctions({ sim, parameters, staticData, timezone: ZONE, ...extra }),
		);
		return output === null ? [] : output[0];
	};
	const poll = async () => (await pollItems()).map((item) => item.json);
	return { poll, pollItems, staticData };
}

const secondsAgo = (seconds: number) => Date.now() - seconds * 1000;

afterEach(() => jest.useRealTimers());

async function apiRows(operation: string, fields: Record<string, string>): Promise<IDataObject[]> {
	const { request } = await import('undici');
	const response = await request(`${sim.apiUrl}/${operation}`, {
		method: 'POST',
		headers: { authorization: sim.token, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields).toString(),
	});
	return ((await response.body.json()) as { data: IDataObject[] }).data;
}

describe('New Filled Form', () => {
	it('starts the Overlap Window before the activation: older fichas never come, the others once', async () => {
		const { poll } = activeTrigger(newFilledForm);
		const [old] = sim.rows.add({ report: 'getFP1', form: 41, at: secondsAgo(11 * 60) });
		const [recent] = sim.rows.add({ report: 'getFP1', form: 41, at: secondsAgo(5 * 60) });
		const first = (await poll()).map((item) => item.ficha);
		expect(first).toContain(String(recent.id));
		expect(first).not.toContain(String(old.id));

		sim.rows.add({ report: 'getFP1', form: 41, at: secondsAgo(11 * 60) });
		const [filled] = sim.rows.add({ report: 'getFP1', form: 41 });
		sim.rows.add({ report: 'getFP1', form: 42 });
		const items = await poll();
		expect(items.map((item) => item.ficha)).toEqual([String(filled.id)]);
		expect(await poll()).toEqual([]);
	});

	it('outputs each ficha as the action node does for the same report', async () => {
		const { poll } = activeTrigger(newFilledForm);
		await poll();
		const [filled] = sim.rows.add({ report: 'getFP1', form: 41 });
		const [item] = await poll();
		const day = DateTime.fromMillis(filled.at, { zone: ZONE }).toFormat('yyyyMMdd');
		const rows = await apiRows('getFP1', {
			form: '41',
			de: `${day}000000`,
			ate: `${day}235959`,
		});
		expect(item).toEqual(rows.find((row) => row.ficha === String(filled.id)));
		expect(trigger.description.properties.filter((p) => p.name === 'form')[0]).toMatchObject({
			displayName: filledForms.rowSource.properties[0].displayName,
			description: filledForms.rowSource.properties[0].description,
		});
	});

	it('emits a ficha written minutes after the time it carries, inside the overlap window, once', async () => {
		const { poll } = activeTrigger(newFilledForm);
		await poll();
		clockForwardBy(1100);
		const [onTime] = sim.rows.add({ report: 'getFP1', form: 41 });
		expect((await poll()).map((item) => item.ficha)).toEqual([String(onTime.id)]);
		// Written now, carrying a time after the activation but before the ficha already emitted.
		const [late] = sim.rows.add({ report: 'getFP1', form: 41, at: onTime.at - 1000 });
		expect((await poll()).map((item) => item.ficha)).toEqual([String(late.id)]);
		expect(await poll()).toEqual([]);
	});

	it('a failed poll throws the API error, emits nothing and moves nothing; the next poll catches up', async () => {
		const { poll, staticData } = activeTrigger(newFilledForm);
		await poll();
		const before = structuredClone(staticData);
		const [filled] = sim.rows.add({ report: 'getFP1', form: 41 });
		sim.faults.add({ kind: 'status', status: 500, operation: 'getFP1', times: 1 });
		const error = await poll().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		// Titled with the report the Event reads; the API operation in the description.
		expect((error as Error).message).toBe(
			'Filled Forms report failed (HTTP 500): Erro interno do servidor',
		);
		expect((error as NodeApiError).description).toMatch(/\(API operation: getFP1\)$/);
		expect(staticData).toEqual(before);
		expect((await poll()).map((item) => item.ficha)).toEqual([String(filled.id)]);
	});

	it('catches up from Start From, at most Max Rows per Poll each time, oldest first', async () => {
		const start = secondsAgo(30 * 3600);
		const added = sim.rows.add({
			report: 'getFP1',
			form: 43,
			count: 2500,
			at: start + 60_000,
			stepMs: 40_000,
		});
		const { poll } = activeTrigger({
			...newFilledForm,
			form: '43',
			options: { startFrom: new Date(start).toISOString(), maxRowsPerPoll: 1000 },
		});
		const batches: string[][] = [];
		for (let index = 0; index < 8; index++) {
			batches.push((await poll()).map((item) => String(item.ficha)));
		}
		// Reads are an hour at most, 24 per poll: 30 hours take two polls even when they are few.
		expect(batches.flat()).toEqual(added.map((row) => String(row.id)));
		expect(batches.every((batch) => batch.length <= 1000)).toBe(true);
		expect(batches.filter((batch) => batch.length === 1000)).toHaveLength(2);
		// 2,500 fichas over 30 hours: about 2 s alone, more on a loaded machine.
	}, 30_000);

	it('goes on where it is when the form or filters change: no backfill, nothing again', async () => {
		const parameters = { ...newFilledForm };
		const { poll } = activeTrigger(parameters);
		await poll();
		const [old] = sim.rows.add({ report: 'getFP1', form: 42, at: secondsAgo(11 * 60) });
		const [recent] = sim.rows.add({ report: 'getFP1', form: 42, at: secondsAgo(2) });
		parameters.form = '42';
		const first = (await poll()).map((item) => item.ficha);
		expect(first).toContain(String(recent.id));
		expect(first).not.toContain(String(old.id));
		const [filled] = sim.rows.add({ report: 'getFP1', form: 42 });
		expect((await poll()).map((item) => item.ficha)).toEqual([String(filled.id)]);
	});

	it('with Start From, emits the backfill once: a later filter change does not replay it, a new Start From does', async () => {
		const agent = sim.data.agents[7];
		const start = Math.floor(secondsAgo(3600) / 1000) * 1000;
		const added = sim.rows.add({
			report: 'getFP1',
			form: 43,
			agent: agent.id,
			count: 5,
			at: start + 60_000,
			stepMs: 60_000,
		});
		const ids = added.map((row) => String(row.id));
		const options: IDataObject = { startFrom: new Date(start).toISOString() };
		const parameters: IDataObject = { ...newFilledForm, form: '43', options };
		const { poll } = activeTrigger(parameters);
		expect((await poll()).map((item) => item.ficha)).toEqual(ids);
		parameters.filters = { agent: agent.login };
		expect(await poll()).toEqual([]);
		options.maxRowsPerPoll = 3;
		expect(await poll()).toEqual([]);
		options.startFrom = new Date(start + 150_000).toISOString();
		expect((await poll()).map((item) => item.ficha)).toEqual(ids.slice(2));
	});

	it.each([
		{ resultado: null, total: 0 },
		{ data: { total: 0 } },
		{ data: null },
		{ error: 0, data: [] },
		{ status: 'success', erro: '', data: [] },
	])('reads %j as no rows: no item, no failure', async (body) => {
		const { poll, staticData } = activeTrigger(newFilledForm);
		await poll();
		sim.faults.add({ kind: 'body', body, operation: 'getFP1', times: 1 });
		expect(await poll()).toEqual([]);
		expect(staticData.reportCursor).toBeDefined();
	});

	it.each([
		[{ status: 'error', message: 'Sem permissão', data: [] }, 'Sem permissão'],
		[{ error: 1, data: [] }, '1'],
		[{ success: false, data: [] }, '"success": false'],
	])('fails on %j without moving past the rows it never read', async (body, message) => {
		const { poll, staticData } = activeTrigger(newFilledForm);
		await poll();
		const before = structuredClone(staticData);
		const [filled] = sim.rows.add({ report: 'getFP1', form: 41 });
		sim.faults.add({ kind: 'body', body, operation: 'getFP1', times: 1 });
		const error = await poll().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as Error).message).toContain(message);
		expect(staticData).toEqual(before);
		// Seeded fichas dated just after the first poll may come with it on a slow run.
		expect((await poll()).map((item) => item.ficha)).toContain(String(filled.id));
	});

	it('a poll the dialer redirects to another host fails with HTTP 307 naming it, moves nothing and takes the token nowhere else', async () => {
		const { poll, staticData } = activeTrigger(newFilledForm);
		await poll();
		const before = structuredClone(staticData);
		const sentToStorage = sim.storage.requests.length;
		sim.faults.add({ kind: 'redirect', operation: 'getFP1', times: 1 });
		const error = await poll().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as Error).message).toMatch(/^Filled Forms report failed \(HTTP 307\)/);
		expect((error as NodeApiError).description).toContain(
			`redirects the API to ${sim.storage.baseUrl}`,
		);
		expect(staticData).toEqual(before);
		expect(sim.storage.requests.slice(sentToStorage)).toEqual([]);
	});

	it('keeps the report login out of what it stores', async () => {
		const credentials = { reportUser: 'gerente.geral', reportPassword: 'Gerente@2024' };
		const { poll, staticData } = activeTrigger(newFilledForm, { credentials });
		await poll();
		sim.rows.add({ report: 'getFP1', form: 41 });
		await poll();
		const stored = JSON.stringify(staticData);
		expect(stored).not.toContain('Gerente@2024');
		expect(stored).not.toContain('gerente.geral');
	});
});

describe('the other events', () => {
	it('New Classification Result: a classification written minutes after its call comes once', async () => {
		const agent = sim.data.agents[2];
		const { poll } = activeTrigger({
			event: 'newClassificationResult',
			filters: { agent: String(agent.id) },
		});
		await poll();
		clockForwardBy(1100);
		const [classified] = sim.rows.add({
			report: 'getRQ4',
			agent: agent.id,
			at: Date.now(),
			visibleAfterMs: 300,
		});
		expect(await poll()).toEqual([]);
		clockForwardBy(350);
		const items = await poll();
		expect(items.map((item) => item.protocolo)).toEqual([classified.protocolo]);
		expect(items[0].agente).toBe(agent.nome);
		expect(await poll()).toEqual([]);
	});

	it('New Classification Result with Download Recordings: each new classification comes with its recording', async () => {
		const agent = sim.data.agents[3];
		const { pollItems } = activeTrigger({
			event: 'newClassificationResult',
			filters: { agent: String(agent.id) },
			downloadRecordings: true,
			binaryPropertyName: 'recording',
			maxFileSize: 200,
		});
		await pollItems();
		const [classified] = sim.rows.add({ report: 'getRQ4', agent: agent.id, durationSeconds: 2 });
		const [item] = await pollItems();
		expect(item.json).toMatchObject({ protocolo: classified.protocolo });
		expect(item.json).not.toHaveProperty('recordingError');
		const file = sim.recordings.file(classified.protocolo!);
		expect(Buffer.from(item.binary!.recording.data, 'base64')).toEqual(file);
	});

	it('New Inbound Call: each call through the route once', async () => {
		const route = sim.data.inboundRoutes[1];
		const { poll } = activeTrigger({
			event: 'newInboundCall',
			filters: { inboundRoute: route.descricao },
		});
		await poll();
		sim.rows.add({ report: 'getRE2', route: route.id, count: 3 });
		sim.rows.add({ report: 'getRE2', route: sim.data.inboundRoutes[2].id });
		const items = await poll();
		expect(items).toHaveLength(3);
		expect(items.every((item) => item.roteamento === route.descricao)).toBe(true);
		expect(await poll()).toEqual([]);
	});

	it('New Inbound Call: two calls from a withheld number in the same second come as two items', async () => {
		const route = sim.data.inboundRoutes[3];
		const { poll } = activeTrigger({
			event: 'newInboundCall',
			filters: { inboundRoute: route.descricao },
		});
		await poll();
		sim.rows.add({ report: 'getRE2', route: route.id, caller: 'Anônimo', count: 2 });
		const items = await poll();
		expect(items.map((item) => item.origem)).toEqual(['Anônimo', 'Anônimo']);
		// A third in the same second, written later: one more item, the first two not again.
		sim.rows.add({
			report: 'getRE2',
			route: route.id,
			caller: 'Anônimo',
			at: sim.data.inboundCalls.at(-1)!.dataHora,
		});
		expect(await poll()).toHaveLength(1);
		expect(await poll()).toEqual([]);
	});

	it('New Call in History: calls of one agent in one direction, with the envelope on each item', async () => {
		const agent = sim.data.agents[5];
		const { poll } = activeTrigger({
			event: 'newCallInHistory',
			entityType: 'A',
			extensionOrAgent: agent.login,
			filters: { direction: 'R' },
		});
		await poll();
		const [received] = sim.rows.add({ report: 'getHC2', agent: agent.id, tipo: 'Recebida' });
		sim.rows.add({ report: 'getHC2', agent: agent.id, tipo: 'Gerada' });
		const items = await poll();
		expect(items.map((item) => item.protocolo)).toEqual([received.protocolo]);
		expect(items[0]).toMatchObject({ tipo: 'Recebida', ramal_agente: agent.login });
		expect(await poll()).toEqual([]);
	});

	it('New Call in History: a call without protocol whose duration comes as a number in one poll and as text in the next comes once', async () => {
		const agent = sim.data.agents[6];
		const { poll } = activeTrigger({
			event: 'newCallInHistory',
			entityType: 'A',
			extensionOrAgent: agent.login,
		});
		await poll();
		const call = {
			horario: DateTime.now().setZone(ZONE).toFormat('yyyy-MM-dd HH:mm:ss'),
			tipo: 'Recebida',
			numero: '(11) 3333-4444',
			duracao: '00:00:42',
			desligada_por: '1',
			protocolo: '',
		};
		// Every read of a poll (the clock check's too) gets the call, with its duration sent so.
		const answering = (duracao_segundos: number | string) => {
			sim.faults.clear();
			const chamadas = [{ ...call, duracao_segundos }];
			const history = { ramal_agente: agent.login, de: '', ate: '', total: 1, chamadas };
			sim.faults.add({ kind: 'body', body: { data: history }, operation: 'getHC2' });
		};
		try {
			answering(42);
			expect((await poll()).map((item) => item.duracao_segundos)).toEqual([42]);
			answering('42');
			expect(await poll()).toEqual([]);
			answering(42);
			expect(await poll()).toEqual([]);
		} finally {
			sim.faults.clear();
		}
	});
});

describe('Fetch Test Event', () => {
	it('shows the most recent rows and leaves the stored state alone', async () => {
		const staticData: IDataObject = {};
		sim.rows.add({ report: 'getFP1', form: 42, count: 12, at: secondsAgo(600), stepMs: 1000 });
		// The ten most recent fichas of the form, other tests' included, oldest of them first.
		const latest = sim.data.fichas
			.filter((ficha) => ficha.formId === 42)
			.sort((a, b) => a.data - b.data || a.id - b.id)
			.slice(-10)
			.map((ficha) => String(ficha.id));
		const output = await trigger.poll.call(
			fakePollFunctions({
				sim,
				parameters: { ...newFilledForm, form: '42' },
				mode: 'manual',
				staticData,
				timezone: ZONE,
			}),
		);
		expect(output![0].map((item) => item.json.ficha)).toEqual(latest);
		expect(staticData).toEqual({});
	});
});

describe('bad parameters', () => {
	it.each([
		[{ ...newFilledForm, form: ' ' }, /Form \(ID or Name\)/],
		[{ ...newFilledForm, options: { overlapWindow: 0 } }, /Overlap Window/],
		[{ ...newFilledForm, options: { maxRowsPerPoll: 2.5 } }, /Max Rows per Poll/],
		[{ ...newFilledForm, options: { startFrom: 'ontem' } }, /Start From/],
		[{ event: 'newCallInHistory', entityType: 'X', extensionOrAgent: '1001' }, /History Of/],
	])('%j fails before any request, naming the parameter', async (parameters, message) => {
		sim.clearRequests();
		const error = await trigger.poll
			.call(fakePollFunctions({ sim, parameters, timezone: ZONE }))
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(message);
		expect(sim.requests).toHaveLength(0);
	});
});
