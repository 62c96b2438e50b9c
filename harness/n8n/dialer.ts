/**
 * This package's nodes in a running n8n, for the e2e and queue-mode tests, the benchmarks and the
 * demo: the credential pointing at a simulator, Dialer Trigger workflows served on their production
 * URL, and deliveries with a bounded number under way.
 */
import { randomUUID } from 'node:crypto';

import {
	linearConnections,
	waitUntilServed,
	type Credential,
	type N8nApi,
	type NodeSpec,
	type Workflow,
} from './api';
import type { DialerSimulator } from '../simulator/types';

export const DIALER_TYPE = 'n8n-nodes-dialer.dialer';
export const TRIGGER_TYPE = 'n8n-nodes-dialer.dialerTrigger';
/** The Dialer Trigger's only version. */
export const TRIGGER_VERSION = 2;
/**
 * The one n8n setting that kept bursts whole at 150 and 600 deliveries in flight with the live
 * alerts example behind the trigger (docs/capacity.md; n8n calls it less secure and soon to be
 * deprecated): expressions run in n8n's process, with no isolate to build per webhook call and per
 * execution. With n8n's defaults, larger isolate pools or lazy acquisition, bursts lose events.
 */
export const RECOMMENDED_N8N_SETTINGS: Readonly<Record<string, string>> = {
	N8N_EXPRESSION_ENGINE: 'legacy',
};
export const REPORT_TRIGGER_TYPE = 'n8n-nodes-dialer.dialerReportTrigger';

/**
 * Poll Times every `seconds` seconds (a divisor of 60): n8n 2.x refuses Poll Times under a minute,
 * but takes one cron per second of the minute.
 */
export function pollEverySeconds(seconds: number) {
	if (60 % seconds !== 0) throw new Error(`${seconds} s does not divide a minute`);
	return {
		item: Array.from({ length: 60 / seconds }, (_, index) => ({
			mode: 'custom',
			cronExpression: `${index * seconds} * * * * *`,
		})),
	};
}
/** The name trigger workflows made here give the Dialer Trigger node. */
export const TRIGGER = 'Dialer Trigger';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every field of the `dialerApi` credential, pointing at `sim` with its token. */
export function simulatorCredential(
	sim: DialerSimulator,
	webhookSecret = '',
): Record<string, unknown> {
	return {
		baseUrl: sim.baseUrl,
		pathSegment: sim.pathSegment,
		token: sim.token,
		authScheme: 'raw',
		ignoreSslIssues: false,
		webhookSecret,
		previousWebhookSecret: '',
		reportUser: '',
		reportPassword: '',
	};
}

/** A node's `credentials` entry for a saved Dialer credential. */
export function usesCredential(credential: Credential): NodeSpec['credentials'] {
	return { dialerApi: { id: credential.id, name: credential.name } };
}

/** A Dialer Trigger node's production URL: its webhook path `webhook` under the node's webhookId. */
export function triggerUrl(api: N8nApi, webhookId: string): string {
	return `${api.webhookBaseUrl}/webhook/${webhookId}/webhook`;
}

export interface TriggerFlow {
	workflow: Workflow;
	/** Production URL (on the webhook processor in queue mode). */
	url: string;
}

/**
 * Creates and activates `Dialer Trigger → after…` (chained in order) and waits until its
 * production URL is served. If n8n refuses to publish it, the workflow is deleted and the
 * refusal thrown: N8nApiError on n8n 1.x (the activation answers 400), PublicationError on 2.x
 * (publication status "failed", with the trigger's message).
 */
export async function createTriggerFlow(
	api: N8nApi,
	options: {
		credential: Credential;
		events: string[];
		triggerOptions?: Record<string, unknown>;
		/** Other trigger parameters (e.g. acceptUnauthenticatedDeliveries). */
		triggerParameters?: Record<string, unknown>;
		after?: NodeSpec[];
		name: string;
		timezone: string;
	},
): Promise<TriggerFlow> {
	const webhookId = randomUUID();
	const credentials = usesCredential(options.credential);
	const nodes = [
		{
			name: TRIGGER,
			type: TRIGGER_TYPE,
			typeVersion: TRIGGER_VERSION,
			webhookId,
			parameters: {
				events: options.events,
				options: options.triggerOptions ?? {},
				...options.triggerParameters,
			},
			credentials,
		},
		...(options.after ?? []),
	].map((node, i) => ({ ...node, position: [i * 220, 0] as [number, number] }));
	const workflow = await api.createWorkflow({
		name: `${options.name} ${webhookId.slice(0, 8)}`,
		nodes,
		connections: linearConnections(nodes.map((node) => node.name)),
		settings: { timezone: options.timezone },
	});
	try {
		await api.activateWorkflow(workflow.id);
		await api.awaitPublication(workflow.id);
	} catch (error) {
		await api.deleteWorkflow(workflow.id).catch(() => undefined);
		throw error;
	}
	const url = triggerUrl(api, webhookId);
	await waitUntilServed(url);
	return { workflow, url };
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
