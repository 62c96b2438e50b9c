/**
 * Dialer Trigger workflows in the e2e run's n8n: a credential with a webhook secret, an active
 * workflow with only the trigger, raw POSTs to its production URL (for what a well-behaved
 * dialer never sends) and its executions. Everything made here is removed by `close()`.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

import type { Credential, Execution, N8nApi, Workflow } from '../../../scripts/n8n/api';
import { startSimulator } from '../../../simulator';
import type { AgentEvent, DialerSimulator } from '../../../simulator/types';
import { connectN8n, registerSecret } from '../setup/connection';

export const TRIGGER = 'Dialer Trigger';
export { AGENT_EVENT_CODES as ALL_EVENTS } from '../../support/generatedDeliveries';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
	status: number;
	body: unknown;
	ms: number;
}

/** One raw POST; `headers` as an object, or as flat name/value pairs to repeat a header. */
export async function post(
	url: string,
	body: string | Buffer,
	headers: Record<string, string> | string[],
): Promise<Answer> {
	const started = performance.now();
	const res = await request(url, { method: 'POST', headers, body });
	const text = await res.body.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// keep the text
	}
	return { status: res.statusCode, body: parsed, ms: performance.now() - started };
}

/** Runs `send` over every case with at most `concurrency` under way; answers in case order. */
export async function inParallel<T, R>(
	cases: T[],
	concurrency: number,
	send: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array(cases.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < cases.length) {
				const index = next++;
				results[index] = await send(cases[index], index);
			}
		}),
	);
	return results;
}

export function event(
	evento: string,
	usuarioId: number,
	extra: Record<string, unknown> = {},
): AgentEvent {
	const estado: Record<string, string> = {
		'agente.login': 'online',
		'agente.logout': 'offline',
		'agente.pause_in': 'paused',
		'agente.pause_out': 'online',
		'agente.busy': 'busy',
		'agente.ringing': 'ringing',
		'agente.online': 'online',
	};
	return {
		estado: estado[evento] ?? 'online',
		t: 1763800000,
		evento,
		usuario_id: usuarioId,
		...extra,
	};
}

/** The items the trigger gave its execution. */
export function triggerItems(execution: Execution): Array<Record<string, unknown>> {
	const data = execution.data as {
		resultData: {
			runData: Record<
				string,
				Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
			>;
		};
	};
	return data.resultData.runData[TRIGGER][0].data.main[0].map((item) => item.json);
}

export interface TriggerWorkflow {
	workflow: Workflow;
	url: string;
	/** Waits until exactly `count` executions exist, then a little longer to catch extras. */
	expectExecutions(count: number): Promise<Execution[]>;
	/** The same, without their data: the count holds even when n8n cannot serve some execution's data. */
	expectExecutionCount(count: number): Promise<Execution[]>;
}

export class TriggerWorkflows {
	private readonly credentials: Credential[] = [];

	private readonly workflows: Workflow[] = [];

	private constructor(
		readonly api: N8nApi,
		readonly simulator: DialerSimulator,
	) {}

	/** Connects to the run's n8n and starts a simulator (its token registered as a secret). */
	static async start(): Promise<TriggerWorkflows> {
		const api = await connectN8n();
		const simulator = await startSimulator();
		registerSecret(simulator.token);
		return new TriggerWorkflows(api, simulator);
	}

	/** The credential's fields, pointing at the simulator. */
	credentialData(webhookSecret: string): Record<string, unknown> {
		return {
			baseUrl: this.simulator.baseUrl,
			pathSegment: this.simulator.pathSegment,
			token: this.simulator.token,
			authScheme: 'raw',
			ignoreSslIssues: false,
			webhookSecret,
			reportUser: '',
			reportPassword: '',
		};
	}

	async createCredential(webhookSecret: string): Promise<Credential> {
		const credential = await this.api.createCredential(
			'dialerApi',
			`Dialer ${randomUUID().slice(0, 8)}`,
			this.credentialData(webhookSecret),
		);
		this.credentials.push(credential);
		return credential;
	}

	/** An active workflow with only the trigger, answering on its production URL. */
	async createTriggerWorkflow(
		credential: Credential,
		parameters: { events: string[]; options?: Record<string, unknown> },
		timezone = 'Asia/Kolkata',
	): Promise<TriggerWorkflow> {
		const { api } = this;
		const webhookId = randomUUID();
		const workflow = await api.createWorkflow({
			name: `e2e trigger ${webhookId.slice(0, 8)}`,
			nodes: [
				{
					name: TRIGGER,
					type: 'n8n-nodes-dialer.dialerTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { events: parameters.events, options: parameters.options ?? {} },
					credentials: { dialerApi: { id: credential.id, name: credential.name } },
				},
			],
			connections: {},
			settings: { timezone },
		});
		this.workflows.push(workflow);
		await api.activateWorkflow(workflow.id);
		const url = `${api.webhookBaseUrl}/webhook/${webhookId}/webhook`;
		// A production webhook can answer 404 for a moment after activation.
		for (let i = 0; i < 50; i++) {
			const probe = await post(url, '{}', { 'content-type': 'application/json' });
			if (probe.status !== 404) break;
			await sleep(200);
		}
		const expectExecutionCount = async (count: number) => {
			const deadline = Date.now() + 60000;
			const finished = async () =>
				(await api.listExecutions(workflow.id)).filter((e) => e.stoppedAt);
			while ((await finished()).length < count && Date.now() < deadline) await sleep(250);
			await sleep(1000);
			const all = await finished();
			expect(all).toHaveLength(count);
			return all;
		};
		return {
			workflow,
			url,
			expectExecutionCount,
			expectExecutions: async (count) => {
				await expectExecutionCount(count);
				return await api.listExecutions(workflow.id, true);
			},
		};
	}

	async close(): Promise<void> {
		for (const workflow of this.workflows) {
			await this.api.deactivateWorkflow(workflow.id).catch(() => undefined);
			await this.api.deleteWorkflow(workflow.id).catch(() => undefined);
		}
		for (const credential of this.credentials)
			await this.api.deleteCredential(credential.id).catch(() => undefined);
		await this.simulator.close();
	}
}
