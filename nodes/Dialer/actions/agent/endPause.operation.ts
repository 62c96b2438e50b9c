import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { agentCommandDescription, runAgentCommand } from './agentCommand';

export const description = agentCommandDescription(
	'endPause',
	'Login of the paused agent to make available again (sent as user). Fails if the agent is not in a pause.',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await runAgentCommand.call(this, itemIndex, 'pauseout');
}
