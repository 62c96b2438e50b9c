import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiOperation } from './operations';
import { withoutCutSecret } from './secrets';

export interface ApiFailure {
	operation: ApiOperation;
	status?: number;
	problem: string;
	hint: string;
	itemIndex?: number;
}

export function apiError(node: INode, failure: ApiFailure): NodeApiError {
	const status = statusPart(failure.status);
	const message = `Dialer ${failure.operation} failed${status}: ${failure.problem}`;
	return nodeApiError(node, message, failure, { operation: failure.operation });
}

/** A file the dialer links to that could not be downloaded. */
export interface FileFailure {
	/** What the file is: "the recording of call 2026112400001". */
	subject: string;
	/** Without query string or fragment. */
	link: string;
	status?: number;
	problem: string;
	hint: string;
	itemIndex?: number;
}

export function fileError(node: INode, failure: FileFailure): NodeApiError {
	const message =
		`Could not download ${failure.subject} from ${failure.link}` +
		`${statusPart(failure.status)}: ${failure.problem}`;
	return nodeApiError(node, message, failure, { link: failure.link });
}

const statusPart = (status?: number) => (status === undefined ? '' : ` (HTTP ${status})`);

function nodeApiError(
	node: INode,
	message: string,
	failure: Pick<ApiFailure, 'status' | 'hint' | 'itemIndex'>,
	about: JsonObject,
): NodeApiError {
	const httpCode = failure.status === undefined ? undefined : String(failure.status);
	// A plain, hand-built response object: never the HTTP client's error, which carries request
	// headers.
	const response: JsonObject = { message, ...about };
	if (httpCode !== undefined) response.httpCode = httpCode;
	return new NodeApiError(node, response, {
		message,
		description: failure.hint,
		httpCode,
		itemIndex: failure.itemIndex,
	});
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The dialer rejected the request fields. Check the parameters of this operation.',
	401:
		'The dialer rejected the token. Copy it again from the console (API > Token) and check the ' +
		'header style in the credential.',
	403:
		'The token is not allowed to use this operation. Check its permissions in the dialer ' +
		'console.',
	404:
		'No dialer API at this address. Check the base URL (with its port) and the path segment ' +
		'in the credential.',
	405:
		'The server at this address is not a dialer API. Check the base URL and the path segment ' +
		'in the credential.',
	429: 'The dialer is limiting requests. Retry later or lower the number of items per run.',
};

export function hintForStatus(status: number): string {
	if (STATUS_HINTS[status]) return STATUS_HINTS[status];
	if (status >= 500) {
		return (
			'The dialer had an internal problem. Retry later; if it persists, contact the dialer ' +
			'administrator.'
		);
	}
	return 'The dialer did not accept the request. Check the parameters and the credential.';
}

/** A 3xx to the API: followed, it would take the token to wherever it points. */
export function hintForRedirect(
	status: number,
	location: string,
	requested: string,
): string | undefined {
	if (status < 300 || status > 399 || location.trim() === '') return undefined;
	let target: URL;
	try {
		target = new URL(location, requested);
	} catch {
		return undefined;
	}
	if (target.origin === new URL(requested).origin) {
		return "The dialer redirects the API to another path. Check the credential's path segment.";
	}
	return (
		`The dialer redirects the API to ${target.origin}, where the token is not sent. If the ` +
		"dialer answers there, put that address in the credential's Base URL."
	);
}

export const TIMED_OUT = 'no answer in time';
export const UNTRUSTED_CERTIFICATE = 'TLS certificate not trusted';

/**
 * Each network failure with what to check; `at` names where the credential's Base URL points
 * ("http://10.0.0.5:8607, the credential's Base URL"), since a wrong host, port or scheme there
 * is the usual cause.
 */
