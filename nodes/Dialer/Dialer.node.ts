import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actions, resourceProperties, router } from './actions/router';
import { namedSubtitle } from '../shared/subtitle';
import { searchBatches, searchTeams } from './methods/listSearch';
import { dialerApiConnection } from '../shared/transport/credentialTest';
import { ACTION_TIMEOUT_MS, REPORT_TIMEOUT_MS } from '../shared/transport/request';

export class Dialer implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dialer',
		name: 'dialer',
		icon: { light: 'file:../../icons/dialer.svg', dark: 'file:../../icons/dialer.dark.svg' },
		group: ['transform'],
		version: 1,
		// A page, no #anchor: n8n opens this link as it is, but appends ?utm_… after the whole
		// codex link (.node.json), where an anchor would swallow it and be lost.
		documentationUrl:
			'https://github.com/n8n-nodes-dialer/n8n-nodes-dialer/blob/main/docs/dialer-node.md',
		// The action as the nodes panel words it: "Get call classification results".
		subtitle: namedSubtitle('$parameter["resource"] + ":" + $parameter["operation"]', actions),
		description:
			'Control a call-center dialer: log agents out or end their pause, read active calls, ' +
			'create queues, move batches, list teams and batches, deactivate audios, and read reports',
		defaults: { name: 'Dialer' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Test runs the transport's function (credentialTest.ts), which says what failed in words.
		credentials: [{ name: 'dialerApi', required: true, testedBy: 'dialerApiConnection' }],
		properties: [
			...resourceProperties,
			// Settings of the node's requests, the same for every operation.
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Parallel Requests',
						name: 'parallelRequests',
						type: 'number',
						default: 5,
						typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
						description:
							'How many input items to send to the dialer at the same time. Without this option ' +
							'items run one after the other, in order. Output order always follows input order.',
					},
					{
						displayName: 'Timeout',
						name: 'timeout',
						type: 'number',
						default: ACTION_TIMEOUT_MS,
						typeOptions: { minValue: 1, numberPrecision: 0 },
						description:
							"Milliseconds to wait for the dialer's answer before failing the item. Without " +
							`this option: ${ACTION_TIMEOUT_MS} for actions, ${REPORT_TIMEOUT_MS} for reports.`,
					},
				],
			},
		],
	};

	methods = {
		listSearch: { searchBatches, searchTeams },
		credentialTest: { dialerApiConnection },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
