import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as agent from './actions/agent/Agent.resource';
import * as audio from './actions/audio/Audio.resource';
import * as batch from './actions/batch/Batch.resource';
import * as call from './actions/call/Call.resource';
import * as queue from './actions/queue/Queue.resource';
import * as report from './actions/report/Report.resource';
import { requestOptions } from './actions/options';
import { router } from './actions/router';
import * as team from './actions/team/Team.resource';
import { searchBatches, searchTeams } from './methods/listSearch';

export class Dialer implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dialer',
		name: 'dialer',
		icon: { light: 'file:../../icons/dialer.svg', dark: 'file:../../icons/dialer.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Control a call-center dialer: log agents out or end their pause, read active calls, create queues, move batches, list teams and batches, deactivate audios, and read reports',
		defaults: { name: 'Dialer' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dialerApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Agent', value: 'agent', description: 'Agents logged in to the dialer' },
					{
						name: 'Audio',
						value: 'audio',
						description: 'Recorded messages played by queues and IVRs',
					},
					{
						name: 'Batch',
						value: 'batch',
						description: 'Batches (lotes) of prospects dialed by a queue',
					},
					{ name: 'Call', value: 'call', description: 'Calls in progress on extensions' },
					{ name: 'Queue', value: 'queue', description: 'Outbound dialing queues' },
					{
						name: 'Report',
						value: 'report',
						description: 'Filled forms, classifications, call history and inbound calls',
					},
					{ name: 'Team', value: 'team', description: 'Teams of agents' },
				],
				default: 'report',
			},
			...agent.description,
			...audio.description,
			...batch.description,
			...call.description,
			...queue.description,
			...report.description,
			...team.description,
			requestOptions,
		],
	};

	methods = {
		listSearch: { searchBatches, searchTeams },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
