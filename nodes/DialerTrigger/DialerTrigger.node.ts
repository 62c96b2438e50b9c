import { DateTime } from 'luxon';
import {
	NodeConnectionTypes,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import {
	checkBeforeListening,
	loadSecretDigests,
	readAgentIds,
	readAllowedRanges,
	requiresSecret,
} from './access';
import { webhookSecretDigests } from '../shared/processCaches';
import { countedSubtitle } from '../shared/subtitle';
import { dialerApiConnection } from '../shared/transport/credentialTest';
import { isAddressAllowed } from './addresses';
import { DialerClocks } from './dialerClock';
import { AGENT_EVENTS, checkPayload, isKnownEventCode } from './events';
import { freshnessProblem, limitSeconds } from './freshness';
import { buildEventItem } from './output';
import { triggerProperties } from './properties';
import { Receipts } from './receipts';
import { RefusalCounter, type Refusal } from './refusals';
import { SecretDigestCache } from './verification';

/** How long a credential read is trusted, and how often a mismatch may re-read it. */
const SECRET_CACHE_TTL_MS = 10_000;
const SECRET_RECHECK_MS = 1_000;

// The digests live in processCaches.ts with the other caches. The refusal counts, the dialer
// clocks and the receipt numbers are state, not caches (processCaches.ts says why): they stay
// here.
const secretCache = new SecretDigestCache(
	SECRET_CACHE_TTL_MS,
	SECRET_RECHECK_MS,
	undefined,
	webhookSecretDigests,
);
const refusals = new RefusalCounter(60_000);
const dialerClocks = new DialerClocks();
const receipts = new Receipts();

export class DialerTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dialer Trigger',
		name: 'dialerTrigger',
		icon: { light: 'file:../../icons/dialer.svg', dark: 'file:../../icons/dialer.dark.svg' },
		group: ['trigger'],
		// Not 1: n8n evaluates an expression in its expression isolate on every webhook call to a
		// version 1 start node (the Webhook node's old binaryData option), about 7 ms of n8n's main
		// thread per delivery.
		version: 2,
		// A page, no #anchor: n8n opens this link as it is, but appends ?utm_… after the whole
		// codex link (.node.json), where an anchor would swallow it and be lost.
		documentationUrl:
			'https://github.com/n8n-nodes-dialer/n8n-nodes-dialer/blob/main/docs/dialer-trigger.md',
		subtitle: countedSubtitle('events', AGENT_EVENTS, 'events'),
		description:
			'Starts the workflow when an agent logs in or out, pauses, takes a call or becomes ' +
			'available in the dialer',
		defaults: { name: 'Dialer Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dialerApi', required: true, testedBy: 'dialerApiConnection' }],
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
		properties: triggerProperties,
	};

	methods = { credentialTest: { dialerApiConnection } };

	// The webhook URL is pasted into the dialer console by hand; there is no registration API.
	webhookMethods = {
		default: {
			// Runs when n8n registers the URL (publishing, Test URL): a refusal here is the message
			// the user sees.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await checkBeforeListening(this);
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

		const node = this.getNode();
		const trigger = `Dialer Trigger "${node.name}" (workflow ${this.getWorkflow().id})`;
		const refuse = (status: number, refusal: Refusal, error: string): IWebhookResponseData => {
			const line = refusals.count(trigger, refusal);
			if (line) this.logger.warn(line);
			return answer(status, { error });
		};
		const options = this.getNodeParameter('options', {}) as IDataObject;

		// Addresses first, then the secret, before anything else, even for events this node ignores:
		// a caller without them learns nothing (not even which events or agents are selected).
		const ranges = readAllowedRanges(node, options);
		if (ranges && !isAddressAllowed(this.getRequestObject().ip, ranges))
			return refuse(403, 'address', 'Address not allowed');
		// With the digests cached this costs one SHA-256, not a credential read.
		const secret = await secretCache.verify(
			node.credentials?.dialerApi?.id,
			this.getHeaderData()['x-webhook-secret'],
			async () => await loadSecretDigests(this),
		);
		if (secret === 'refused')
			return refuse(401, 'secret', 'Missing or wrong X-Webhook-Secret header');
		if (secret === 'noSecret' && requiresSecret(this))
			return refuse(401, 'noSecret', 'No Webhook Secret is set in n8n: deliveries are refused');

		const check = checkPayload(this.getBodyData());
		if (!check.valid) return answer(400, { error: `Not a dialer agent event: ${check.reason}` });
		const { payload } = check;
		const arrival = DateTime.now();
		const clock = dialerClocks.for(trigger).observe(payload.t, arrival.toMillis());
		if (clock.newSkew) this.logger.warn(`${trigger}: ${clock.warning}`);
		const stale = freshnessProblem(payload.t, arrival.toMillis() / 1000, {
			maxAgeSeconds: limitSeconds(options.maxEventAge),
			maxAheadSeconds: limitSeconds(options.maxEventAhead),
		});
		if (stale) return refuse(400, 'stale', stale);

		// New server events must never break workflows: acknowledge and skip them.
		if (!isKnownEventCode(payload.evento))
			return answer(200, { received: true, ignored: 'unknown event' });
		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(payload.evento))
			return answer(200, { received: true, ignored: 'event not selected' });
		const agentIds = readAgentIds(node, options);
		if (agentIds && !agentIds.has(payload.usuario_id)) {
			return answer(200, { received: true, ignored: 'agent not selected' });
		}

		const item = buildEventItem(
			payload,
			this.getTimezone(),
			arrival,
			clock,
			receipts.next(trigger),
		);
		return {
			...answer(200, { received: true }),
			workflowData: [this.helpers.returnJsonArray(item)],
		};
	}
}
