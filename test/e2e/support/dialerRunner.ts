/**
 * Runs the Dialer node in the e2e run's n8n against an in-process simulator: one workflow per run
 * (Webhook → [Split Items →] Dialer → extra nodes), with what n8n answered, what the simulator
 * received and, for a failed run, the error n8n stored. Workflows are deactivated, not deleted,
 * so their executions stay in n8n's database for the secret scan at the end of the run.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';

import type { Credential, N8nApi, NodeSpec, WebhookWorkflow } from '../../../harness/n8n/api';
import { startSimulator } from '../../../harness/simulator';
import type {
	DialerSimulator,
	RecordedRequest,
	SimulatorOptions,
} from '../../../harness/simulator/types';
import { connectN8n, registerSecret } from '../setup/connection';

export type Json = Record<string, unknown>;

export interface Run {
	status: number;
	items: Json[];
	requests: RecordedRequest[];
	/** The stored error of a failed run, as JSON text. */
	error?: string;
}

export interface RunOptions {
	/** Input items for the Dialer node (otherwise one empty item). */
	items?: Json[];
	credential?: Credential;
	continueOnFail?: boolean;
	/** Nodes chained after the Dialer node; the answer is the last one's items. */
	after?: NodeSpec[];
	/**
	 * Queue mode: after this long without n8n's answer, the items are read from the run's stored
	 * execution. The webhook processor learns that a worker finished a job from a Redis message,
	 * and Bull (4.16) can miss one that comes right after it checked the job: the answer then never
	 * comes, though the execution ended (seen once in CI, the request cut after 300 s).
	 */
	unansweredAfterMs?: number;
}

type RunData = Record<string, Array<{ data?: { main?: Array<Array<{ json: Json }>> } }>>;

/** Splits the posted `items` array into n8n items before the Dialer node. */
const splitItems: NodeSpec = {
	name: 'Split Items',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: 'body.items', options: {} },
};

export class DialerRunner {
	private constructor(
		readonly api: N8nApi,
		readonly sim: DialerSimulator,
		readonly token: string,
		readonly timezone: string,
		public credential: Credential,
	) {}

	/** Connects to the run's n8n, starts a simulator with a distinctive token and makes a credential for it. */
	static async start(
		options: { simulator?: SimulatorOptions; timezone?: string } = {},
	): Promise<DialerRunner> {
		const token = `e2e-dialer-token-${randomUUID()}`;
		registerSecret(token);
		const api = await connectN8n();
		const sim = await startSimulator({ ...options.simulator, token });
		const runner = new DialerRunner(
			api,
			sim,
			token,
			options.timezone ?? 'America/Sao_Paulo',
			undefined as never,
		);
		runner.credential = await runner.createCredential();
		return runner;
	}

	async createCredential(overrides: Json = {}): Promise<Credential> {
		return await this.api.createCredential(
			'dialerApi',
			`Dialer e2e ${randomUUID().slice(0, 8)}`,
			this.credentialData(overrides),
		);
	}

	/** Changes the runner's credential in n8n, as a user saving it in the editor. */
	async updateCredential(overrides: Json = {}): Promise<void> {
		await this.api.updateCredential(this.credential.id, {
			name: this.credential.name,
			type: 'dialerApi',
			data: this.credentialData(overrides),
		});
	}

	private credentialData(overrides: Json): Json {
		return {
			baseUrl: this.sim.baseUrl,
			pathSegment: this.sim.pathSegment,
			token: this.token,
			authScheme: 'raw',
			ignoreSslIssues: false,
			...overrides,
		};
	}

	dialerNode(
		parameters: Json,
		options: Pick<RunOptions, 'credential' | 'continueOnFail'> = {},
	): NodeSpec {
		const used = options.credential ?? this.credential;
		return {
			name: 'Dialer',
			type: 'n8n-nodes-dialer.dialer',
			typeVersion: 1,
			parameters,
			credentials: { dialerApi: { id: used.id, name: used.name } },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		};
	}

	async run(parameters: Json, options: RunOptions = {}): Promise<Run> {
		this.sim.clearRequests();
		const nodes = [
			...(options.items ? [splitItems] : []),
			this.dialerNode(parameters, options),
			...(options.after ?? []),
		];
		// Every execution is kept with its data, so the run's secret scan searches all of them.
		const hook = await this.api.createWebhookWorkflow(nodes, {
			settings: {
				timezone: this.timezone,
				saveDataSuccessExecution: 'all',
				saveDataErrorExecution: 'all',
			},
		});
		try {
			const input = { items: options.items ?? [] };
			const answer =
				options.unansweredAfterMs === undefined
					? await hook.post<Json[] | Json>(input)
					: await this.answerOrExecution(hook, input, options.unansweredAfterMs);
			const items = Array.isArray(answer.body) ? answer.body : [answer.body];
			const result: Run = { status: answer.status, items, requests: [...this.sim.requests] };
			if (answer.status >= 500) {
				const [execution] = await this.api.waitForExecutions(hook.workflow.id, 1);
				result.error = JSON.stringify(
					(execution.data as { resultData?: { error?: unknown } }).resultData?.error,
				);
			}
			return result;
		} finally {
			await this.api.deactivateWorkflow(hook.workflow.id);
		}
	}

	/**
	 * n8n's answer, or after `waitMs` without one, what it would have answered: the items of the
	 * stored execution's last node.
	 */
	private async answerOrExecution(
		hook: WebhookWorkflow,
		input: Json,
		waitMs: number,
	): Promise<{ status: number; body: Json[] | Json }> {
		const posted = hook.post<Json[] | Json>(input);
		// Cut by undici after 300 s when it never comes.
		posted.catch(() => undefined);
		const patience = new AbortController();
		const unanswered = delay(waitMs, undefined, { signal: patience.signal }).catch(() => undefined);
		const answer = await Promise.race([posted, unanswered]).finally(() => patience.abort());
		if (answer) return answer;
		const [execution] = await this.api.waitForExecutions(hook.workflow.id, 1);
		console.log(
			`no answer from n8n within ${waitMs} ms; execution ${execution.id} ended ${execution.status}: items read from it`,
		);
		const { runData, lastNodeExecuted } = (
			execution.data as { resultData: { runData: RunData; lastNodeExecuted: string } }
		).resultData;
		const items = runData[lastNodeExecuted]?.at(-1)?.data?.main?.[0] ?? [];
		return {
			status: execution.status === 'success' ? 200 : 500,
			body: items.map((item) => item.json),
		};
	}

	/** The simulator's own answer to the same request, unwrapped: the oracle for the node's items. */
	async direct(operation: string, fields: Record<string, string>): Promise<unknown> {
		const res = await request(`${this.sim.apiUrl}/${operation}`, {
			method: 'POST',
			headers: { authorization: this.token, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields).toString(),
		});
		return (JSON.parse(await res.body.text()) as Json).data;
	}

	async close(): Promise<void> {
		await this.sim.close();
	}
}
