import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { timeoutOf } from '../parameters';
import { bodyStream, readAll, readJson, type BodyStream } from './body';
import { describeBody, failureMessage, withoutSecrets } from './answerBodies';
import { networkFailure } from './networkFailures';
import {
	apiError,
	callTitle,
	hintForRedirect,
	hintForStatus,
	CUT_SHORT_HINT,
	NOT_JSON_HINT,
	REFUSED_EXPORT_HINT,
	REFUSED_HINT,
} from './errors';
import type { ApiOperation } from './operations';
import { serverFor, type DialerContext, type Server } from './server';

// Reports can be large (100,000 rows and more); everything else should answer quickly.
export const REPORT_TIMEOUT_MS = 300_000;
export const ACTION_TIMEOUT_MS = 60_000;

/** One API operation and how its answer is transferred, declared beside the node operation. */
export interface ApiEndpoint {
	operation: ApiOperation;
	/**
	 * Read the answer as a stream and parse it while it arrives (large answers in one piece), or
	 * read it whole (small answers, and those that come many at a time).
	 */
	streamed: boolean;
	/** Milliseconds to wait for the whole answer when Options → Timeout is not set. */
	defaultTimeout: number;
}

/** Form fields; undefined and empty values are left out so server defaults apply. */
export type ApiFields = Record<string, string | undefined>;

export interface RawResponse {
	body: Buffer;
	contentType: string;
}

export function operationUrl(
	server: Pick<Server, 'baseUrl' | 'pathSegment'>,
	operation: ApiOperation,
): string {
	const segment = server.pathSegment.split('/').map(encodeURIComponent).join('/');
	return `${server.baseUrl}/${segment}/api/${operation}`;
}

export function encodeForm(fields: ApiFields): string {
	const form = new URLSearchParams();
	for (const [name, value] of Object.entries(fields)) {
		if (value !== undefined && value !== '') form.append(name, value);
	}
	return form.toString();
}

/** The node's Options → Timeout for this item when set, else the operation's default. */
function timeoutFor(context: DialerContext, endpoint: ApiEndpoint, itemIndex?: number): number {
	// List searches in the editor have no item and no options.
	if (itemIndex === undefined) return endpoint.defaultTimeout;
	const timeout = (context as IExecuteFunctions).getNodeParameter('options.timeout', itemIndex, 0);
	return timeoutOf(timeout, endpoint.defaultTimeout);
}

/** The cancel signal of the running execution (not there in the editor's list searches). */
export function cancelSignalOf(context: DialerContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/** An answer with a 2xx status, its body still arriving. */
interface Answer {
	status: number;
	contentType: string;
	body: BodyStream;
	/** Text of the answer as a message may show it: without the credential's secrets. */
	serverText(text: string): string;
	/** A body described for a message (describeBody), without the credential's secrets. */
	described(text: string, cut?: boolean): string;
	/** What users know the call by, for its errors' titles. */
	title: string;
}

async function send(
	context: DialerContext,
	endpoint: ApiEndpoint,
	fields: ApiFields,
	itemIndex?: number,
): Promise<Answer> {
	const { operation } = endpoint;
	const server = await serverFor(context);
	const timeout = timeoutFor(context, endpoint, itemIndex);
	// One deadline for the whole exchange, body included; a stopped execution stops it too.
	const deadline = AbortSignal.timeout(timeout);
	const cancel = cancelSignalOf(context);
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: operationUrl(server, operation),
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			Accept: 'application/json, text/csv, */*',
			Authorization: server.authorization,
		},
		body: encodeForm(fields),
		encoding: endpoint.streamed ? 'stream' : 'arraybuffer',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// n8n's client would send the Authorization header on to any origin a redirect names.
		disableFollowRedirect: true,
		skipSslCertificateValidation: server.skipTlsValidation,
		timeout,
		abortSignal: signal,
	};
	const title = callTitle(context, operation);
	const failed = (error: unknown, status?: number) =>
		apiError(context.getNode(), {
			operation,
			title,
			itemIndex,
			status,
			...networkFailure(error, deadline, server.baseUrl),
		});
	let response: { statusCode?: number; headers?: IDataObject; body?: unknown };
	try {
		response = await context.helpers.httpRequest(request);
	} catch (error) {
		throw failed(error);
	}
	const status = response.statusCode ?? 0;
	const serverText = (text: string) => withoutSecrets(text, server.secrets);
	const described = (text: string, cut?: boolean) => describeBody(text, server.secrets, cut);
	const body = bodyStream(response.body, signal, (error) => failed(error, status));
	if (status < 200 || status > 299) {
		throw apiError(context.getNode(), {
			operation,
			title,
			itemIndex,
			status,
			problem: described((await readAll(body)).toString('utf8')),
			hint:
				hintForRedirect(status, String(response.headers?.location ?? ''), request.url) ??
				hintForStatus(status),
		});
	}
	const contentType = String(response.headers?.['content-type'] ?? '');
	return { status, contentType, body, serverText, described, title };
}

