/**
 * Dialer Trigger workflows in the e2e run's n8n: a credential with a webhook secret, an active
 * workflow with only the trigger, raw POSTs to its production URL (for what a well-behaved
 * dialer never sends) and its executions. Everything made here is removed by `close()`.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';

import {
	nodeOutput,
	type Credential,
	type Execution,
	type N8nApi,
	type Workflow,
} from '../../../harness/n8n/api';
import {
	createTriggerFlow,
	simulatorCredential,
	sleep,
	TRIGGER,
} from '../../../harness/n8n/dialer';
import { startSimulator } from '../../../harness/simulator';
import type { AgentEvent, DialerSimulator } from '../../../harness/simulator/types';
import { connectN8n, registerSecret } from '../setup/connection';

export { inParallel, sleep, TRIGGER } from '../../../harness/n8n/dialer';
export { AGENT_EVENT_CODES as ALL_EVENTS } from '../../support/generatedDeliveries';

export interface Answer {
	status: number;
	body: unknown;
	ms: number;
}

/**
 * One raw POST; `headers` as an object, or as flat name/value pairs to repeat a header;
 * `dispatcher` to send from another local address.
 */
export async function post(
	url: string,
	body: string | Buffer,
	headers: Record<string, string> | string[],
	dispatcher?: Dispatcher,
): Promise<Answer> {
	const started = performance.now();
	const res = await request(url, { method: 'POST', headers, body, dispatcher });
	const text = await res.body.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// keep the text
	}
	return { status: res.statusCode, body: parsed, ms: performance.now() - started };
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
	return nodeOutput(execution, TRIGGER);
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
	credentialData(webhookSecret: string, previousWebhookSecret = ''): Record<string, unknown> {
		return { ...simulatorCredential(this.simulator, webhookSecret), previousWebhookSecret };
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
		parameters: {
			events: string[];
			options?: Record<string, unknown>;
			acceptUnauthenticatedDeliveries?: boolean;
		},
		timezone = 'Asia/Kolkata',
	): Promise<TriggerWorkflow> {
		const { api } = this;
		const { events, options, ...triggerParameters } = parameters;
		const { workflow, url } = await createTriggerFlow(api, {
			name: 'e2e trigger',
			credential,
			events,
			triggerOptions: options,
			triggerParameters,
			timezone,
		});
		this.workflows.push(workflow);
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
