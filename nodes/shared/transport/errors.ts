import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiOperation } from './operations';

export interface ApiFailure {
	operation: ApiOperation;
	/** What users know the call by (callTitle): the error's title. */
	title: string;
	status?: number;
	problem: string;
	hint: string;
	itemIndex?: number;
}

/**
 * A failed call, titled as users know it ("Report → Get Filled Forms failed (HTTP 500): …"), the
 * API operation it called in the description and the details.
 */
export function apiError(node: INode, failure: ApiFailure): NodeApiError {
	const message = `${failure.title} failed${statusPart(failure.status)}: ${failure.problem}`;
	const hint = `${failure.hint} (API operation: ${failure.operation})`;
	return nodeApiError(node, message, { ...failure, hint }, { operation: failure.operation });
}

// One name for all the calls a node run (an execution's node, a poll, a list search) makes.
const callNames = new WeakMap<object, string>();

/**
 * Names the calls `context` makes as users know them, for their errors' titles: the node's
 * Resource and Operation ("Team → Get Many"), the report a poll reads, the list a picker loads.
 */
export function nameCalls(context: object, title: string): void {
	callNames.set(context, title);
}

/** The title of a call `context` makes: its name, else the API operation's (never named). */
export const callTitle = (context: object, operation: ApiOperation): string =>
	callNames.get(context) ?? `Dialer ${operation}`;

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