const NETWORK_HINTS: Array<[RegExp, string, (at: string) => string]> = [
	[
		/ECONNREFUSED/,
		'connection refused',
		(at) =>
			`Nothing accepts connections at ${at}. Check the host and the port (each tenant may ` +
			'have its own), whether the dialer expects https:// or http://, and that the dialer is ' +
			'running and a firewall lets n8n in.',
	],
	[
		/ENOTFOUND|EAI_AGAIN/,
		'host not found',
		(at) =>
			`The host name of ${at} does not resolve from n8n's machine. Check its spelling and the ` +
			"DNS (or VPN) n8n's machine uses; use the dialer's IP address if it has no name.",
	],
	[
		/EHOSTUNREACH|ENETUNREACH/,
		'host unreachable',
		(at) =>
			`n8n's machine has no route to ${at}. Check the host, and the network, VPN or firewall ` +
			'between n8n and the dialer.',
	],
	[
		/ETIMEDOUT|ECONNABORTED|timeout/i,
		TIMED_OUT,
		(at) =>
			`No answer in time from ${at}. If no request gets through, check the host, the port, ` +
			'https:// or http:// and a firewall that drops connections; if only long reports time ' +
			'out, narrow the period or raise Options → Timeout.',
	],
	[
		/ECONNRESET|socket hang up/i,
		'connection closed by the server',
		() => 'The dialer closed the connection. Retry later; check a proxy or firewall in between.',
	],
	[
		/CERT|SSL|TLS|self[- ]signed/i,
		UNTRUSTED_CERTIFICATE,
		() =>
			'The server certificate could not be verified. For an on-premise server with a ' +
			'self-signed certificate, turn on "Ignore SSL Issues" in the credential.',
	],
];

/**
 * Every code and message an error carries, down its whole `cause` chain. n8n's request helper
 * wraps the client's error in a NodeApiError: some versions keep the client's error as `cause`,
 * others drop it and keep only its code (as `httpCode`) and its message (in `messages`).
 */
function errorTexts(error: unknown, seen = new Set<object>()): string[] {
	if (typeof error !== 'object' || error === null || seen.has(error)) return [];
	seen.add(error);
	const { code, httpCode, message, messages, cause } = error as Record<string, unknown>;
	const texts = [code, httpCode, message, ...(Array.isArray(messages) ? messages : [])];
	return [
		...texts.filter((text): text is string => typeof text === 'string' && text !== ''),
		...errorTexts(cause, seen),
	];
}

/**
 * What went wrong when no answer (or only part of one) came back from `baseUrl` (the
 * credential's; only its origin is named, never a path, query or login in it).
 */
export function networkFailure(
	error: unknown,
	deadline: AbortSignal,
	baseUrl: string,
): { problem: string; hint: string } {
	// Past the deadline the client only sees "canceled" or "aborted": the deadline says why.
	const text = deadline.aborted ? 'timeout' : errorTexts(error).join(' ');
	const at = baseUrlNamed(baseUrl);
	for (const [pattern, problem, hint] of NETWORK_HINTS) {
		if (pattern.test(text)) return { problem, hint: hint(at) };
	}
	return {
		problem: 'the request could not be completed',
		hint: `Check ${at}, and the network between n8n and the dialer.`,
	};
}

function baseUrlNamed(baseUrl: string): string {
	try {
		return `${new URL(baseUrl).origin}, the credential's Base URL`;
	} catch {
		return "the credential's Base URL";
	}
}

export const NOT_JSON_HINT =
	'The dialer or a proxy in front of it sent an unexpected page. Retry later; if it persists, ' +
	'check the base URL and path segment.';
export const CUT_SHORT_HINT =
	'The connection or a proxy in front of the dialer cut the answer short. Retry; if it ' +
	'persists, choose a shorter period or raise the Timeout option.';
export const REFUSED_HINT =
	'The dialer refused the request. Check the values given to this operation (IDs and names ' +
	'must exist on the dialer).';
export const REFUSED_EXPORT_HINT =
	'The dialer refused the export. Check the form, the period or the ficha IDs.';

