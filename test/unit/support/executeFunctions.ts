import { Readable } from 'node:stream';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

import * as callHistory from '../../../nodes/shared/reports/callHistory';
import { router } from '../../../nodes/Dialer/actions/router';
import { nameCalls } from '../../../nodes/shared/transport/errors';
import { dialerApiRequest } from '../../../nodes/shared/transport/request';
import { fakePrepareBinaryData, type StoreCall, type StoreMode } from './binaryStore';
import { followingRedirects } from './redirects';

/** What the fake dialer answers: a status, a body, and optionally a content type or a thrown error. */
export interface FakeResponse {
	status?: number;
	body?: unknown;
	contentType?: string;
	/** Further response headers (Location, Content-Disposition, Content-Length…). */
	headers?: Record<string, string>;
	throws?: Error & { code?: string };
	/**
	 * Answer after this many turns of the event loop (no clock), to observe requests under way at
	 * the same time and answers that come in another order than the requests went out.
	 */
	delayTurns?: number;
	/** The body breaks off after its first chunk: with this error, or (`'stall'`) by sending nothing more. */
	breaksOff?: Error | 'stall';
	/** Bytes per chunk of a streamed body (default 997). */
	chunkBytes?: number;
}

export interface SentRequest {
	url: string;
	method?: string;
	headers: IDataObject;
	form: Record<string, string>;
	options: IHttpRequestOptions;
	/** Sent with an Authorization header (the credential's token). */
	authenticated: boolean;
}

export interface FakeContextOptions {
	/** Node parameters; a function receives the item index, for per-item values. */
	parameters: Record<string, unknown>;
	credentials?: ICredentialDataDecryptedObject;
	items?: INodeExecutionData[];
	timezone?: string;
	continueOnFail?: boolean;
	/** Answers in order; the last one repeats. */
	responses?: FakeResponse[];
	/** Answers by URL, before `responses` (for requests made in parallel). */
	route?: (url: string) => FakeResponse | undefined;
	/** The execution's cancel signal, as n8n hands it to nodes. */
	cancelSignal?: AbortSignal;
	/** How n8n's binary store reads a stream (`StoreMode`); `filesystem` by default. */
	store?: StoreMode;
}

export const TEST_CREDENTIALS: ICredentialDataDecryptedObject = {
	baseUrl: 'https://acme.dialer.test:8607/',
	pathSegment: 'ipbox',
	token: 'tok-unit-secret-value',
	authScheme: 'raw',
	ignoreSslIssues: false,
	webhookSecret: '',
	reportUser: '',
	reportPassword: '',
};

/** What each Authorization Header Style writes before the token, as the credential describes it. */
const HEADER_PREFIXES: Record<string, string> = { raw: '', bearer: 'Bearer ', basic: 'Basic ' };

const authorizationOf = (headers: IDataObject = {}) =>
	Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];

