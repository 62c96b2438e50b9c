/**
 * Call recordings as files in a real n8n against the simulator: through Get Classification
 * Results, Recording → Download and the Report Trigger; absolute, relative and storage links;
 * rows without a recording; a missing file and a login page with and without continue on fail;
 * the token never reaching the storage origin, directly or through a redirect; and the bytes n8n
 * stored hashed by n8n's own Crypto node against the simulator's file.
 */
import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';

import type { NodeSpec, WorkflowNode } from '../../harness/n8n/api';
import type { ArrivedRow } from '../../harness/simulator/types';
import { DialerRunner, type Json } from './support/dialerRunner';
import { reportTriggerNode, REPORT_TRIGGER, fetchTestEvent } from './support/reportTrigger';

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const FIELD = 'data';

let dialer: DialerRunner;
// Three workflow runs in the longest test: seconds on n8n 2.x, more on a loaded 1.x.
jest.setTimeout(60_000);

beforeAll(async () => {
	dialer = await DialerRunner.start({ simulator: { calls: 40, fichas: 10 }, timezone: ZONE });
});
afterAll(() => dialer?.close());

/** The stored file's name, type and SHA-256, read back by n8n's own nodes. */
const describeFile: NodeSpec[] = [
	{
		name: 'File Facts',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			includeOtherFields: true,
			assignments: {
				assignments: [
					{
						id: 'n',
						name: 'fileName',
						type: 'string',
						value: `={{ $binary.${FIELD}?.fileName ?? "" }}`,
					},
					{
						id: 'm',
						name: 'mimeType',
						type: 'string',
						value: `={{ $binary.${FIELD}?.mimeType ?? "" }}`,
					},
				],
			},
			options: {},
		},
	},
	{
		name: 'Hash',
		type: 'n8n-nodes-base.crypto',
		typeVersion: 1,
		parameters: {
			action: 'hash',
			type: 'SHA256',
			binaryData: `={{ $binary.${FIELD} !== undefined }}`,
			binaryPropertyName: FIELD,
			// Hashed instead for items without a file.
			value: 'no file',
			dataPropertyName: 'sha256',
			encoding: 'hex',
		},
	},
];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const fileHash = (protocolo: unknown) => sha256(dialer.sim.recordings.file(String(protocolo))!);

// Seeded calls lie between 08:00 and 20:00: each test's calls get a minute of their own at night.
let minute = 0;
function callsAtNight(recorded: boolean[]): { calls: ArrivedRow[]; period: Json } {
	const start = DateTime.now()
		.setZone(ZONE)
		.minus({ days: 2 })
		.startOf('day')
		.plus({ hours: 3, minutes: minute++ });
	const calls = recorded.map(
		(isRecorded, index) =>
			dialer.sim.rows.add({
				report: 'getRQ4',
				at: start.plus({ seconds: index }).toMillis(),
				durationSeconds: 2 + index,
				recorded: isRecorded,
			})[0],
	);
	const format = "yyyy-MM-dd'T'HH:mm:ss";
	return {
		calls,
		period: {
			period: 'custom',
			start: start.toFormat(format),
			end: start.plus({ seconds: 59 }).toFormat(format),
		},
	};
}

const report = (period: Json) => ({
	resource: 'report',
	operation: 'getClassificationResults',
	...period,
	returnAll: true,
	filters: {},
	downloadRecordings: true,
	binaryPropertyName: FIELD,
	options: { parallelRequests: 3 },
});

const byProtocol = (items: Json[]) =>
	[...items].sort((a, b) => String(a.protocolo).localeCompare(String(b.protocolo)));

const recordingRequests = () =>
	dialer.sim.requests.filter((request) => request.operation === 'recording');

/** Each recorded call downloaded with the simulator's bytes, the unrecorded one marked. */
function expectRecordings(items: Json[], calls: ArrivedRow[], recorded: boolean[]) {
	expect(byProtocol(items).map((item) => item.protocolo)).toEqual(calls.map((c) => c.protocolo));
	byProtocol(items).forEach((item, index) => {
		if (!recorded[index]) {
			expect(item).toMatchObject({ arquivo: '', recordingStatus: 'no recording', fileName: '' });
			return;
		}
		expect(item).toMatchObject({
			recordingStatus: 'downloaded',
			mimeType: 'audio/wav',
			sha256: fileHash(item.protocolo),
		});
	});
}