function textField(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message a JSON body carries, under any of the names servers of this family use. */
function messageOf(body: unknown): string | undefined {
	if (!isRecord(body)) return undefined;
	return (
		textField(body.message) ??
		textField(body.mensagem) ??
		textField(body.error) ??
		textField(body.erro) ??
		textField(body.msg)
	);
}

/** The message of a failure body; an `error`/`erro` flag that says "no error" is not one. */
function failureText(body: IDataObject): string | undefined {
	return (
		textField(body.message) ??
		textField(body.mensagem) ??
		(flagsFailure(body.error) ? textField(body.error) : undefined) ??
		(flagsFailure(body.erro) ? textField(body.erro) : undefined) ??
		textField(body.msg)
	);
}

/**
 * Readable text from an error body (its JSON message, or HTML/plain text without markup), without
 * `secrets` nor the start of one a `cut` text ends with: they go before it is folded and cut short.
 */
export function describeBody(text: string, secrets: string[] = [], cut = false): string {
	const shown = withoutSecrets(text, secrets);
	const trimmed = (cut ? withoutCutSecret(shown, secrets) : shown).trim();
	if (trimmed === '') return 'empty answer';
	try {
		const message = messageOf(JSON.parse(trimmed));
		// Again: the message as JSON escapes decode it may spell a secret the raw text did not.
		if (message) return withoutSecrets(message, secrets);
	} catch {
		// Not JSON: the text itself is the best description.
	}
	const stripped = withoutSecrets(
		trimmed.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' '),
		secrets,
	);
	const plain = stripped.replace(/\s+/g, ' ').trim();
	return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

/** `text` without any of `secrets`: the longest first, so one that holds another goes whole. */
export const withoutSecrets = (text: string, secrets: string[]): string =>
	[...secrets]
		.sort((a, b) => b.length - a.length)
		.reduce((shown, secret) => shown.split(secret).join('…'), text);

const SUCCESS_STATUSES = new Set(['success', 'ok', 'sucesso', 'true']);
const FAILURE_STATUSES = new Set(['error', 'erro', 'fail', 'failed', 'failure', 'falha', 'false']);
/** Values of an `error`/`erro` field that say "no error". */
const NO_ERROR = new Set(['', '0', 'false', 'no', 'none', 'null', 'ok']);

/** Whether an `error`, `erro` or `success: false` field says the call failed. */
function flagsFailure(value: unknown): boolean {
	if (value === undefined || value === null || value === false) return false;
	if (typeof value === 'number') return value !== 0;
	if (typeof value === 'string') return !NO_ERROR.has(value.trim().toLowerCase());
	if (typeof value === 'object') return Object.keys(value).length > 0;
	return value === true;
}

/** Whether the body's `status` says failure. */
function statusFailed(body: IDataObject): boolean {
	// A status code may come as text ("200"), as some dialer builds send every number.
	const status =
		typeof body.status === 'string' && /^\s*\d+\s*$/.test(body.status)
			? Number(body.status)
			: body.status;
	if (typeof status === 'number') return status >= 400;
	if (status === false) return true;
	if (typeof status !== 'string' || status.trim() === '') return false;
	const word = status.trim().toLowerCase();
	if (SUCCESS_STATUSES.has(word)) return false;
	if (FAILURE_STATUSES.has(word)) return true;
	// Another word counts on an envelope (beside data or a message, or nearly alone), not on a bare
	// record that has its own status field (a prospect's "ATIVO", a ficha's "Pendente").
	return 'data' in body || messageOf(body) !== undefined || Object.keys(body).length <= 2;
}

/**
 * The message of a body that reports failure, or undefined when it does not: the one rule for
 * every request of the node and the triggers. A `status` other than success fails (even beside
 * an empty `data` list), as do `success: false` and an `error`/`erro` that is set (not 0, false,
 * "0" or empty).
 */
export function failureMessage(body: unknown): string | undefined {
	if (!isRecord(body)) return undefined;
	const failed =
		statusFailed(body) ||
		body.success === false ||
		body.success === 'false' ||
		flagsFailure(body.error) ||
		flagsFailure(body.erro);
	if (!failed) return undefined;
	const flag = [body.error, body.erro].find(flagsFailure);
	const text = failureText(body);
	if (text !== undefined) return text;
	if (flag !== undefined) return JSON.stringify(flag);
	return statusFailed(body) ? `status ${JSON.stringify(body.status)}` : '"success": false';
}
