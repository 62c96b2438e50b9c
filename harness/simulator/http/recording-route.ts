/**
 * Recording downloads on the dialer's own origin (`/<segment>/gravacoes/<uid>.wav`, GET with the
 * token) and their faults: a missing file, a login page with 200, a slow body, a redirect to the
 * storage server, a body compressed by the web server, a file typed as a page by a script.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { faultReply, type FaultInjector } from '../faults';
import type { SeededData } from '../model';
import { recordedCallAt, recordingFile, sendRecording, WAV_TYPE } from '../recordings';
import { isAuthorized } from './auth';
import { errorReply, htmlPage, type Reply } from './replies';

export interface RecordingRouteDependencies {
	data: SeededData;
	token: string;
	faults: FaultInjector;
	storageBaseUrl(): string;
}

const SLOW_BYTES_PER_SECOND = 2000;

/** What a web server in front of the dialer answers when its session is missing. */
export function loginPage(): Reply {
	return {
		status: 200,
		contentType: 'text/html; charset=utf-8',
		body:
			'<!DOCTYPE html>\n<html><head><title>Discador - Acesso</title></head><body>\n' +
			'<form method="post" action="/login"><h1>Acesso ao sistema</h1>\n' +
			'<label>Usuário <input name="usuario"></label>\n' +
			'<label>Senha <input name="senha" type="password"></label>\n' +
			'<button>Entrar</button></form>\n</body></html>\n',
	};
}

/** Answers one recording request; returns the status sent (0 when the connection was reset). */
export async function answerRecording(
	deps: RecordingRouteDependencies,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	send: (reply: Reply) => void,
): Promise<number> {
	const call = recordedCallAt(deps.data, path);
	const draw = deps.faults.draw('recording', call ? [call.protocolo, call.uid] : []);
	if (draw.latencyMs > 0) await delay(draw.latencyMs);
	const reply = (answer: Reply) => {
		send(answer);
		return answer.status;
	};
	const fault = draw.answer;
	if (fault?.kind === 'reset') {
		req.socket.destroy();
		return 0;
	}
	if (fault?.kind === 'missing') return reply(htmlPage(404));
	if (fault?.kind === 'loginPage') return reply(loginPage());
	const replaced = fault && faultReply(fault);
	if (replaced) return reply(replaced);
	if (req.method !== 'GET' && req.method !== 'HEAD')
		return reply({
			...errorReply('Método não permitido; use GET', 405),
			headers: { allow: 'GET' },
		});
	if (!isAuthorized(req.headers.authorization, deps.token))
		return reply(errorReply('Token de autorização ausente ou inválido', 401));
	if (!call) return reply(htmlPage(404));
	if (fault?.kind === 'redirect') {
		const location = `${deps.storageBaseUrl()}/gravacoes/${encodeURIComponent(call.uid)}.wav`;
		return reply({ status: 302, contentType: 'text/plain', body: '', headers: { location } });
	}
	const name = `gravacao-${call.protocolo}.wav`;
	if (fault?.kind === 'compressed') {
		// A web server set to compress audio (nginx gzip_types): Content-Length is the gzip's.
		const body = gzipSync(recordingFile(call));
		res.writeHead(200, {
			'content-type': WAV_TYPE,
			'content-encoding': 'gzip',
			'content-length': body.length,
			'content-disposition': `attachment; filename="${name}"`,
		});
		res.end(body);
		return 200;
	}
	// A download script that sets no type gets PHP's default, and often sends no name either.
	const headers: Record<string, string> =
		fault?.kind === 'untyped'
			? { 'content-type': 'text/html; charset=UTF-8' }
			: { 'content-disposition': `attachment; filename="${name}"` };
	await sendRecording(
		res,
		call,
		headers,
		fault?.kind === 'slowBody' ? (fault.bytesPerSecond ?? SLOW_BYTES_PER_SECOND) : undefined,
	);
	return 200;
}
