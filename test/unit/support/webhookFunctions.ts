import type {
	IDataObject,
	IHookFunctions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { DialerTrigger } from '../../../nodes/DialerTrigger/DialerTrigger.node';
import { AGENT_EVENT_CODES } from '../../support/generatedDeliveries';

export const SECRET = 'shared-secret-1';
export const ALL_EVENTS = AGENT_EVENT_CODES;
export const login = { estado: 'online', t: 1763800000, evento: 'agente.login', usuario_id: 42 };

// The secret cache lives for the whole n8n process; a fresh credential ID per delivery
// setup keeps the tests independent of each other.
let credentialCounter = 0;

export interface Delivery {
	body?: unknown;
	headers?: Record<string, unknown>;
	/** The credential's Webhook Secret (default SECRET); the header carries SECRET unless `headers` says otherwise. */
	secret?: string;
	/** The credential's Previous Webhook Secret (default none). */
	previousSecret?: string;
	events?: string[];
	options?: IDataObject;
	/** A switch; text as an expression gives it ("false"). */
	acceptUnauthenticatedDeliveries?: boolean | string;
	/** The client address n8n reports (`req.ip`; default 127.0.0.1). */
	ip?: string;
	timezone?: string;
	credentialId?: string;
}

/**
 * A stand-in for n8n's IWebhookFunctions around one delivery to the Dialer Trigger: what the
 * node wrote to the response (status, JSON body) and the credential and body reads it made.
 */
export function fakeWebhookFunctions(delivery: Delivery = {}) {
	const written: { status?: number; body?: unknown } = {};
	let writes = 0;
	const response = {
		status(code: number) {
			written.status = code;
			return response;
		},
		json(body: unknown) {
			written.body = body;
			writes += 1;
			return response;
		},
	};
	const getCredentials = jest.fn(async () => ({
		webhookSecret: delivery.secret ?? SECRET,
		previousWebhookSecret: delivery.previousSecret ?? '',
	}));
	const getBodyData = jest.fn(() => delivery.body as IDataObject);
	const warn = jest.fn();
	const parameters: IDataObject = {
		events: delivery.events ?? ALL_EVENTS,
		options: delivery.options ?? {},
		acceptUnauthenticatedDeliveries: delivery.acceptUnauthenticatedDeliveries ?? false,
	};
	const credentialId = delivery.credentialId ?? `cred-${++credentialCounter}`;
	const node = new DialerTrigger();
	const context = {
		getNode: () => ({
			name: 'Dialer Trigger',
			type: 'n8n-nodes-dialer.dialerTrigger',
			typeVersion: node.description.version,
			position: [0, 0],
			parameters,
			credentials: { dialerApi: { id: credentialId, name: 'Dialer' } },
		}),
		getHeaderData: () => ({ 'x-webhook-secret': SECRET, ...delivery.headers }),
		getRequestObject: () => ({ ip: delivery.ip ?? '127.0.0.1' }),
		// one workflow per credential: refusals are counted (and logged) per workflow
		getWorkflow: () => ({ id: `wf-${credentialId}`, name: 'Unit' }),
		logger: { warn },
		getBodyData,
		getCredentials,
		getNodeParameter: (name: string, fallback: unknown) => parameters[name] ?? fallback,
		getTimezone: () => delivery.timezone ?? 'America/Sao_Paulo',
		getResponseObject: () => response,
		helpers: {
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	};
	const call = () => node.webhook.call(context as unknown as IWebhookFunctions);
	const listen = () =>
		node.webhookMethods.default.checkExists.call(context as unknown as IHookFunctions);
	return { call, listen, written, writeCount: () => writes, getCredentials, getBodyData, warn };
}

/** The items of the execution the node asked n8n to start (none when it started nothing). */
export function startedItems(result: IWebhookResponseData): IDataObject[] {
	return (result.workflowData?.[0] ?? []).map((item) => item.json);
}
