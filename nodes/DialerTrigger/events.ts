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

/**
 * The four fields every delivery carries, plus whatever else the server sent. After
 * `checkPayload` every number the contract defines for the event is a number, even when the
 * dialer sent it as text.
 */
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

/**
 * A number sent as a JSON number or as text ("42", " 42 ", "-30", "1.5"): public clients of the
 * API see the same field either way. Anything else (words, "4 2", "1e3", true) is undefined.
 */
function readNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || !/^\s*[+-]?\d+(\.\d+)?\s*$/.test(value)) return undefined;
	return Number(value);
}

function isNonNegativeInteger(value: number | undefined): value is number {
	return value !== undefined && Number.isSafeInteger(value) && value >= 0;
}

const WHOLE_SECONDS = 'a Unix time in whole seconds';

// Year 5138 in seconds, 1973 in milliseconds: a larger time is a dialer sending milliseconds, up
// to year 5138 in milliseconds.
const FIRST_MILLISECOND_TIME = 100_000_000_000;
const LAST_MILLISECOND_TIME = 100_000_000_000_000;

function isUnixSeconds(value: number | undefined): value is number {
	return isNonNegativeInteger(value) && value < FIRST_MILLISECOND_TIME;
}

/** Why a time is not the contract's Unix seconds, naming the field. */
function timeProblem(field: string, value: number | undefined): string {
	if (
		isNonNegativeInteger(value) &&
		value >= FIRST_MILLISECOND_TIME &&
		value < LAST_MILLISECOND_TIME
	)
		return (
			`"${field}" is ${value}, which reads as Unix milliseconds: the dialer must send Unix ` +
			'seconds (10 digits)'
		);
	return `"${field}" must be ${WHOLE_SECONDS} (a number or digits)`;
}

/** Absent, null or blank: a server that leaves out an optional field sends one of these. */
function isAbsent(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** The numbers each event adds (contract, Event catalogue), and what each must be. */
const EXTRA_NUMBERS: Record<string, Record<string, string>> = {
	'agente.pause_in': { udate: WHOLE_SECONDS, durmax: 'seconds', durmin: 'seconds' },
	'agente.busy': { udate: WHOLE_SECONDS },
};

/**
 * A pause ID is an ID the contract gives no type: digits become a number (as when sent as one),
 * any other text is kept as sent; it is never a reason to refuse an event.
 */
function readPauseId(value: unknown): unknown {
	if (typeof value !== 'string' || !/^\s*(0|[1-9]\d*)\s*$/.test(value)) return value;
	const id = Number(value);
	return Number.isSafeInteger(id) ? id : value;
}

/**
 * Checks the fields every event must carry, as the contract types them, and the numbers the
 * event adds; numbers sent as text become numbers. Only the four fields are required: extra
 * fields are passed through, so a server that adds fields, or omits an optional one, never
 * breaks a workflow. A number that cannot be read is refused, naming the field: the dialer
 * never retries, so this only happens for a delivery that is wrong as sent.
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
	const t = readNumber(body.t);
	if (!isUnixSeconds(t)) return { valid: false, reason: timeProblem('t', t) };
	const agentId = readNumber(body.usuario_id);
	if (!isNonNegativeInteger(agentId)) {
		return { valid: false, reason: '"usuario_id" must be an agent ID (a number or digits)' };
	}
	const payload: AgentEventPayload = {
		...body,
		evento: body.evento,
		estado: body.estado,
		t,
		usuario_id: agentId,
	};
	for (const [field, meaning] of Object.entries(EXTRA_NUMBERS[body.evento] ?? {})) {
		if (isAbsent(body[field])) continue;
		const value = readNumber(body[field]);
		if (meaning === WHOLE_SECONDS && !isUnixSeconds(value))
			return { valid: false, reason: timeProblem(field, value) };
		if (value === undefined)
			return { valid: false, reason: `"${field}" must be ${meaning} (a number or digits)` };
		payload[field] = value;
	}
	if (body.evento === 'agente.pause_in' && 'pausa_id' in body) {
		payload.pausa_id = readPauseId(body.pausa_id) as IDataObject[string];
	}
	return { valid: true, payload };
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
