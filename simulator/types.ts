/** Public types of the simulator: what tests, scripts and benchmarks program against. */
import type { SeededData } from './model';

export type PermissionMode = 'off' | 'team' | 'operation';
export type EnvelopeMode = 'data' | 'bare';

export interface SimulatorOptions {
	/** Loopback only: the simulator is a test tool. */
	host?: string;
	port?: number;
	pathSegment?: string;
	token?: string;
	tls?: boolean;
	seed?: number;
	fichas?: number;
	calls?: number;
	permissionMode?: PermissionMode;
	envelope?: EnvelopeMode;
	idsAsStrings?: boolean;
	/** Day the seeded history is anchored to (its local calendar date counts); default: the day of start. */
	referenceDate?: Date;
	/** Webhook delivery timeout; the contract's 5000 ms unless a test needs it shorter. */
	webhookTimeoutMs?: number;
}

export interface RecordedRequest {
	operation: string;
	method: string;
	path: string;
	headers: Record<string, string>;
	contentType: string;
	fields: Record<string, string>;
	/** 0 when the connection was reset without an answer. */
	status: number;
	receivedAt: number;
}

export type FaultKind =
	'latency' | 'status' | 'html' | 'truncatedJson' | 'errorBody' | 'reset' | 'empty';

export interface Fault {
	operation?: string;
	kind: FaultKind;
	status?: number;
	latencyMs?: number;
	times?: number;
}

export interface WebhookReceiver {
	url: string;
	secret?: string;
	events?: string[];
}

export interface AgentEvent {
	evento: string;
	estado: string;
	t: number;
	usuario_id: number;
	[extra: string]: unknown;
}

export interface Delivery {
	receiverId: string;
	event: AgentEvent;
	status?: number;
	error?: string;
	ms: number;
	secretSent: boolean;
}

export interface ShiftOptions {
	eventsPerSecond: number;
	maxEvents?: number;
	durationMs?: number;
}

export interface DialerSimulator {
	baseUrl: string;
	apiUrl: string;
	pathSegment: string;
	token: string;
	/** PEM of the self-signed certificate in TLS mode, for clients that want to trust exactly it. */
	certificate?: string;
	data: SeededData;
	requests: RecordedRequest[];
	clearRequests(): void;
	faults: { add(f: Fault): void; clear(): void };
	webhooks: {
		register(r: WebhookReceiver): string;
		unregister(id: string): void;
		clear(): void;
		emit(e: AgentEvent): Promise<Delivery[]>;
		deliveries: Delivery[];
		/** Resolves once every delivery started so far has finished (API calls deliver in the background). */
		settled(): Promise<void>;
	};
	shift: {
		start(o: ShiftOptions): void;
		stop(): Promise<void>;
		running: boolean;
		/** Events of all shifts so far, in the order they happened. */
		events: AgentEvent[];
	};
	close(): Promise<void>;
}
