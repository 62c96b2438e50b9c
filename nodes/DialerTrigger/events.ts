import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

/** The agent events the dialer sends; `value` is the payload's `evento` code. */
export const AGENT_EVENTS = [
	{
		name: 'Agent Logged In',
		value: 'agente.login',
		description: 'An agent logged in to the dialer',
	},
	{
		name: 'Agent Logged Out',
		value: 'agente.logout',
		description: 'An agent logged out of the dialer',
	},
	{
		name: 'Agent Paused',
		value: 'agente.pause_in',
		description:
			'An agent entered a pause; carries the pause ID, its start, its duration limits and when ' +
			'the pause reaches them',
	},
	{
		name: 'Agent Resumed From Pause',
		value: 'agente.pause_out',
		description:
			'An agent left a pause; the state is online, or busy if a call was already in progress',
	},
	{
		name: 'Agent Busy',
		value: 'agente.busy',
		description: 'An agent entered a call; carries the time the call started',
	},
	{
		name: 'Agent Phone Ringing',
		value: 'agente.ringing',
		description: "A call is ringing on the agent's phone",
	},
	{
		name: 'Agent Available',
		value: 'agente.online',
		description: 'A call ended and the agent is available again',
	},
] as const satisfies readonly INodePropertyOptions[];

export type AgentEventCode = (typeof AGENT_EVENTS)[number]['value'];

const KNOWN_EVENT_CODES: ReadonlySet<string> = new Set(AGENT_EVENTS.map((event) => event.value));

export function isKnownEventCode(code: string): code is AgentEventCode {
	return KNOWN_EVENT_CODES.has(code);
}

/** The four fields every delivery carries, plus whatever else the server sent. */
export interface AgentEventPayload extends IDataObject {
	evento: string;
	estado: string;
	t: number;
	usuario_id: number;
}

export type PayloadCheck =
	{ valid: true; payload: AgentEventPayload } | { valid: false; reason: string };

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

function isNonNegativeInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Checks the fields every event must carry, as the contract types them. Only these four are
 * required: extra fields are passed through untouched, so a server that adds fields, or
 * omits an optional one, never breaks a workflow.
 */
export function checkPayload(body: unknown): PayloadCheck {
	if (!isPlainObject(body)) {
		return { valid: false, reason: 'body must be a JSON object' };
	}
	if (!isNonEmptyString(body.evento)) {
		return { valid: false, reason: '"evento" must be a non-empty string' };
	}
	if (!isNonEmptyString(body.estado)) {
		return { valid: false, reason: '"estado" must be a non-empty string' };
	}
	if (!isNonNegativeInteger(body.t)) {
		return { valid: false, reason: '"t" must be a Unix time in whole seconds' };
	}
	if (!isNonNegativeInteger(body.usuario_id)) {
		return { valid: false, reason: '"usuario_id" must be an integer agent ID' };
	}
	return { valid: true, payload: body as AgentEventPayload };
}

/**
 * Parses the "Agent IDs" option ("12, 34"). An empty value means every agent. Throws a
 * message naming the offending entry, so the user knows what to fix.
 */
export function parseAgentIds(text: string): ReadonlySet<number> | undefined {
	const entries = text
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	if (entries.length === 0) return undefined;
	const ids = new Set<number>();
	for (const entry of entries) {
		if (!/^\d+$/.test(entry) || !Number.isSafeInteger(Number(entry))) {
			throw new Error(
				`"${entry}" is not an agent ID: use whole numbers separated by commas, e.g. 12, 34`,
			);
		}
		ids.add(Number(entry));
	}
	return ids;
}