it('Get Classification Results stores each recording by absolute, relative and storage link; the storage never sees the token', async () => {
	const recorded = [true, false, true, true];
	const { calls, period } = callsAtNight(recorded);
	for (const links of ['absolute', 'relative', 'storage'] as const) {
		dialer.sim.recordings.links = links;
		const storageBefore = dialer.sim.storage.requests.length;
		const { status, items } = await dialer.run(report(period), { after: describeFile });
		expect(status).toBe(200);
		expectRecordings(items, calls, recorded);
		const fromStorage = dialer.sim.storage.requests.slice(storageBefore);
		if (links === 'storage') {
			expect(items[0].arquivo).toMatch(new RegExp(`^${dialer.sim.storage.baseUrl}/`));
			expect(fromStorage).toHaveLength(3);
			expect(fromStorage.every((request) => !request.authorization)).toBe(true);
			expect(byProtocol(items)[0].fileName).toMatch(/^[^/]+\.wav$/);
		} else {
			expect(String(items[0].arquivo).startsWith('/')).toBe(links === 'relative');
			expect(recordingRequests()).toHaveLength(3);
			expect(recordingRequests().every((r) => r.headers.authorization === dialer.token)).toBe(true);
			expect(byProtocol(items)[0].fileName).toBe(`gravacao-${calls[0].protocolo}.wav`);
		}
	}
	dialer.sim.recordings.links = 'absolute';
});

it('a redirect from the dialer to the storage origin arrives there without the token', async () => {
	const { calls, period } = callsAtNight([true, true]);
	const target = calls[1].protocolo!;
	dialer.sim.faults.add({ operation: 'recording', kind: 'redirect', recording: target });
	const storageBefore = dialer.sim.storage.requests.length;
	const { items } = await dialer.run(report(period), { after: describeFile });
	dialer.sim.faults.clear();
	expectRecordings(items, calls, [true, true]);
	const redirected = dialer.sim.storage.requests.slice(storageBefore);
	expect(redirected).toHaveLength(1);
	expect(redirected[0].authorization).toBe(false);
	expect(recordingRequests().find((r) => r.status === 302)?.headers.authorization).toBe(
		dialer.token,
	);
});

it('a recording sent gzip-compressed, or typed text/html by a script, is stored as the file itself', async () => {
	const { calls, period } = callsAtNight([true, true]);
	const [compressed, untyped] = calls.map((call) => call.protocolo!);
	dialer.sim.faults.add({ operation: 'recording', kind: 'compressed', recording: compressed });
	dialer.sim.faults.add({ operation: 'recording', kind: 'untyped', recording: untyped });
	const { status, items } = await dialer.run(report(period), { after: describeFile });
	dialer.sim.faults.clear();
	expect(status).toBe(200);
	expectRecordings(items, calls, [true, true]);
	expect(byProtocol(items)[1].fileName).toMatch(/^[^/]+\.wav$/);
});

