/**
 * The request pipeline of the dialer API: routing, faults, method, token, content type,
 * then the operation. Every request outside the control API is recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError } from '../errors';
import { faultReply, truncate, type FaultInjector } from '../faults';
import type { OperationContext } from '../operations/context';
import { operations } from '../operations';
import type { RecordedRequest } from '../types';
import { isAuthorized } from './auth';
import { FieldReader } from './fields';
import { answerRecording, type RecordingRouteDependencies } from './recording-route';
import type { ReplayedAnswers } from './replay';
import { errorReply, htmlPage, type Reply } from './replies';

const controlPrefix = '/__simulator/';
const formMediaType = 'application/x-www-form-urlencoded';
const maxBodyBytes = 1024 * 1024;

export interface PipelineDependencies {
	pathSegment: string;
	token: string;
	faults: FaultInjector;
	requests: RecordedRequest[];
	context: OperationContext;
	recordings: RecordingRouteDependencies;
	replay: ReplayedAnswers;
	control(method: string, path: string, body: string): Promise<Reply>;
}

/** Connection dropped without an answer. */
const reset = Symbol('reset');

export function createRequestListener(deps: PipelineDependencies) {
	const apiPrefix = `/${deps.pathSegment}/api/`;
	const recordingPrefix = `/${deps.pathSegment}/gravacoes/`;

	async function answerApi(
		req: IncomingMessage,
		operation: string | undefined,
		fields: Record<string, string>,
	) {
		// An unknown path is answered by the web server in front of the API, as an HTML page.
		if (operation === undefined) return htmlPage(404);
		const draw = deps.faults.draw(operation);
		if (draw.latencyMs > 0) await delay(draw.latencyMs);
		if (draw.answer?.kind === 'reset') return reset;
		// A dialer moved behind another host: the client is sent there, POST and all.
		if (draw.answer?.kind === 'redirect') {
			const location = `${deps.recordings.storageBaseUrl()}${apiPrefix}${operation}`;
			return { status: 307, contentType: 'text/plain', body: '', headers: { location } };
		}
		const replaced = draw.answer && faultReply(draw.answer);
		if (replaced) return replaced;
		if (draw.answer?.kind === 'truncatedJson')
			return truncate(runOperation(req, operation, fields));
		const request = {
			operation,
			method: req.method ?? '',
			authorization: req.headers.authorization ?? '',
			mediaType: mediaType(req),
			fields,
		};
		return (
			deps.replay.find(request) ?? deps.replay.keep(request, runOperation(req, operation, fields))
		);
	}

	function runOperation(
		req: IncomingMessage,
		operation: string,
		fields: Record<string, string>,
	): Reply {
		if (req.method !== 'POST')
			return { ...errorReply('Método não permitido; use POST', 405), headers: { allow: 'POST' } };
		if (!isAuthorized(req.headers.authorization, deps.token))
			return errorReply('Token de autorização ausente ou inválido', 401);
		if (mediaType(req) !== formMediaType)
			return errorReply(`Content-Type não suportado; use ${formMediaType}`, 415);
		try {
			return operations[operation](new FieldReader(fields, deps.context.clock), deps.context);
		} catch (error) {
			if (error instanceof ApiError) return errorReply(error.message, error.httpStatus);
			console.error(error);
			return errorReply('Erro interno do servidor', 500);
		}
	}

	return (req: IncomingMessage, res: ServerResponse) => {
		void (async () => {
			const path = new URL(req.url ?? '/', 'http://simulator').pathname;
			const body = await readBody(req);
			if (body === undefined)
				return send(res, errorReply('Corpo da requisição grande demais', 413));
			if (path.startsWith(controlPrefix))
				return send(res, await deps.control(req.method ?? 'GET', path, body));

			if (path.startsWith(recordingPrefix)) {
				const download = recordRequest(deps, req, path, 'recording', {});
				download.status = await answerRecording(deps.recordings, req, res, path, (reply) =>
					send(res, reply),
				);
				return;
			}

			const name = path.startsWith(apiPrefix) ? path.slice(apiPrefix.length) : undefined;
			const operation = name !== undefined && Object.hasOwn(operations, name) ? name : undefined;
			const fields =
				mediaType(req) === formMediaType ? Object.fromEntries(new URLSearchParams(body)) : {};
			const record = recordRequest(deps, req, path, operation ?? '', fields);
			const reply = await answerApi(req, operation, fields);
			if (reply === reset) return void req.socket.destroy();
			record.status = reply.status;
			record.answeredAt = Date.now();
			send(res, reply);
		})().catch((error: unknown) => {
			console.error(error);
			if (!res.headersSent) send(res, errorReply('Erro interno do servidor', 500));
		});
	};
}

function recordRequest(
	deps: PipelineDependencies,
	req: IncomingMessage,
	path: string,
	operation: string,
	fields: Record<string, string>,
): RecordedRequest {
	const record: RecordedRequest = {
		operation,
		method: req.method ?? '',
		path,
		headers: flattenHeaders(req),
		contentType: req.headers['content-type'] ?? '',
		fields,
		status: 0,
		receivedAt: Date.now(),
	};
	deps.requests.push(record);
	return record;
}

function mediaType(req: IncomingMessage): string {
	return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

/** The whole body as UTF-8 text; undefined past the size limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > maxBodyBytes) return undefined;
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, reply: Reply): void {
	res.writeHead(reply.status, {
		'content-type': reply.contentType,
		'content-length': reply.bytes?.length ?? Buffer.byteLength(reply.body),
		...reply.headers,
	});
	res.end(reply.bytes ?? reply.body);
}
