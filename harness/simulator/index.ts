/**
 * Dialer simulator: the contract's API on a local HTTP(S) server, seeded with deterministic
 * Brazilian call-center data, plus webhook delivery, a scripted shift and fault injection.
 * Written from the contract alone: it is the oracle the n8n nodes are checked against.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AgentStates } from './agent-states';
import { RowArrivals } from './arrivals';
import { handleControl, type ControlTarget } from './control';
import { FaultInjector } from './faults';
import { ReplayedAnswers } from './http/replay';
import { createRequestListener } from './http/server';
import { ReportListing } from './listing';
import type { OperationContext } from './operations/context';
import { Random } from './random';
import { hasRecording, recordingFile, startStorage, type RecordingLinks } from './recordings';
import { seedData } from './seed';
import { ScriptedShift } from './shift';
import { WallClock } from './time';
import { selfSignedCertificate } from './tls';
import type { DialerSimulator, RecordedRequest, SimulatorOptions } from './types';
import { WebhookHub, contractTimeoutMs } from './webhooks';

export type * from './types';
export type * from './model';

const loopbackHosts = ['127.0.0.1', 'localhost', '::1'];

export async function startSimulator(options: SimulatorOptions = {}): Promise<DialerSimulator> {
	const host = options.host ?? '127.0.0.1';
	if (!loopbackHosts.includes(host))
		throw new Error(`The simulator only listens on loopback, not ${host}`);
	const pathSegment = options.pathSegment ?? 'ipbox';
	if (!/^[\w.-]+$/.test(pathSegment)) throw new Error(`Invalid path segment: ${pathSegment}`);
	const token = options.token ?? 'sim-token-0123456789';
	const seed = options.seed ?? 1;
	const clock = new WallClock(options.timezone);

	const data = seedData({
		clock,
		seed,
		fichas: options.fichas ?? 300,
		calls: options.calls ?? 300,
		referenceDate: options.referenceDate ?? new Date(),
	});
	const random = new Random(seed ^ 0x5417);
	const hub = new WebhookHub(options.webhookTimeoutMs ?? contractTimeoutMs);
	const states = new AgentStates(data, random);
	const shift = new ScriptedShift(data, states, hub, random);
	const faults = new FaultInjector();
	const listing = new ReportListing(
		options.rowOrder ?? 'written',
		options.lateWritesMs ?? 0,
		seed,
		options.fichaSaves ?? 'fixed',
	);
	const arrivals = new RowArrivals(data, new Random(seed ^ 0x7a11), clock, listing);
	const requests: RecordedRequest[] = [];
	const urls = { baseUrl: '', apiUrl: '' };
	const storage = await startStorage(data, host);
	const recordings = { links: options.recordingLinks ?? ('absolute' as RecordingLinks) };
	const recordingPath = (uid: string) => `/gravacoes/${encodeURIComponent(uid)}.wav`;

	const context: OperationContext = {
		data,
		clock,
		envelope: options.envelope ?? 'data',
		idsAsStrings: options.idsAsStrings ?? false,
		permissionMode: options.permissionMode ?? 'off',
		reportQuirks: {},
		listing,
		states,
		publish: (event) => void hub.emit(event),
		recordingUrl: (uid) => {
			if (recordings.links === 'storage') return `${storage.baseUrl}${recordingPath(uid)}`;
			const path = `/${pathSegment}${recordingPath(uid)}`;
			return recordings.links === 'relative' ? path : `${urls.baseUrl}${path}`;
		},
	};
	const control: ControlTarget = {
		urls,
		pathSegment,
		data,
		requests,
		faults,
		hub,
		shift,
		states,
		arrivals,
		recordings,
		reportQuirks: context.reportQuirks,
	};
	const replay = new ReplayedAnswers();
	const listener = createRequestListener({
		pathSegment,
		token,
		faults,
		requests,
		context,
		recordings: { data, token, faults, storageBaseUrl: () => storage.baseUrl },
		replay,
		control: (method, path, body) => handleControl(control, method, path, body),
	});
	const tls = options.tls ? await selfSignedCertificate() : undefined;
	const server: Server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	const hostInUrl = host.includes(':') ? `[${host}]` : host;
	urls.baseUrl = `${options.tls ? 'https' : 'http'}://${hostInUrl}:${port}`;
	urls.apiUrl = `${urls.baseUrl}/${pathSegment}/api`;

	let closing: Promise<void> | undefined;
	const close = async () => {
		await shift.stop();
		await hub.close();
		await storage.close();
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	};

	return {
		baseUrl: urls.baseUrl,
		apiUrl: urls.apiUrl,
		pathSegment,
		token,
		certificate: tls?.cert,
		data,
		requests,
		clearRequests: () => void requests.splice(0),
		faults: { add: (fault) => faults.add(fault), clear: () => faults.clear() },
		rows: { add: (arrival) => arrivals.add(arrival) },
		reports: { quirks: context.reportQuirks },
		replay,
		webhooks: {
			register: (receiver) => hub.register(receiver),
			unregister: (id) => void hub.unregister(id),
			clear: () => hub.clear(),
			emit: (event) => hub.emit(event),
			deliveries: hub.deliveries,
			settled: () => hub.settled(),
		},
		shift: {
			start: (shiftOptions) => shift.start(shiftOptions),
			stop: () => shift.stop(),
			get running() {
				return shift.running;
			},
			events: shift.events,
		},
		recordings: {
			get links() {
				return recordings.links;
			},
			set links(links: RecordingLinks) {
				recordings.links = links;
			},
			file: (reference) => {
				const call = data.calls.find(
					(candidate) => candidate.protocolo === reference || candidate.uid === reference,
				);
				return call && hasRecording(call) ? recordingFile(call) : undefined;
			},
		},
		storage: { baseUrl: storage.baseUrl, requests: storage.requests },
		close: () => (closing ??= close()),
	};
}
