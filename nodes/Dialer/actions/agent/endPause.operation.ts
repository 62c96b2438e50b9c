import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { agentCommandEndpoint, agentCommandProperties, runAgentCommand } from './agentCommand';

export const option = {
	name: 'End Pause',
	description: 'Take an agent out of pause so they receive calls again',
	action: 'End an agent pause',
};

export const endpoint = agentCommandEndpoint('pauseout');

export const properties = agentCommandProperties(
	'Login of the paused agent to make available again',
	'Fails if the agent is not in a pause.',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await runAgentCommand.call(this, itemIndex, endpoint);
}