/**
 * Calls one API operation and returns its JSON payload, unwrapped from the `data` envelope.
 * Non-2xx answers, bodies that are not JSON, and 200 answers that report failure all become a
 * NodeApiError naming the operation and the HTTP status; the token is never part of it.
 */
export async function dialerApiRequest(
	this: DialerContext,
	endpoint: ApiEndpoint,
	fields: ApiFields,
	itemIndex?: number,
): Promise<unknown> {
	const { operation } = endpoint;
	const { status, body, serverText, described, title } = await send(
		this,
		endpoint,
		fields,
		itemIndex,
	);
	const answer = await readJson(body);
	if (!answer.isJson) {
		const { start, cut, cutShortAfter } = answer;
		throw apiError(this.getNode(), {
			operation,
			title,
			itemIndex,
			status,
			problem:
				cutShortAfter !== undefined
					? `answer ended before its JSON did, after ${cutShortAfter} bytes`
					: start.trim() === ''
						? 'empty answer instead of JSON'
						: `answer is not JSON (${described(start, cut)})`,
			hint: cutShortAfter !== undefined ? CUT_SHORT_HINT : NOT_JSON_HINT,
		});
	}
	const failure = failureMessage(answer.value);
	if (failure !== undefined) {
		throw apiError(this.getNode(), {
			operation,
			title,
			itemIndex,
			status,
			problem: serverText(failure),
			hint: REFUSED_HINT,
		});
	}
	return unwrapEnvelope(answer.value);
}

/** The payload under the `data` envelope when there is one; the whole body otherwise. */
export function unwrapEnvelope(body: unknown): unknown {
	if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'data' in body) {
		return (body as IDataObject).data;
	}
	return body;
}

/**
 * Calls an operation whose answer is a file (the CSV export). A JSON answer that reports
 * failure is still turned into an error, since the server uses the same content type for both.
 */
export async function dialerApiDownload(
	this: DialerContext,
	endpoint: ApiEndpoint,
	fields: ApiFields,
	itemIndex?: number,
): Promise<RawResponse> {
	const answer = await send(this, endpoint, fields, itemIndex);
	const body = await readAll(answer.body);
	// A PHP file saved with a byte order mark puts one (and its line breaks) before every answer.
	if (/^\uFEFF?\s*\{/.test(body.subarray(0, 64).toString('utf8'))) {
		let failure: string | undefined;
		try {
			failure = failureMessage(JSON.parse(body.toString('utf8').replace(/^\uFEFF/, '')));
		} catch {
			failure = undefined;
		}
		if (failure !== undefined) {
			throw apiError(this.getNode(), {
				operation: endpoint.operation,
				title: answer.title,
				itemIndex,
				status: answer.status,
				problem: answer.serverText(failure),
				hint: REFUSED_EXPORT_HINT,
			});
		}
	}
	return { body, contentType: answer.contentType };
}
