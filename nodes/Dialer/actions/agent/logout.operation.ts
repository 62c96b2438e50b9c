import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { agentCommandEndpoint, agentCommandProperties, runAgentCommand } from './agentCommand';

export const option = {
	name: 'Log Out',
	description: 'Log an agent out of the dialer',
	action: 'Log out an agent',
};

export const endpoint = agentCommandEndpoint('logout');

export const properties = agentCommandProperties(
	'Login of the agent to log out of the dialer, as shown in the console',
	'The agent stops receiving calls.',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await runAgentCommand.call(this, itemIndex, endpoint);
}
