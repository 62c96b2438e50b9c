/**
 * The workflows compared: this package's nodes against what a user builds from n8n's generic
 * nodes for the same job. Every run workflow starts with a Webhook that answers when the
 * workflow has finished (so the client's wall time covers the whole run, saving included) and
 * splits the posted `items` into n8n items, so both sides get identical input.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

import { DIALER_TYPE } from '../../n8n/dialer';
import {
	linearConnections,
	waitUntilServed,
	webhookNode,
	type Credential,
	type N8nApi,
	type NodeSpec,
	type WorkflowNode,
} from '../../n8n/api';

export type Json = Record<string, unknown>;

/** What n8n keeps of a successful execution: nothing (fast) or everything (n8n's default). */
export type SaveMode = 'none' | 'all';

export interface TimedAnswer {
	status: number;
	ms: number;
	body: unknown;
}

export interface RunWorkflow {
	id: string;
	url: string;
	/** POSTs `{ items }`; resolves when n8n answers, i.e. when the run has finished. */
	post(items: Json[]): Promise<TimedAnswer>;
}

export async function timedPost(
	url: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<TimedAnswer> {
	const started = performance.now();
	const res = await request(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
	const text = await res.body.text();
	const ms = performance.now() - started;
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// Not JSON: keep the text.
	}
	return { status: res.statusCode, ms, body: parsed };
}

/** A production webhook can answer 404 for a moment after activation. */
function place(nodes: NodeSpec[], first: number): WorkflowNode[] {
	return nodes.map((node, index) => ({
		...node,
		position: node.position ?? [(index + first) * 220, 0],
	}));
}

export function settingsFor(save: SaveMode, timezone: string): Json {
	return {
		saveDataSuccessExecution: save,
		saveDataErrorExecution: 'all',
		saveManualExecutions: false,
		timezone,
		executionOrder: 'v1',
	};
}

/**
 * Webhook → Split Items → `nodes…`. `answer: 'noData'` answers with an empty body once the run
 * is over (the measured runs: sending 100,000 items back would time n8n's serialiser, not the
 * nodes); `allEntries` answers with the last node's items (the correctness checks).
 */
export async function createRunWorkflow(
	api: N8nApi,
	nodes: NodeSpec[],
	options: { save: SaveMode; timezone: string; answer: 'noData' | 'allEntries'; name: string },
): Promise<RunWorkflow> {
	const path = randomUUID();
	const webhook = webhookNode(path, { responseData: options.answer });
	const split: NodeSpec = {
		name: 'Split Items',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
	};
	const all = [webhook, split, ...nodes];
	const workflow = await api.createWorkflow({
		name: options.name,
		nodes: place(all, 0),
		connections: linearConnections(all.map((node) => node.name)),
		settings: settingsFor(options.save, options.timezone),
	});
	await api.activateWorkflow(workflow.id);
	const url = `${api.baseUrl}/webhook/${path}`;
	await waitUntilServed(url);
	return { id: workflow.id, url, post: (items) => timedPost(url, { items }) };
}

/** The Dialer node with the given operation parameters. */
export function dialerNode(credential: Credential, parameters: Json): NodeSpec {
	return {
		name: 'Dialer',
		type: DIALER_TYPE,
		typeVersion: 1,
		parameters,
		credentials: { dialerApi: { id: credential.id, name: credential.name } },
	};
}

/**
 * n8n's HTTP Request posting form fields, authenticated by a Header Auth credential. The
 * dialer answers `application/vnd.api+json`, which HTTP Request leaves unparsed unless the
 * response format is forced to JSON (then Split Out would silently yield one item).
 */
export function httpRequestNode(
	credential: Credential,
	url: string,
	fields: Record<string, string>,
	options: Json = {},
): NodeSpec {
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			contentType: 'form-urlencoded',
			specifyBody: 'keypair',
			bodyParameters: {
				parameters: Object.entries(fields).map(([name, value]) => ({ name, value })),
			},
			options: { response: { response: { responseFormat: 'json' } }, ...options },
		},
		credentials: { httpHeaderAuth: { id: credential.id, name: credential.name } },
	};
}

export function splitOutNode(field: string): NodeSpec {
	return {
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} },
	};
}
