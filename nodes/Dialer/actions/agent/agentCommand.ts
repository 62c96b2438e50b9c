import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireText } from '../../../shared/parameters';
import { recordOf } from '../../../shared/rows';
import type { ApiOperation } from '../../../shared/transport/operations';
import {
	ACTION_TIMEOUT_MS,
	dialerApiRequest,
	type ApiEndpoint,
} from '../../../shared/transport/request';
import { sentAs } from '../../../shared/sentAs';

/**
 * Log out and end pause take the same fields (`user`, `ip`) and differ only in the API
 * operation.
 */
export function agentCommandEndpoint(operation: Extract<ApiOperation, 'logout' | 'pauseout'>) {
	return { operation, streamed: false, defaultTimeout: ACTION_TIMEOUT_MS } satisfies ApiEndpoint;
}

/** The Agent Login parameter says what the command does to the agent, before and after `user`. */
export function agentCommandProperties(agentIs: string, then: string): INodeProperties[] {
	return [
		{
			displayName: 'Agent Login',
			name: 'agent',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. maria.souza',
			description: sentAs(agentIs, 'user', then),
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Workstation IP',
					name: 'ip',
					type: 'string',
					default: '',
					placeholder: 'e.g. 10.0.0.15',
					description: sentAs(
						"IP address of the agent's workstation, for servers that ask for it",
						'ip',
					),
				},
			],
		},
	];
}

export async function runAgentCommand(
	this: IExecuteFunctions,
	itemIndex: number,
	endpoint: ApiEndpoint,
): Promise<INodeExecutionData[]> {
	const agent = requireText(
		this.getNodeParameter('agent', itemIndex),
		'Agent Login',
		'maria.souza',
	);
	const { ip } = this.getNodeParameter('additionalFields', itemIndex, {}) as { ip?: string };
	const payload = await dialerApiRequest.call(
		this,
		endpoint,
		{ user: agent, ip: ip?.trim() },
		itemIndex,
	);
	return [{ json: { success: true, agent, ...recordOf(payload) } }];
}
