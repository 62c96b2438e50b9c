import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { inParallel, parallelRequestsOf } from '../../shared/parallel';
import { asNodeError } from '../../shared/errors';
import { nameCalls } from '../../shared/transport/errors';
import * as endPause from './agent/endPause.operation';
import * as logout from './agent/logout.operation';
import * as deactivate from './audio/deactivate.operation';
import * as getBatches from './batch/getMany.operation';
import * as moveToQueue from './batch/moveToQueue.operation';
import * as getActive from './call/getActive.operation';
import * as download from './recording/download.operation';
import * as create from './queue/create.operation';
import * as getCallHistory from './report/getCallHistory.operation';
import * as getClassificationResults from './report/getClassificationResults.operation';
import * as getFilledForms from './report/getFilledForms.operation';
import * as getInboundCalls from './report/getInboundCalls.operation';
import * as getTeams from './team/getMany.operation';

/** One operation file: its entry in the Operation list, its parameters, and what it runs. */
interface Operation {
	option: Required<Pick<INodePropertyOptions, 'name' | 'description' | 'action'>>;
	properties: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
}

interface Resource {
	name: string;
	description: string;
	/** The operation the editor selects first. */
	default: string;
	/** By the value users' workflows store; listed in the order the editor shows them. */
	operations: Record<string, Operation>;
}

/** Every resource/operation pair of the node, in the order the editor shows them. */
export const resources: Record<string, Resource> = {
	agent: {
		name: 'Agent',
		description: 'Agents logged in to the dialer',
		default: 'logout',
		operations: { endPause, logout },
	},
	audio: {
		name: 'Audio',
		description: 'Recorded messages played by queues and IVRs',
		default: 'deactivate',
		operations: { deactivate },
	},
	batch: {
		name: 'Batch',
		description: 'Batches (lotes) of prospects dialed by a queue',
		default: 'getMany',
		operations: { getMany: getBatches, moveToQueue },
	},
	call: {
		name: 'Call',
		description: 'Calls in progress on extensions',
		default: 'getActive',
		operations: { getActive },
	},
	queue: {
		name: 'Queue',
		description: 'Outbound dialing queues',
		default: 'create',
		operations: { create },
	},
	recording: {
		name: 'Recording',
		description: 'Call recordings, as files',
		default: 'download',
		operations: { download },
	},
	report: {
		name: 'Report',
		description: 'Filled forms, classifications, call history and inbound calls',
		default: 'getFilledForms',
		operations: { getCallHistory, getClassificationResults, getFilledForms, getInboundCalls },
	},
	team: {
		name: 'Team',
		description: 'Teams of agents',
		default: 'getMany',
		operations: { getMany: getTeams },
	},
};

/** Resource, then per resource its Operation list and each operation's parameters. */
export const resourceProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.entries(resources).map(([value, { name, description }]) => ({
			name,
			value,
			description,
		})),
		default: 'report',
	},
	...Object.entries(resources).flatMap(([resource, { operations, default: selected }]) => [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: Object.entries(operations).map(([value, { option }]) => ({
				name: option.name,
				value,
				description: option.description,
				action: option.action,
			})),
			default: selected,
		} satisfies INodeProperties,
		...Object.entries(operations).flatMap(([operation, { properties }]) =>
			updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, properties),
		),
	]),
];

/** Each resource:operation pair with its action, the words the nodes panel lists it by. */
export const actions = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.entries(operations).map(([operation, { option }]) => ({
		value: `${resource}:${operation}`,
		name: option.action,
	})),
);

/**
 * Runs the chosen operation once per input item, up to Options → Parallel Requests at a time
 * (one by one without it). Output follows input order; with "continue on fail" a failing item
 * becomes an error item, otherwise the first failure (in input order) stops the node once the
 * requests already under way have finished.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = Object.hasOwn(resources, resource) ? resources[resource] : undefined;
	const operations = chosen?.operations ?? {};
	const handler = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	if (!chosen || !handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}
	// Errors are titled with what users chose in the node: "Report → Get Filled Forms failed …".
	nameCalls(this, `${chosen.name} → ${handler.option.name}`);

	const items = this.getInputData();
	const parallel = parallelRequestsOf(this);
	const continueOnFail = this.continueOnFail();
	const results: INodeExecutionData[][] = new Array(items.length);
	const failures: Array<NodeApiError | NodeOperationError> = [];

	const runItem = async (itemIndex: number) => {
		try {
			const output = await handler.execute.call(this, itemIndex);
			// The operation made these items for this run: pair them in place instead of copying
			// each one (a report can have 100,000, made paired already).
			for (const item of output) item.pairedItem ??= { item: itemIndex };
			results[itemIndex] = output;
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!continueOnFail) {
				failures[itemIndex] = nodeError;
				return;
			}
			results[itemIndex] = [
				{
					json: {
						error: nodeError.message,
						...(nodeError.description ? { description: nodeError.description } : {}),
					},
					pairedItem: { item: itemIndex },
				},
			];
		}
	};
	await inParallel(items.length, parallel, runItem, () => failures.length > 0);

	const firstFailure = failures.find(Boolean);
	if (firstFailure) throw firstFailure;
	return [results.flat()];
}
