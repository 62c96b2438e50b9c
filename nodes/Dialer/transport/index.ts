import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ChunkedJsonParser } from './chunkedJson';

/** The API operations, by the name that ends their path. */
export type ApiOperation =
	| 'logout'
	| 'pauseout'
	| 'getLigacaoAtivaByRamal'
	| 'criarFilaAtiva'
	| 'getLotesAtivos'
	| 'changeLoteToFila'
	| 'getTime'
	| 'desativarAudio'
	| 'getFP1'
	| 'getRQ4'
	| 'getHC2'
	| 'getRE2';

/** Form fields; undefined and empty values are left out so server defaults apply. */
export type ApiFields = Record<string, string | undefined>;

type DialerContext = IExecuteFunctions | ILoadOptionsFunctions;

interface Endpoint {
	baseUrl: string;
	pathSegment: string;
	skipTlsValidation: boolean;
}

export interface RawResponse {
	body: Buffer;
	contentType: string;
}

// Reports can be large (100,000 rows and more); everything else should answer quickly.
export const REPORT_TIMEOUT_MS = 300_000;
export const ACTION_TIMEOUT_MS = 60_000;
const REPORTS: ReadonlySet<ApiOperation> = new Set(['getFP1', 'getRQ4', 'getHC2', 'getRE2']);
/**
 * Reports answered in one piece for a whole period: read as a stream and parsed while they
 * arrive. Everything else, getHC2 included (one answer per agent, usually many at once), is read
 * whole: with n8n saving execution data, 32 parallel streamed getHC2 answers (100,000 calls)
 * peaked about 230 MB higher than the same answers read whole (bench/, n8n 2.41.1).
 */
const STREAMED: ReadonlySet<ApiOperation> = new Set(['getFP1', 'getRQ4', 'getRE2']);

/** The node's Options → Timeout for this item when set, else the operation's default. */
function timeoutFor(context: DialerContext, operation: ApiOperation, itemIndex?: number): number {
	const fallback = REPORTS.has(operation) ? REPORT_TIMEOUT_MS : ACTION_TIMEOUT_MS;
	// List searches in the editor have no item and no options.
	if (itemIndex === undefined) return fallback;
	const timeout = (context as IExecuteFunctions).getNodeParameter(
		'options.timeout',
		itemIndex,
		0,
	) as number;
	return typeof timeout === 'number' && timeout > 0 ? timeout : fallback;
}

// One credential read per node run: the loop over items must not decrypt it again and again.
const endpoints = new WeakMap<object, Promise<Endpoint>>();

async function readEndpoint(context: DialerContext): Promise<Endpoint> {
	const credentials = await context.getCredentials('dialerApi');
	return {
		baseUrl: String(credentials.baseUrl ?? '')
			.trim()
			.replace(/\/+$/, ''),
		pathSegment: String(credentials.pathSegment ?? '')
			.trim()
			.replace(/^\/+|\/+$/g, ''),
		skipTlsValidation: credentials.ignoreSslIssues === true,
	};
}

function endpointOf(context: DialerContext): Promise<Endpoint> {
	let endpoint = endpoints.get(context);
	if (!endpoint) {
		endpoint = readEndpoint(context);
		endpoints.set(context, endpoint);
	}
	return endpoint;
}

export function operationUrl(
	endpoint: Pick<Endpoint, 'baseUrl' | 'pathSegment'>,
	operation: ApiOperation,
): string {
	return `${endpoint.baseUrl}/${endpoint.pathSegment.split('/').map(encodeURIComponent).join('/')}/api/${operation}`;
}

export function encodeForm(fields: ApiFields): string {
	const form = new URLSearchParams();
	for (const [name, value] of Object.entries(fields)) {
		if (value !== undefined && value !== '') form.append(name, value);
	}
	return form.toString();
}

interface ApiFailure {
	operation: ApiOperation;
	status?: number;
	problem: string;
	hint: string;
	itemIndex?: number;
}