function lookup(parameters: Record<string, unknown>, path: string, itemIndex: number): unknown {
	let value: unknown = parameters;
	for (const key of path.split('.')) {
		if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return typeof value === 'function' ? (value as (i: number) => unknown)(itemIndex) : value;
}

function encodeBody(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (typeof body === 'string') return Buffer.from(body);
	return Buffer.from(body === undefined ? '' : JSON.stringify(body));
}

/** Lets the event loop go round `count` times: I/O, timers due and other answers run meanwhile. */
export async function turns(count: number): Promise<void> {
	for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits, turn by turn, until `stream` exists and its reader has taken data from it: a body that
 * stalls is then stalled midway. Fails after `limit` turns instead of hanging.
 */
export async function untilRead(stream: () => Readable | undefined, limit = 10_000): Promise<void> {
	for (let turn = 0; !stream()?.readableDidRead; turn++) {
		if (turn === limit) throw new Error(`no data read from the body in ${limit} turns`);
		await turns(1);
	}
}

// Small, odd-sized chunks: rows, strings and UTF-8 characters arrive cut, as on a network.
const CHUNK_BYTES = 997;

/** The body as n8n's client streams it; `breaksOff` spoils it after the first chunk. */
function inChunks(body: Buffer, breaksOff?: Error | 'stall', chunkBytes = CHUNK_BYTES): Readable {
	if (breaksOff === 'stall') {
		// A connection that stays open, sending nothing more (and closes when destroyed).
		let started = false;
		return new Readable({
			read() {
				if (!started) this.push(body.subarray(0, CHUNK_BYTES));
				started = true;
			},
		});
	}
	async function* chunks() {
		for (let start = 0; start < body.length; start += chunkBytes) {
			yield body.subarray(start, start + chunkBytes);
			if (breaksOff) throw breaksOff;
		}
	}
	return Readable.from(chunks(), { objectMode: false });
}

/**
 * A stand-in for n8n's IExecuteFunctions, enough to run the node's operations: parameters by
 * name (dotted paths, resource locators), credentials, and an HTTP helper that records requests
 * and answers from a script.
 */
export function fakeExecuteFunctions(options: FakeContextOptions) {
	const sent: SentRequest[] = [];
	/** The bodies handed over as streams, to see which were let go (destroyed). */
	const streams: Readable[] = [];
	const stored: StoreCall[] = [];
	const load = { inFlight: 0, maxInFlight: 0 };
	const responses = options.responses ?? [{ body: { data: {} } }];
	const node: INode = {
		id: 'node-1',
		name: 'Dialer',
		type: 'n8n-nodes-dialer.dialer',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};

	const credentials = options.credentials ?? TEST_CREDENTIALS;
	const dialerOrigin = new URL(String(credentials.baseUrl).trim()).origin;
	// What the credential's expression in n8n writes (DialerApi.credentials.ts, its description).
	const scheme = String(credentials.authScheme);
	const expectedAuthorization =
		(Object.hasOwn(HEADER_PREFIXES, scheme) ? HEADER_PREFIXES[scheme] : '') +
		String(credentials.token ?? '');
	/** Requests that carried an Authorization header to another origin than the dialer's. */
	const strays: string[] = [];

	async function answer(request: IHttpRequestOptions) {
		sent.push({
			url: request.url,
			method: request.method,
			headers: request.headers ?? {},
			form: Object.fromEntries(new URLSearchParams(String(request.body ?? ''))),
			options: request,
			authenticated: authorizationOf(request.headers) === expectedAuthorization,
		});
		const stray = authorizationOf(request.headers);
		// The token goes to the credential's origin only, whatever a test answers.
		if (stray !== undefined && new URL(request.url).origin !== dialerOrigin) {
			strays.push(request.url);
		}
		const response =
			options.route?.(request.url) ?? responses[Math.min(sent.length - 1, responses.length - 1)];
		load.inFlight++;
		load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
		await turns(response.delayTurns ?? 1);
		load.inFlight--;
		if (response.throws) throw response.throws;
		const body = encodeBody(response.body);
		const stream =
			request.encoding === 'stream' && inChunks(body, response.breaksOff, response.chunkBytes);
		if (stream) streams.push(stream);
		return {
			statusCode: response.status ?? 200,
			headers: { 'content-type': response.contentType ?? 'application/json', ...response.headers },
			body: stream || body,
		};
	}

	const context = {
		getNode: () => node,
		getInputData: () => options.items ?? [{ json: {} }],
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () => options.continueOnFail ?? false,
		getExecutionCancelSignal: () => options.cancelSignal,
		getCredentials: async () => credentials,
		getNodeParameter(
			name: string,
			itemIndex: number,
			fallback?: unknown,
			settings?: { extractValue?: boolean },
		) {
			let value = lookup(options.parameters, name, itemIndex);
			if (value === undefined) {
				if (arguments.length >= 3) return fallback;
				throw new Error(`Could not get parameter "${name}"`);
			}
			if (
				settings?.extractValue &&
				typeof value === 'object' &&
				value !== null &&
				'__rl' in value
			) {
				value = (value as unknown as { value: unknown }).value;
			}
			return value;
		},
		helpers: {
			/** n8n's client: redirects followed as it follows them, unless told not to. */
			httpRequest: async (request: IHttpRequestOptions) =>
				await followingRedirects(request, answer),
			prepareBinaryData: fakePrepareBinaryData(stored, options.store),
		},
	};
	return { context: context as unknown as IExecuteFunctions, sent, load, streams, stored, strays };
}

/**
 * Runs the Dialer node once through its router, as n8n does: its output items, and the requests
 * it sent (the first one's form and path under the API root, for the usual single request).
 */
export async function runNode(options: FakeContextOptions) {
	const { context, sent, load, strays } = fakeExecuteFunctions(options);
	const [items] = await router.call(context);
	expect(strays).toEqual([]);
	return {
		items,
		sent,
		load,
		form: sent[0]?.form,
		path: sent[0]?.url.replace('https://acme.dialer.test:8607/ipbox/api/', ''),
	};
}

/** A resource locator value, as the editor stores a picked batch or team. */
export const picked = (value: string, mode = 'list') => ({ __rl: true, mode, value });

/** A report period from 1 to 21 November 2026, sent as 20261101000000 to 20261121235959. */
export const customPeriod = {
	period: 'custom',
	start: '2026-11-01T00:00:00',
	end: '2026-11-21T23:59:59',
};

/** One getHC2 request (item 3) straight through the transport, answered by `responses`. */
export function callApi(
	responses: FakeResponse[],
	fields: Record<string, string | undefined> = {},
) {
	const { context, sent } = fakeExecuteFunctions({ parameters: {}, responses });
	// As the router names the calls of Report → Get Call History.
	nameCalls(context, 'Report → Get Call History');
	const result = dialerApiRequest.call(context, callHistory.endpoint, fields, 3);
	return { result, sent };
}
