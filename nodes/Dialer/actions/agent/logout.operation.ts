import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { agentCommandDescription, runAgentCommand } from './agentCommand';

export const description = agentCommandDescription(
	'logout',
	'Login of the agent to log out of the dialer, as shown in the console (sent as user). The agent stops receiving calls.',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await runAgentCommand.call(this, itemIndex, 'logout');
}