function apiError(node: INode, failure: ApiFailure): NodeApiError {
	const status = failure.status === undefined ? '' : ` (HTTP ${failure.status})`;
	const message = `Dialer ${failure.operation} failed${status}: ${failure.problem}`;
	// A plain, hand-built response object: never the HTTP client's error, which carries request headers.
	const response: JsonObject = { message, operation: failure.operation };
	if (failure.status !== undefined) response.httpCode = String(failure.status);
	return new NodeApiError(node, response, {
		message,
		description: failure.hint,
		httpCode: failure.status === undefined ? undefined : String(failure.status),
		itemIndex: failure.itemIndex,
	});
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The dialer rejected the request fields. Check the parameters of this operation.',
	401: 'The dialer rejected the token. Copy it again from the console (API > Token) and check the header style in the credential.',
	403: 'The token is not allowed to use this operation. Check its permissions in the dialer console.',
	404: 'No dialer API at this address. Check the base URL (with its port) and the path segment in the credential.',
	405: 'The server at this address is not a dialer API. Check the base URL and the path segment in the credential.',
	429: 'The dialer is limiting requests. Retry later or lower the number of items per run.',
};

function hintForStatus(status: number): string {
	if (STATUS_HINTS[status]) return STATUS_HINTS[status];
	if (status >= 500)
		return 'The dialer had an internal problem. Retry later; if it persists, contact the dialer administrator.';
	return 'The dialer did not accept the request. Check the parameters and the credential.';
}

const NETWORK_HINTS: Array<[RegExp, string, string]> = [
	[
		/ECONNREFUSED/,
		'connection refused',
		'Nothing answers at the base URL. Check the host and the port in the credential.',
	],
	[
		/ENOTFOUND|EAI_AGAIN/,
		'host not found',
		'The host name in the base URL does not resolve. Check it in the credential.',
	],
	[
		/ETIMEDOUT|ECONNABORTED|timeout/i,
		'no answer in time',
		'The dialer did not answer in time. Narrow the report period or retry later.',
	],
	[
		/ECONNRESET|socket hang up/i,
		'connection closed by the server',
		'The dialer closed the connection. Retry later; check a proxy or firewall in between.',
	],
	[
		/CERT|SSL|TLS|self[- ]signed/i,
		'TLS certificate not trusted',
		'The server certificate could not be verified. For an on-premise server with a self-signed certificate, turn on "Ignore SSL Issues" in the credential.',
	],
];

function networkFailure(error: unknown, deadline: AbortSignal): { problem: string; hint: string } {
	const details = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
	// Past the deadline the client only sees "canceled" or "aborted": the deadline says why.
	const text = deadline.aborted
		? 'timeout'
		: [details.code, details.cause?.code, details.message].filter(Boolean).join(' ');
	for (const [pattern, problem, hint] of NETWORK_HINTS) {
		if (pattern.test(text)) return { problem, hint };
	}
	return {
		problem: 'the request could not be completed',
		hint: 'Check the base URL in the credential and the network between n8n and the dialer.',
	};
}

