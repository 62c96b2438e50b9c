import type { Reply } from './replies';

/** What makes two API requests the same request. */
export interface ReplayKey {
	operation: string;
	method: string;
	authorization: string;
	mediaType: string;
	fields: Record<string, string>;
}

/**
 * For benchmarks: while on, an API request answered with 200 is answered again, byte for byte,
 * when the same request comes again (operation, method, token, content type and fields), without
 * running the operation. What the dialer spends building a 100,000-row answer (about a second, on
 * the cores n8n runs on) is then out of what is timed. Faults still apply; the repeated answer
 * does not follow rows that arrive or become visible meanwhile. Turning it off forgets every
 * answer kept.
 */
export class ReplayedAnswers {
	private readonly kept = new Map<string, Reply>();
	private enabled = false;

	get on(): boolean {
		return this.enabled;
	}

	set on(on: boolean) {
		this.enabled = on;
		if (!on) this.kept.clear();
	}

	/** The answer kept for this request, if replaying. */
	find(request: ReplayKey): Reply | undefined {
		return this.enabled ? this.kept.get(keyOf(request)) : undefined;
	}

	/** `reply`, kept encoded for this request when replaying and it succeeded. */
	keep(request: ReplayKey, reply: Reply): Reply {
		if (!this.enabled || reply.status !== 200) return reply;
		const kept = { ...reply, bytes: Buffer.from(reply.body) };
		this.kept.set(keyOf(request), kept);
		return kept;
	}
}

const keyOf = ({ fields, ...request }: ReplayKey) =>
	JSON.stringify([request, Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1))]);