describe('a missing file and a login page with 200', () => {
	let calls: ArrivedRow[];
	let period: Json;
	beforeAll(() => {
		({ calls, period } = callsAtNight([true, true, true]));
	});
	beforeEach(() => {
		const [missing, login] = calls.map((call) => call.protocolo!);
		dialer.sim.faults.add({ operation: 'recording', kind: 'missing', recording: missing });
		dialer.sim.faults.add({ operation: 'recording', kind: 'loginPage', recording: login });
	});
	afterEach(() => dialer.sim.faults.clear());

	it('fail the run, naming the call and the link', async () => {
		const { status, error } = await dialer.run({
			...report(period),
			options: { parallelRequests: 1 },
		});
		expect(status).toBeGreaterThanOrEqual(500);
		expect(error).toContain(`Could not download the recording of call ${calls[0].protocolo} from`);
		expect(error).toMatch(/gravacoes\/[^"?]+\.wav \(HTTP 404\): 404 Not Found/);
	});

	it('with continue on fail: each says what came, every other row keeps its recording', async () => {
		const { status, items } = await dialer.run(report(period), {
			continueOnFail: true,
			after: describeFile,
		});
		expect(status).toBe(200);
		const [missing, login, fine] = byProtocol(items);
		expect(missing).toMatchObject({ recordingStatus: 'failed', fileName: '' });
		expect(missing.recordingError).toMatch(/\(HTTP 404\): 404 Not Found/);
		expect(login.recordingError).toMatch(
			/\(HTTP 200\): received text\/html instead of a file: .*Senha/,
		);
		expect(fine).toMatchObject({ recordingStatus: 'downloaded', sha256: fileHash(fine.protocolo) });
	});
});

it('Recording → Download takes relative and absolute links from input items', async () => {
	const { calls } = callsAtNight([true, true]);
	const uidOf = (call: ArrivedRow) => dialer.sim.data.calls[call.id - 1].uid;
	const path = (call: ArrivedRow) => `/ipbox/gravacoes/${encodeURIComponent(uidOf(call))}.wav`;
	const inputs = [
		{ protocolo: calls[0].protocolo, arquivo: path(calls[0]) },
		{ protocolo: calls[1].protocolo, arquivo: `${dialer.sim.baseUrl}${path(calls[1])}` },
		{ protocolo: 'P-MISSING', arquivo: '/ipbox/gravacoes/nao-existe.wav?sessao=abc' },
	];
	const { items } = await dialer.run(
		{
			resource: 'recording',
			operation: 'download',
			link: '={{ $json.arquivo }}',
			binaryPropertyName: FIELD,
			options: { parallelRequests: 2 },
		},
		{ items: inputs, continueOnFail: true, after: describeFile },
	);
	expect(items.slice(0, 2)).toEqual([
		expect.objectContaining({ sha256: fileHash(calls[0].protocolo), mimeType: 'audio/wav' }),
		expect.objectContaining({ sha256: fileHash(calls[1].protocolo), mimeType: 'audio/wav' }),
	]);
	expect(items[2].error).toContain(
		`Could not download the recording of call P-MISSING from ${dialer.sim.baseUrl}` +
			'/ipbox/gravacoes/nao-existe.wav (HTTP 404): 404 Not Found',
	);
	expect(JSON.stringify(items[2])).not.toContain('sessao');
});

it('Recording → Download with continue on fail: a stalled body stops at Timeout, a file above Max File Size is refused, the others keep theirs, in order', async () => {
	const at = DateTime.now().minus({ days: 3 }).toMillis();
	const [stalled, large, fine, alsoFine] = [3, 70, 2, 4].map(
		(durationSeconds, index) =>
			dialer.sim.rows.add({
				report: 'getRQ4',
				at: at + index * 1000,
				durationSeconds,
				recorded: true,
			})[0],
	);
	dialer.sim.faults.add({
		operation: 'recording',
		kind: 'slowBody',
		recording: stalled.protocolo,
		bytesPerSecond: 1,
	});
	const uidOf = (call: ArrivedRow) => dialer.sim.data.calls[call.id - 1].uid;
	const inputs = [stalled, large, fine, alsoFine].map((call) => ({
		protocolo: call.protocolo,
		arquivo: `/ipbox/gravacoes/${encodeURIComponent(uidOf(call))}.wav`,
	}));
	const { items } = await dialer.run(
		{
			resource: 'recording',
			operation: 'download',
			link: '={{ $json.arquivo }}',
			binaryPropertyName: FIELD,
			maxFileSize: 1,
			// Roomy enough for a small file on a loaded CI machine; the stalled body still needs hours.
			options: { parallelRequests: 2, timeout: 6000 },
		},
		{ items: inputs, continueOnFail: true, after: describeFile },
	);
	dialer.sim.faults.clear();
	expect(items).toHaveLength(4);
	expect(items[0].error).toMatch(
		new RegExp(`recording of call ${stalled.protocolo} .*: no answer in time`),
	);
	expect(items[1].error).toMatch(/the file is 1\.1 MB, above the size limit/);
	expect(items.slice(2)).toEqual([
		expect.objectContaining({ protocolo: fine.protocolo, sha256: fileHash(fine.protocolo) }),
		expect.objectContaining({
			protocolo: alsoFine.protocolo,
			sha256: fileHash(alsoFine.protocolo),
		}),
	]);
});

it('the Report Trigger hands each new call over with its recording, and never stops on one', async () => {
	const now = Date.now();
	const calls = [true, false, true].map(
		(recorded, index) =>
			dialer.sim.rows.add({
				report: 'getRQ4',
				at: now - 600_000 + index * 1000,
				durationSeconds: 3,
				recorded,
			})[0],
	);
	dialer.sim.faults.add({ operation: 'recording', kind: 'missing', recording: calls[2].protocolo });
	const [setNode, hashNode] = describeFile.map(
		(node, index): WorkflowNode => ({ ...node, position: [300 * (index + 1), 0] }) as WorkflowNode,
	);
	const workflow = await dialer.api.createWorkflow({
		name: 'e2e recordings from the Report Trigger',
		nodes: [
			reportTriggerNode(
				{
					event: 'newClassificationResult',
					filters: {},
					downloadRecordings: true,
					binaryPropertyName: FIELD,
				},
				{ id: dialer.credential.id, name: dialer.credential.name },
			),
			setNode,
			hashNode,
		],
		connections: {
			[REPORT_TRIGGER]: { main: [[{ node: setNode.name, type: 'main', index: 0 }]] },
			[setNode.name]: { main: [[{ node: hashNode.name, type: 'main', index: 0 }]] },
		},
		settings: { timezone: ZONE, saveManualExecutions: true, saveDataSuccessExecution: 'all' },
	});
	const execution = await fetchTestEvent(dialer.api, workflow.id);
	dialer.sim.faults.clear();
	expect(execution.status).toBe('success');
	const runData = (execution.data as { resultData: { runData: Record<string, unknown> } })
		.resultData.runData as Record<string, Array<{ data: { main: Array<Array<{ json: Json }>> } }>>;
	const items = runData[hashNode.name][0].data.main[0].map((item) => item.json);
	const [first, unrecorded, missing] = byProtocol(
		items.filter((item) => calls.some((call) => call.protocolo === item.protocolo)),
	);
	expect(first).toMatchObject({ recordingStatus: 'downloaded', sha256: fileHash(first.protocolo) });
	expect(unrecorded).toMatchObject({ recordingStatus: 'no recording' });
	expect(missing.recordingStatus).toBe('failed');
	expect(missing.recordingError).toContain(`recording of call ${calls[2].protocolo}`);
	expect(missing.arquivo).not.toBe('');
});
