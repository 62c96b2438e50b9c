/** Public types of the simulator: what tests, scripts and benchmarks program against. */
import type { SeededData } from './model';
import type { FichaSaves, ReportName, RowOrder } from './listing';
import type { RecordingLinks, StorageRequest } from './recordings';

export type { FichaSaves, RowOrder } from './listing';
export type { RecordingLinks, StorageRequest } from './recordings';

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
	/**
	 * IANA zone of the dialer's wall clock: the times its reports write and the de/ate it reads.
	 * Default: this process's zone.
	 */
	timezone?: string;
	/** Webhook delivery timeout; the contract's 5000 ms unless a test needs it shorter. */
	webhookTimeoutMs?: number;
	/** How getRQ4 links recordings (`arquivo`); default absolute URLs on the dialer. */
	recordingLinks?: RecordingLinks;
	/** The order of every report answer's rows: as written (default) or shuffled for each answer. */
	rowOrder?: RowOrder;
	/**
	 * Every report row is written from 0 to this many milliseconds after the time it carries (a
	 * delay fixed per row) and shows only from then on; default 0.
	 */
	lateWritesMs?: number;
	/**
	 * What a ficha's status change (`rows.add` with `ficha`) does to how getFP1 dates and selects
	 * it; default `fixed`: `data` stays, and `de`/`ate` filter by it.
	 */
	fichaSaves?: FichaSaves;
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
	/** When the answer was handed to the socket (its body built), if one was. */
	answeredAt?: number;
}

export type FaultKind =
	| 'latency'
	| 'status'
	| 'html'
	| 'truncatedJson'
	| 'errorBody'
	| 'reset'
	| 'empty'
	// To the storage origin: an API operation's POST (307, same path), a recording (302).
	| 'redirect'
	// Recording downloads (operation `recording`) only:
	| 'missing'
	| 'loginPage'
	| 'slowBody'
	| 'compressed'
	| 'untyped'
	// An answer given by the test (`body`):
	| 'body';

export interface Fault {
	/** An API operation, or `recording` for recording downloads; all when absent. */
	operation?: string;
	kind: FaultKind;
	status?: number;
	latencyMs?: number;
	times?: number;
	/** Recording downloads: only the recording of this call (protocolo or uid). */
	recording?: string;
	/** slowBody: bytes sent per second (default 2,000). */
	bytesPerSecond?: number;
	/** `body`: the JSON answered instead (an empty or failure-shaped answer), HTTP 200 by default. */
	body?: unknown;
}

/**
 * How the reports show and filter times where the contract leaves it open; set at any time
 * (`sim.reports.quirks`, control API `POST /__simulator/quirks`).
 */
export interface ReportQuirks {
	/** getFP1, getRQ4 and getRE2 show row times as `dd/mm/yyyy hh:mm`, without seconds. */
	minuteTimes?: boolean;
	/** Every report reads only the minutes of `de`: a read returns its whole first minute. */
	deMinutes?: boolean;
}

export interface WebhookReceiver {
	url: string;
	secret?: string;
	events?: string[];
	/**
	 * Every number of the payload sent as text (`"t":"1763800000"`, `"usuario_id":"42"`): the
	 * API's clients see ids both ways, and some dialer builds send every field as text.
	 */
	numbersAsText?: boolean;
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

/** Rows to add to a report while the simulator runs (control API `POST /__simulator/rows`). */
export interface RowArrival {
	report: ReportName;
	/** How many rows; default 1. */
	count?: number;
	/** Time the first row carries (ficha, call or classification time): epoch ms or ISO 8601; default now. */
	at?: number | string;
	/** Milliseconds between the times of consecutive rows; default 0 (all in the same second). */
	stepMs?: number;
	/**
	 * Milliseconds from now until reports show the rows, for rows written after their time;
	 * default 0. For getRQ4 the call is in the history at once and its classification from then.
	 */
	visibleAfterMs?: number;
	/** getFP1: the form (id or name); default any. */
	form?: number | string;
	/** getFP1: the ficha's status; default any of the seeded ones. */
	status?: string;
	/**
	 * getFP1: instead of adding a ficha, this ficha's `status` changes at once (the report lists it
	 * once, with the new status).
	 */
	ficha?: number;
	/** getRQ4, getRE2: the result the agent classified; default any of the seeded ones. */
	resultado?: string;
	/**
	 * getRQ4: instead of adding a call, the classified call with this protocol is classified again:
	 * a row of its own with `at` as its time and `resultado`, listed beside the earlier ones.
	 */
	protocolo?: string;
	/** getRQ4, getHC2, getRE2: the agent (id or login); default any. */
	agent?: number | string;
	/** getRE2: the inbound route (id or description); default any. */
	route?: number | string;
	/**
	 * getRE2: the caller as the report shows it, e.g. `Anônimo` for a withheld number (digits are
	 * formatted as a phone number); default a random phone.
	 */
	caller?: string;
	/** getHC2: the call's direction; default either. */
	tipo?: 'Gerada' | 'Recebida';
	/** getRQ4, getHC2: the call's duration in seconds (and its recording's); default 20 to 900. */
	durationSeconds?: number;
	/** getRQ4, getHC2: whether the call was recorded; default yes. */
	recorded?: boolean;
}

export interface ArrivedRow {
	report: RowArrival['report'];
	/** Ficha number (getFP1), call id (getRQ4, getHC2) or inbound call id (getRE2). */
	id: number;
	/** Protocol of the call (getRQ4, getHC2). */
	protocolo?: string;
	/** Epoch ms of the time the row carries, whole seconds. */
	at: number;
	/** Epoch ms from which reports show it. */
	visibleFrom: number;
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
	/** Report rows that appear over time. */
	rows: { add(arrival: RowArrival): ArrivedRow[] };
	/** How reports show and filter times; change its fields at any time. */
	reports: { quirks: ReportQuirks };
	/**
	 * For benchmarks (`on`, default off): a 200 answer is sent again, byte for byte, for the same
	 * operation and fields, without running the operation; turning it off forgets them.
	 */
	replay: { on: boolean };
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
	recordings: {
		/** How getRQ4 links recordings from now on. */
		links: RecordingLinks;
		/** The bytes served for a call's recording (by protocolo or uid); undefined without one. */
		file(call: string): Buffer | undefined;
	};
	/** The second origin: serves the same recordings without a token, records what reached it. */
	storage: { baseUrl: string; requests: StorageRequest[] };
	close(): Promise<void>;
}
