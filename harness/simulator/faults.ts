/** Fault injection: server and network trouble a client must survive. */
import { errorReply, htmlPage, jsonReply, type Reply } from './http/replies';
import type { Fault, FaultKind } from './types';

const faultKinds: readonly FaultKind[] = [
	'latency',
	'status',
	'html',
	'truncatedJson',
	'errorBody',
	'reset',
	'empty',
	'missing',
	'loginPage',
	'slowBody',
	'redirect',
	'compressed',
	'untyped',
	'body',
];

interface ActiveFault extends Fault {
	remaining: number;
}

/** What the faults decide for one request: a delay, and at most one fault that replaces or spoils the answer. */
export interface FaultDraw {
	latencyMs: number;
	answer?: Fault;
}

export class FaultInjector {
	private active: ActiveFault[] = [];

	add(fault: Fault): void {
		if (!faultKinds.includes(fault.kind))
			throw new Error(`Unknown fault kind: ${String(fault.kind)}`);
		if (fault.kind === 'latency' && !(Number(fault.latencyMs) >= 0))
			throw new Error('A latency fault needs latencyMs');
		this.active.push({ ...fault, remaining: fault.times ?? Infinity });
	}

	clear(): void {
		this.active = [];
	}

	get count(): number {
		return this.active.length;
	}

	/** `targets`: for a recording download, the call's protocolo and uid. */
	draw(operation: string, targets: string[] = []): FaultDraw {
		const draw: FaultDraw = { latencyMs: 0 };
		for (const fault of this.active) {
			if (fault.operation && fault.operation !== operation) continue;
			if (fault.recording !== undefined && !targets.includes(fault.recording)) continue;
			if (fault.kind === 'latency') draw.latencyMs += fault.latencyMs ?? 0;
			else if (draw.answer) continue;
			else draw.answer = fault;
			fault.remaining--;
		}
		this.active = this.active.filter((fault) => fault.remaining > 0);
		return draw;
	}
}

/** The answer of a fault that replaces the normal one; undefined for faults that spoil or drop it. */
export function faultReply(fault: Fault): Reply | undefined {
	switch (fault.kind) {
		case 'status':
			return errorReply('Erro interno do servidor', fault.status ?? 500);
		case 'html':
			return htmlPage(fault.status ?? 502);
		case 'errorBody':
			return errorReply('Falha temporária ao processar a requisição', 200);
		case 'empty':
			return { status: fault.status ?? 200, contentType: 'application/json', body: '' };
		case 'body':
			return jsonReply(fault.body ?? null, fault.status ?? 200);
		default:
			return undefined;
	}
}

/** The first half of a JSON body, as when a proxy cuts the connection mid-answer. */
export function truncate(reply: Reply): Reply {
	return { ...reply, status: 200, body: reply.body.slice(0, Math.floor(reply.body.length / 2)) };
}
