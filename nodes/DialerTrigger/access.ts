import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INode,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { switchOn } from '../shared/parameters';
import { allowedRanges, type AddressRange } from './addresses';
import { parseAgentIds } from './events';
import { ACCEPT_UNAUTHENTICATED } from './properties';
import { digestSecrets, type SecretDigests } from './verification';

/** The credential's current and previous webhook secrets, as digests. */
export async function loadSecretDigests(
	context: IHookFunctions | IWebhookFunctions,
): Promise<SecretDigests> {
	const credential = await context.getCredentials('dialerApi');
	return digestSecrets(credential.webhookSecret, credential.previousWebhookSecret);
}

/** Whether this node refuses deliveries when its credential has no secret. */
export function requiresSecret(context: IHookFunctions | IWebhookFunctions): boolean {
	return !switchOn(
		context.getNodeParameter(ACCEPT_UNAUTHENTICATED, false),
		'Accept Unauthenticated Deliveries',
	);
}

/** The Allowed Addresses option, parsed (undefined: any address). */
export function readAllowedRanges(
	node: INode,
	options: IDataObject,
): readonly AddressRange[] | undefined {
	try {
		return allowedRanges(String(options.allowedAddresses ?? ''));
	} catch (error) {
		throw new NodeOperationError(node, error as Error, {
			description:
				'Fix "Allowed Addresses" under Options: IP addresses or CIDR ranges separated by commas.',
		});
	}
}

/** The Agent IDs option, parsed (undefined: every agent). */
export function readAgentIds(node: INode, options: IDataObject): ReadonlySet<number> | undefined {
	try {
		return parseAgentIds(String(options.agentIds ?? ''));
	} catch (error) {
		throw new NodeOperationError(node, error as Error, {
			description: 'Fix "Agent IDs" under Options: whole numbers separated by commas.',
		});
	}
}

export const NO_SECRET_MESSAGE =
	'The Dialer credential has no Webhook Secret, so anyone who learns this URL could start the ' +
	"workflow. Set a Secret in the dialer console's webhook settings and the same value as " +
	'Webhook Secret in the credential, or switch on "Accept Unauthenticated Deliveries" in the ' +
	'Dialer Trigger.';

/**
 * Runs when n8n registers the webhook, on publishing and for the Test URL: refuses options that
 * do not read and, unless Accept Unauthenticated Deliveries is on, a credential without a secret.
 * Throwing here makes n8n refuse to publish (or to listen for a test event) with this message.
 */
export async function checkBeforeListening(context: IHookFunctions): Promise<void> {
	const node = context.getNode();
	const options = context.getNodeParameter('options', {}) as IDataObject;
	readAllowedRanges(node, options);
	readAgentIds(node, options);
	if (requiresSecret(context) && (await loadSecretDigests(context)).length === 0)
		throw new NodeOperationError(node, NO_SECRET_MESSAGE, {
			description:
				'Where: the webhook settings of the dialer console (Secret) and the Dialer API ' +
				'credential (Webhook Secret).',
		});
}
