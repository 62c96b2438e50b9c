/** The control API under /__simulator/: JSON in and out, no token (a loopback test tool). */
import type { AgentStates } from './agent-states';
import type { RowArrivals } from './arrivals';
import { emitBurst, type BurstRequest } from './bursts';
import type { FaultInjector } from './faults';
import { errorReply, jsonReply, type Reply } from './http/replies';
import type { SeededData } from './model';
import type { RecordingLinks } from './recordings';
import type { ScriptedShift } from './shift';
import type {
	ReportQuirks,
	AgentEvent,
	Fault,
	RecordedRequest,
	RowArrival,
	ShiftOptions,
	WebhookReceiver,
} from './types';
import type { WebhookHub } from './webhooks';

export interface ControlTarget {
	/** Filled in once the server listens. */
	urls: { baseUrl: string; apiUrl: string };
	pathSegment: string;
	data: SeededData;
	requests: RecordedRequest[];
	faults: FaultInjector;
	hub: WebhookHub;
	shift: ScriptedShift;
	states: AgentStates;
	arrivals: RowArrivals;
	recordings: { links: RecordingLinks };
	reportQuirks: ReportQuirks;
}

const recordingLinks: readonly RecordingLinks[] = ['absolute', 'relative', 'storage'];

type Route = (
	target: ControlTarget,
	body: unknown,
	id: string | undefined,
) => Reply | Promise<Reply>;

const routes: Record<string, Route> = {
	'GET health': (target) =>
		jsonReply({ status: 'ok', ...target.urls, pathSegment: target.pathSegment }),
	'GET requests': (target) => jsonReply({ requests: target.requests }),
	'DELETE requests': (target) => jsonReply({ cleared: target.requests.splice(0).length }),
	'POST faults': (target, body) => {
		for (const fault of Array.isArray(body) ? body : [body]) target.faults.add(fault as Fault);
		return jsonReply({ active: target.faults.count });
	},
	'DELETE faults': (target) => {
		target.faults.clear();
		return jsonReply({ active: 0 });
	},
	'POST webhooks': (target, body) =>
		jsonReply({ id: target.hub.register(body as WebhookReceiver) }),
	'DELETE webhooks': (target, _body, id) => {
		if (id === undefined) {
			target.hub.clear();
			return jsonReply({ receivers: 0 });
		}
		return target.hub.unregister(id)
			? jsonReply({ receivers: target.hub.receiverCount })
			: errorReply(`Unknown webhook: ${id}`, 404);
	},
	'GET deliveries': (target) => jsonReply({ deliveries: target.hub.deliveries }),
	'DELETE deliveries': (target) => jsonReply({ cleared: target.hub.deliveries.splice(0).length }),
	'POST events': async (target, body) => {
		if (isEvent(body)) return jsonReply({ deliveries: await target.hub.emit(body) });
		return jsonReply(await emitBurst(target.hub, target.states, target.data, body as BurstRequest));
	},
	'POST shift/start': (target, body) => {
		target.shift.start(body as ShiftOptions);
		return jsonReply({ running: true });
	},
	'POST shift/stop': async (target) => {
		await target.shift.stop();
		return jsonReply({ running: false, events: target.shift.events.length });
	},
	'POST rows': (target, body) =>
		jsonReply({
			rows: (Array.isArray(body) ? body : [body]).flatMap((arrival) =>
				target.arrivals.add(arrival as RowArrival),
			),
		}),
	'POST recordings': (target, body) => {
		const { links } = body as { links?: RecordingLinks };
		if (links === undefined || !recordingLinks.includes(links))
			throw new Error(`"links" must be one of ${recordingLinks.join(', ')}`);
		target.recordings.links = links;
		return jsonReply({ links });
	},
	'POST quirks': (target, body) => {
		Object.assign(target.reportQuirks, body as ReportQuirks);
		return jsonReply({ quirks: target.reportQuirks });
	},
	'GET state': (target) => jsonReply(summarizeState(target)),
};

function isEvent(body: unknown): body is AgentEvent {
	return (
		typeof body === 'object' && body !== null && typeof (body as AgentEvent).evento === 'string'
	);
}

function summarizeState({ data, hub, shift, requests, faults }: ControlTarget) {
	const counts = Object.fromEntries(
		Object.entries(data)
			.filter(([, value]) => Array.isArray(value))
			.map(([key, value]) => [key, (value as unknown[]).length]),
	);
	return {
		referenceDay: data.referenceDay,
		counts,
		agents: data.agents.map((agent) => ({
			id: agent.id,
			login: agent.login,
			estado: agent.estado,
			ramal: agent.ramal,
			pausa_id: agent.pausaId,
			em_chamada: Boolean(agent.callUid),
		})),
		shift: { running: shift.running, events: shift.events.length },
		webhooks: { receivers: hub.receiverCount, deliveries: hub.deliveries.length },
		requests: requests.length,
		faults: faults.count,
	};
}

export async function handleControl(
	target: ControlTarget,
	method: string,
	path: string,
	text: string,
): Promise<Reply> {
	// "webhooks/<id>" carries an id; every other route is a fixed name.
	const [, , name, ...rest] = path.split('/');
	const routeName = name === 'shift' ? `shift/${rest.join('/')}` : name;
	const id =
		name === 'webhooks' && rest.length > 0 ? decodeURIComponent(rest.join('/')) : undefined;
	const route = routes[`${method} ${routeName}`];
	if (!route) return errorReply(`Unknown control route: ${method} ${path}`, 404);
	let body: unknown;
	try {
		body = text ? JSON.parse(text) : {};
	} catch {
		return errorReply('Body must be JSON', 400);
	}
	try {
		return await route(target, body, id);
	} catch (error) {
		return errorReply((error as Error).message, 400);
	}
}