function textField(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The message a JSON body carries, under any of the names servers of this family use. */
function messageOf(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const fields = body as IDataObject;
	return (
		textField(fields.message) ??
		textField(fields.mensagem) ??
		textField(fields.error) ??
		textField(fields.erro) ??
		textField(fields.msg)
	);
}

/** Readable text from an error body (its JSON message, or HTML/plain text without markup). */
function describeBody(text: string): string {
	const trimmed = text.trim();
	if (trimmed === '') return 'empty answer';
	try {
		const message = messageOf(JSON.parse(trimmed));
		if (message) return message;
	} catch {
		// Not JSON: the text itself is the best description.
	}
	const plain = trimmed
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

const SUCCESS_STATUSES = new Set(['success', 'ok', 'sucesso']);

function isSet(value: unknown): boolean {
	return value !== undefined && value !== null && value !== false && value !== '';
}

/**
 * The message of a body that reports failure, or undefined when it does not. A `status` other than
 * success counts only on a small status/message body, so a bare record that happens to have a
 * `status` field (a prospect's, say) is not mistaken for an error.
 */
export function failureMessage(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const fields = body as IDataObject;
	const status = typeof fields.status === 'string' ? fields.status.trim().toLowerCase() : '';
	const statusFailed =
		status !== '' &&
		!SUCCESS_STATUSES.has(status) &&
		(fields.data === undefined || fields.data === null) &&
		(messageOf(body) !== undefined || Object.keys(fields).length <= 2);
	const failed =
		statusFailed || fields.success === false || isSet(fields.error) || isSet(fields.erro);
	if (!failed) return undefined;
	return (
		messageOf(body) ??
		(status !== '' ? `status "${status}"` : JSON.stringify(fields.error ?? fields.erro ?? body))
	);
}

/** The payload under the `data` envelope when there is one; the whole body otherwise. */
export function unwrapEnvelope(body: unknown): unknown {
	if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'data' in body) {
		return (body as IDataObject).data;
	}
	return body;
}

/** An answer, its body still arriving. */
interface Answer {
	status: number;
	contentType: string;
	/**
	 * Hands each chunk of the body to `take` as it arrives, until it returns false. A connection
	 * lost, or the deadline passed, midway becomes the operation's error.
	 */
	read(take: (chunk: Buffer) => boolean): Promise<void>;
}

interface BodyReader {
	next(): Promise<IteratorResult<Buffer>>;
	/** Lets go of the connection (a no-op once the body has ended). */
	stop(): void;
}

const toBuffer = (chunk: unknown): Buffer =>
	Buffer.isBuffer(chunk)
		? chunk
		: chunk instanceof ArrayBuffer
			? Buffer.from(chunk)
			: Buffer.from(typeof chunk === 'string' ? chunk : (JSON.stringify(chunk) ?? ''));

/** A response body, chunk by chunk: n8n's stream, or the whole body at once (any other shape). */
function bodyReader(body: unknown): BodyReader {
	if (typeof body === 'object' && body !== null && Symbol.asyncIterator in body) {
		const stream = body as AsyncIterable<unknown> & { destroy?: () => void };
		const chunks = stream[Symbol.asyncIterator]();
		return {
			next: async () => {
				const chunk = await chunks.next();
				return chunk.done ? chunk : { done: false, value: toBuffer(chunk.value) };
			},
			stop: () => stream.destroy?.(),
		};
	}
	const whole = body === undefined || body === null ? [] : [toBuffer(body)];
	return {
		next: async () =>
			whole.length > 0 ? { done: false, value: whole.pop()! } : { done: true, value: undefined },
		stop: () => undefined,
	};
}

/**
 * Rejects once `signal` aborts. n8n's client stops watching the deadline when the headers are
 * in, and a stream whose body stalls cannot even be destroyed: each read races this instead.
 */
function abortion(signal: AbortSignal): { aborted: Promise<never>; release(): void } {
	let onAbort = () => undefined as void;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Error('reading the answer was aborted'));
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	// Handled here: an abort after the last read must not become an unhandled rejection.
	aborted.catch(() => undefined);
	return { aborted, release: () => signal.removeEventListener('abort', onAbort) };
}

/** The cancel signal of the running execution (not there in the editor's list searches). */
function cancelSignalOf(context: DialerContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

async function send(
	context: DialerContext,
	operation: ApiOperation,
	fields: ApiFields,
	itemIndex?: number,
): Promise<Answer> {
	const endpoint = await endpointOf(context);
	const timeout = timeoutFor(context, operation, itemIndex);
	// One deadline for the whole exchange, body included; a stopped execution stops it too.
	const deadline = AbortSignal.timeout(timeout);
	const cancel = cancelSignalOf(context);
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: operationUrl(endpoint, operation),
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			Accept: 'application/json, text/csv, */*',
		},
		body: encodeForm(fields),
		encoding: STREAMED.has(operation) ? 'stream' : 'arraybuffer',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		skipSslCertificateValidation: endpoint.skipTlsValidation,
		timeout,
		abortSignal: signal,
	};
	const failed = (error: unknown, status?: number) =>
		apiError(context.getNode(), {
			operation,
			itemIndex,
			status,
			...networkFailure(error, deadline),
		});
	let response: { statusCode?: number; headers?: IDataObject; body?: unknown };
	try {
		response = await context.helpers.httpRequestWithAuthentication.call(
			context,
			'dialerApi',
			request,
		);
	} catch (error) {
		throw failed(error);
	}
	const status = response.statusCode ?? 0;
	const body = bodyReader(response.body);
	const answer: Answer = {
		status,
		contentType: String(response.headers?.['content-type'] ?? ''),
		async read(take) {
			const { aborted, release } = abortion(signal);
			try {
				for (;;) {
					let chunk: IteratorResult<Buffer>;
					try {
						chunk = await Promise.race([body.next(), aborted]);
					} catch (error) {
						throw failed(error, status);
					}
					if (chunk.done || !take(chunk.value)) return;
				}
			} finally {
				release();
				// Also when `take` gave up on the answer: no reason to download the rest.
				body.stop();
			}
		},
	};
	if (status < 200 || status > 299) {
		throw apiError(context.getNode(), {
			operation,
			itemIndex,
			status,
			problem: describeBody((await readAll(answer)).toString('utf8')),
			hint: hintForStatus(status),
		});
	}
	return answer;
}

