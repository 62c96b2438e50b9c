import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireText } from '../../helpers/ids';
import { recordOf } from '../../helpers/rows';
import { dialerApiRequest, type ApiOperation } from '../../transport';

/** Log out and end pause take the same fields (`user`, `ip`) and differ only in the API operation. */
export function agentCommandDescription(
	operation: string,
	agentDescription: string,
): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: ['agent'], operation: [operation] } }, [
		{
			displayName: 'Agent Login',
			name: 'agent',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. maria.souza',
			description: agentDescription,
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
					description:
						"IP address of the agent's workstation, for servers that ask for it (sent as ip)",
				},
			],
		},
	]);
}

export async function runAgentCommand(
	this: IExecuteFunctions,
	itemIndex: number,
	apiOperation: Extract<ApiOperation, 'logout' | 'pauseout'>,
): Promise<INodeExecutionData[]> {
	const agent = requireText(
		this.getNodeParameter('agent', itemIndex),
		'Agent Login',
		'maria.souza',
	);
	const { ip } = this.getNodeParameter('additionalFields', itemIndex, {}) as { ip?: string };
	const payload = await dialerApiRequest.call(
		this,
		apiOperation,
		{ user: agent, ip: ip?.trim() },
		itemIndex,
	);
	return [{ json: { success: true, agent, ...recordOf(payload) } }];
}
