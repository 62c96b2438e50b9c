/** Shared helpers of the simulator specifications: calling the API and receiving webhooks. */
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';
import type { DialerSimulator } from '../../harness/simulator';

/** Response bodies are asserted field by field; a loose type keeps the specifications readable. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface ApiAnswer {
	status: number;
	contentType: string;
	text: string;
	headers: Record<string, string | string[] | undefined>;
	json<T = Loose>(): T;
}

export interface CallOptions {
	/** Header value; null sends no Authorization header. Default: the bare token. */
	authorization?: string | null;
	method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
	contentType?: string;
	/** Raw body instead of form fields. */
	body?: string;
	dispatcher?: Dispatcher;
}

export async function callApi(
	sim: DialerSimulator,
	operation: string,
	fields: Record<string, string> = {},
	options: CallOptions = {},
): Promise<ApiAnswer> {
	return send(`${sim.apiUrl}/${operation}`, sim.token, fields, options);
}

export async function send(
	url: string,
	token: string,
	fields: Record<string, string> = {},
	options: CallOptions = {},
): Promise<ApiAnswer> {
	const headers: Record<string, string> = {
		'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
	};
	const authorization = options.authorization === undefined ? token : options.authorization;
	if (authorization !== null) headers.authorization = authorization;
	const method = options.method ?? 'POST';
	const body =
		method === 'GET' ? undefined : (options.body ?? new URLSearchParams(fields).toString());
	const response = await request(url, { method, headers, body, dispatcher: options.dispatcher });
	// Decoded by hand so a byte order mark stays visible to the specifications.
	const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
		await response.body.arrayBuffer(),
	);
	return {
		status: response.statusCode,
		contentType: String(response.headers['content-type'] ?? ''),
		text,
		headers: response.headers,
		json: () => JSON.parse(text),
	};
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A local instant as the contract's 14 digits. */
export function compact(date: Date): string {
	return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** `de`/`ate` covering the last `days` whole days before today. */
export function lastDays(days: number): { de: string; ate: string } {
	const today = new Date();
	const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - days);
	const end = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1, 23, 59, 59);
	return { de: compact(start), ate: compact(end) };
}

/** `de`/`ate` from `minutesBack` minutes ago to now (whole seconds). */
export function lastMinutes(minutesBack: number): { de: string; ate: string } {
	const now = Date.now();
	return { de: compact(new Date(now - minutesBack * 60_000)), ate: compact(new Date(now)) };
}

/** A local instant as getFP1, getRQ4 and getRE2 show row times: `dd/mm/yyyy HH:MM:SS`. */
export function brazilianTime(epochMs: number): string {
	const text = compact(new Date(epochMs));
	return `${text.slice(6, 8)}/${text.slice(4, 6)}/${text.slice(0, 4)} ${text.slice(8, 10)}:${text.slice(10, 12)}:${text.slice(12)}`;
}

/** The rows of a report's answer (200 expected), whatever envelope the report has. */
export async function reportRows(
	sim: DialerSimulator,
	operation: string,
	fields: Record<string, string>,
): Promise<Loose[]> {
	const answer = await callApi(sim, operation, fields);
	expect(answer.status).toBe(200);
	const body = answer.json();
	if (operation === 'getHC2') return body.data.chamadas;
	if (operation === 'getRE2') return body.data.resultado;
	return body.data;
}

export interface ReceivedCall {
	headers: IncomingHttpHeaders;
	body: Loose;
	at: number;
	/** Whether the receiver answered, or the sender closed the connection before it did. */
	outcome: 'pending' | 'answered' | 'dropped by the sender';
}

export interface Receiver {
	url: string;
	calls: ReceivedCall[];
	close(): Promise<void>;
}

/**
 * A webhook receiver on a free port; `answer` decides status and delay per call, or (`hold`)
 * that the call gets no answer until the sender gives up.
 */
export async function startReceiver(
	answer: (call: ReceivedCall) => {
		status?: number;
		delayMs?: number;
		hold?: boolean;
	} = () => ({}),
): Promise<Receiver> {
	const calls: ReceivedCall[] = [];
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const call: ReceivedCall = {
				headers: req.headers,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
				at: Date.now(),
				outcome: 'pending',
			};
			calls.push(call);
			const { status = 200, delayMs = 0, hold = false } = answer(call);
			const reply = () => {
				call.outcome = 'answered';
				res.writeHead(status).end('ok');
			};
			const timer = hold ? undefined : setTimeout(reply, delayMs);
			res.on('close', () => {
				clearTimeout(timer);
				if (call.outcome === 'pending') call.outcome = 'dropped by the sender';
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		calls,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Polls until the condition holds or the time runs out. */
export async function eventually(condition: () => boolean, timeoutMs = 3000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