async function readAll(answer: Answer): Promise<Buffer> {
	const chunks: Buffer[] = [];
	await answer.read((chunk) => chunks.push(chunk) > 0);
	return Buffer.concat(chunks);
}

// Enough of an answer that is not JSON to describe it in the error.
const DESCRIBED_BYTES = 64 * 1024;

/**
 * Calls one API operation and returns its JSON payload, unwrapped from the `data` envelope.
 * Non-2xx answers, bodies that are not JSON, and 200 answers that report failure all become a
 * NodeApiError naming the operation and the HTTP status; the token is never part of it.
 */
export async function dialerApiRequest(
	this: DialerContext,
	operation: ApiOperation,
	fields: ApiFields,
	itemIndex?: number,
): Promise<unknown> {
	const answer = await send(this, operation, fields, itemIndex);
	const { status } = answer;
	const parser = new ChunkedJsonParser();
	// The start of the answer, to describe it if it is not JSON.
	const start: Buffer[] = [];
	let startBytes = 0;
	let isJson = true;
	await answer.read((chunk) => {
		if (startBytes < DESCRIBED_BYTES) {
			start.push(chunk.subarray(0, DESCRIBED_BYTES - startBytes));
			startBytes += start[start.length - 1].length;
		}
		try {
			parser.push(chunk);
		} catch {
			isJson = false;
		}
		return isJson;
	});
	let parsed: unknown;
	try {
		if (isJson) parsed = parser.end();
	} catch {
		isJson = false;
	}
	if (!isJson) {
		const text = Buffer.concat(start).toString('utf8');
		throw apiError(this.getNode(), {
			operation,
			itemIndex,
			status,
			problem:
				text.trim() === ''
					? 'empty answer instead of JSON'
					: `answer is not JSON (${describeBody(text)})`,
			hint: 'The dialer or a proxy in front of it sent an unexpected page. Retry later; if it persists, check the base URL and path segment.',
		});
	}
	const failure = failureMessage(parsed);
	if (failure !== undefined) {
		throw apiError(this.getNode(), {
			operation,
			itemIndex,
			status,
			problem: failure,
			hint: 'The dialer refused the request. Check the values given to this operation (IDs and names must exist on the dialer).',
		});
	}
	return unwrapEnvelope(parsed);
}

/**
 * Calls an operation whose answer is a file (the CSV export). A JSON answer that reports
 * failure is still turned into an error, since the server uses the same content type for both.
 */
export async function dialerApiDownload(
	this: DialerContext,
	operation: ApiOperation,
	fields: ApiFields,
	itemIndex?: number,
): Promise<RawResponse> {
	const answer = await send(this, operation, fields, itemIndex);
	const { status, contentType } = answer;
	const body = await readAll(answer);
	const start = body.subarray(0, 1).toString();
	if (start === '{') {
		let failure: string | undefined;
		try {
			failure = failureMessage(JSON.parse(body.toString('utf8')));
		} catch {
			failure = undefined;
		}
		if (failure !== undefined) {
			throw apiError(this.getNode(), {
				operation,
				itemIndex,
				status,
				problem: failure,
				hint: 'The dialer refused the export. Check the form, the period or the ficha IDs.',
			});
		}
	}
	return { body, contentType };
}
