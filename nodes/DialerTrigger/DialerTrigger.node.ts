import { DateTime } from 'luxon';
import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { AGENT_EVENTS, checkPayload, isKnownEventCode, parseAgentIds } from './events';
import { buildEventItem } from './output';
import { SecretDigestCache } from './verification';

/** How long a credential read is trusted, and how often a mismatch may re-read it. */
const SECRET_CACHE_TTL_MS = 10_000;
const SECRET_RECHECK_MS = 1_000;

const secretCache = new SecretDigestCache(SECRET_CACHE_TTL_MS, SECRET_RECHECK_MS);

export class DialerTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dialer Trigger',
		name: 'dialerTrigger',
		icon: { light: 'file:../../icons/dialer.svg', dark: 'file:../../icons/dialer.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves exactly like 1. n8n 2.x evaluates an expression in its expression isolate
		// on every webhook call to a version 1 node (the Webhook node's old binaryData option),
		// about 7 ms of n8n's main thread per delivery (CPU profile of a burst); from 1.1 it does not.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts the workflow when an agent logs in or out, pauses, takes a call or becomes ' +
			'available in the dialer',
		defaults: { name: 'Dialer Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dialerApi', required: true }],
		eventTriggerDescription: 'Waiting for the dialer to send an agent event',
		activationMessage:
			'Agent events sent to the production URL now start this workflow. Make sure the URL is ' +
			'set in the dialer console.',
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Paste the Production URL above into the webhook settings of the dialer console and ' +
					'choose the same events there. Set a Secret there and the same value as Webhook ' +
					"Secret in this node's credential: without one, anyone who learns the URL can start " +
					'this workflow. The Test URL only works while this node is listening for a test event ' +
					'in the editor.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				// n8n's defaults build an expression isolate for every call to a community trigger before
				// its code runs; nothing in the node avoids that (docs/capacity.md), so users must be told.
				displayName:
					'When many agents act at once (shift start, breaks), set ' +
					'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on the n8n that serves this URL ' +
					"(in queue mode, on every webhook processor). With n8n's default settings, 150 " +
					'deliveries at once already lose events: the dialer gives up after 5 seconds and never ' +
					'sends them again.',
				name: 'burstNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				options: [...AGENT_EVENTS],
				description:
					'Agent events that start the workflow. Other events the dialer sends to this URL are ' +
					'acknowledged and ignored.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Agent IDs',
						name: 'agentIds',
						type: 'string',
						default: '',
						placeholder: 'e.g. 12, 34',
						description:
							'Only start the workflow for these agents: their numeric IDs (usuario_id), ' +
							'separated by commas. Leave empty for all agents.',
					},
				],
			},
		],
	};

	// The webhook URL is pasted into the dialer console by hand; there is no registration API.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Every answer is written here, before n8n creates the execution: n8n holds its expression
		// isolate (one per instance by default) for a community trigger until the answer is out,
		// so answering first lets the next delivery in sooner. The dialer never retries, so a
		// later failure to start the execution would lose the event either way.
		const response = this.getResponseObject();
		const answer = (status: number, body: IDataObject): IWebhookResponseData => {
			response.status(status).json(body);
			return { noWebhookResponse: true };
		};

		// The secret is checked before anything else, even for events this node ignores, so a
		// caller without it learns nothing (not even which events or agents are selected).
		// With the digest cached this costs one SHA-256, not a credential read.
		const accepted = await secretCache.verify(
			this.getNode().credentials?.dialerApi?.id,
			this.getHeaderData()['x-webhook-secret'],
			async () => (await this.getCredentials('dialerApi')).webhookSecret,
		);
		if (!accepted) return answer(401, { error: 'Missing or wrong X-Webhook-Secret header' });

		const check = checkPayload(this.getBodyData());
		if (!check.valid) return answer(400, { error: `Not a dialer agent event: ${check.reason}` });
		const { payload } = check;

		// New server events must never break workflows: acknowledge and skip them.
		if (!isKnownEventCode(payload.evento))
			return answer(200, { received: true, ignored: 'unknown event' });
		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(payload.evento))
			return answer(200, { received: true, ignored: 'event not selected' });
		const options = this.getNodeParameter('options', {}) as IDataObject;
		let agentIds: ReadonlySet<number> | undefined;
		try {
			agentIds = parseAgentIds(String(options.agentIds ?? ''));
		} catch (error) {
			throw new NodeOperationError(this.getNode(), error as Error, {
				description: 'Fix "Agent IDs" under Options: whole numbers separated by commas.',
			});
		}
		if (agentIds && !agentIds.has(payload.usuario_id)) {
			return answer(200, { received: true, ignored: 'agent not selected' });
		}

		const item = buildEventItem(payload, this.getTimezone(), DateTime.now());
		return {
			...answer(200, { received: true }),
			workflowData: [this.helpers.returnJsonArray(item)],
		};
	}
}
