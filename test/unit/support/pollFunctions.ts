import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';
import { request } from 'undici';

import type { DialerSimulator } from '../../../harness/simulator';
import { fakePrepareBinaryData } from './binaryStore';
import { followingRedirects } from './redirects';

export interface FakePollOptions {
	/** The dialer the requests go to over HTTP... */
	sim?: DialerSimulator;
	/** ...or, in-process, the answer's body for a request's form (always HTTP 200 JSON). */
	answer?: (form: URLSearchParams) => unknown;
	parameters: Record<string, unknown>;
	mode?: 'trigger' | 'manual';
	timezone?: string;
	/** The node's static data, kept across polls as n8n keeps it. */
	staticData?: IDataObject;
	/**
	 * Which workflow the trigger is in (polls of one trigger share it and the node's ID); by
	 * default one per static data object.
	 */
	workflowId?: string;
	credentials?: Partial<ICredentialDataDecryptedObject>;
	/** Receives what the node logs as warnings. */
	warnings?: string[];
	/**
	 * Makes the context n8n 2.x's (it stages polls with `__runPoll` and settles the emit's done
	 * promise): what the node emits itself lands here.
	 */
	emitted?: Emitted[];
}

/** The done promise n8n hands with an emit (n8n-workflow does not export its type). */
type DonePromise = NonNullable<Parameters<IPollFunctions['__emit']>[2]>;

export interface Emitted {
	items: INodeExecutionData[][];
	done: DonePromise;
	/** The node's static data when it emitted: what n8n stores with the execution. */
	state: IDataObject;
}

function createDeferredPromise<T>() {
	let resolve!: (value: T) => void;
	let reject!: (error: Error) => void;
	const promise = new Promise<T>((ok, fail) => {
		resolve = ok;
		reject = fail;
	});
	return { promise, resolve, reject };
}

/** Each static data object is one trigger's unless a test names the workflow. */
const workflowOf = new WeakMap<IDataObject, string>();
let workflows = 0;

/**
 * A stand-in for n8n's IPollFunctions: parameters by name (dotted paths), the node's static
 * data, an HTTP helper that sends the request to the simulator as n8n's client would, and a
 * binary store for recordings.
 */
export function fakePollFunctions(options: FakePollOptions): IPollFunctions {
	const sim = options.sim ?? {
		baseUrl: 'https://dialer.test',
		pathSegment: 'ipbox',
		token: 'model-token',
	};
	const node: INode = {
		id: 'report-trigger-1',
		name: 'Dialer Report Trigger',
		type: 'n8n-nodes-dialer.dialerReportTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const credentials: ICredentialDataDecryptedObject = {
		baseUrl: sim.baseUrl,
		pathSegment: sim.pathSegment,
		token: sim.token,
		authScheme: 'raw',
		ignoreSslIssues: false,
		webhookSecret: '',
		reportUser: '',
		reportPassword: '',
		...options.credentials,
	} as ICredentialDataDecryptedObject;
	const staticData = options.staticData ?? {};
	if (!workflowOf.has(staticData)) workflowOf.set(staticData, `workflow-${++workflows}`);

	const context = {
		getNode: () => node,
		getWorkflow: () => ({ id: options.workflowId ?? workflowOf.get(staticData), active: true }),
		logger: { warn: (message: string) => options.warnings?.push(message) },
		getMode: () => options.mode ?? 'trigger',
		getTimezone: () => options.timezone ?? 'America/Sao_Paulo',
		getWorkflowStaticData: () => staticData,
		getCredentials: async () => credentials,
		...(options.emitted && {
			__runPoll: async (poll: () => Promise<unknown>) => await poll(),
			__emit: (items: INodeExecutionData[][], _response: unknown, done: DonePromise) =>
				options.emitted!.push({
					items,
					done,
					state: JSON.parse(JSON.stringify(staticData)) as IDataObject,
				}),
		}),
		getNodeParameter(name: string, fallback?: unknown) {
			let value: unknown = options.parameters;
			for (const key of name.split('.')) {
				if (typeof value !== 'object' || value === null || !(key in value)) {
					if (arguments.length >= 2) return fallback;
					throw new Error(`Could not get parameter "${name}"`);
				}
				value = (value as Record<string, unknown>)[key];
			}
			return value;
		},
		helpers: {
			createDeferredPromise,
			/**
			 * n8n's client: the request as the node makes it (GET when it names no method), redirects
			 * followed as n8n follows them unless told not to.
			 */
			httpRequest: async (asked: IHttpRequestOptions) =>
				await followingRedirects(asked, async (sent) => {
					if (options.answer) {
						const body = options.answer(new URLSearchParams(String(sent.body)));
						return {
							statusCode: 200,
							headers: { 'content-type': 'application/json' },
							body: Buffer.from(JSON.stringify(body)),
						};
					}
					const response = await request(sent.url, {
						method: sent.method ?? 'GET',
						headers: sent.headers as Record<string, string>,
						body: sent.body === undefined ? undefined : String(sent.body),
						signal: sent.abortSignal,
					});
					return {
						statusCode: response.statusCode,
						headers: response.headers,
						body:
							sent.encoding === 'stream'
								? response.body
								: Buffer.from(await response.body.arrayBuffer()),
					};
				}),
			prepareBinaryData: fakePrepareBinaryData(),
		},
	};
	return context as unknown as IPollFunctions;
}
