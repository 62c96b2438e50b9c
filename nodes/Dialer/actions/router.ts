import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ParameterError } from '../helpers/ParameterError';
import * as agent from './agent/Agent.resource';
import * as audio from './audio/Audio.resource';
import * as batch from './batch/Batch.resource';
import * as call from './call/Call.resource';
import * as queue from './queue/Queue.resource';
import * as report from './report/Report.resource';
import * as team from './team/Team.resource';

type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

/** Every resource/operation pair of the node and the function that runs it. */
export const operations: Record<string, Record<string, { execute: OperationExecute }>> = {
	agent: { logout: agent.logout, endPause: agent.endPause },
	call: { getActive: call.getActive },
	queue: { create: queue.create },
	batch: { getMany: batch.getMany, moveToQueue: batch.moveToQueue },
	team: { getMany: team.getMany },
	audio: { deactivate: audio.deactivate },
	report: {
		getFilledForms: report.getFilledForms,
		getClassificationResults: report.getClassificationResults,
		getCallHistory: report.getCallHistory,
		getInboundCalls: report.getInboundCalls,
	},
};

function asNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ParameterError) {
		return new NodeOperationError(context.getNode(), error.message, {
			itemIndex,
			description: error.fix,
		});
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/**
 * Runs the chosen operation once per input item, up to Options → Parallel Requests at a time
 * (one by one without it). Output follows input order; with "continue on fail" a failing item
 * becomes an error item, otherwise the first failure (in input order) stops the node once the
 * requests already under way have finished.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = operations[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}

	const items = this.getInputData();
	const parallel = Math.max(
		1,
		Math.floor(Number(this.getNodeParameter('options.parallelRequests', 0, 1)) || 1),
	);
	const continueOnFail = this.continueOnFail();
	const results: INodeExecutionData[][] = new Array(items.length);
	const failures: Array<NodeApiError | NodeOperationError> = [];
	let next = 0;

	const runItem = async (itemIndex: number) => {
		try {
			const output = await handler.execute.call(this, itemIndex);
			// The operation made these items for this run: pair them in place instead of copying
			// each one (a report can have 100,000).
			for (const item of output) item.pairedItem = { item: itemIndex };
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
	const worker = async () => {
		while (next < items.length && failures.length === 0) {
			await runItem(next++);
		}
	};
	await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));

	const firstFailure = failures.find(Boolean);
	if (firstFailure) throw firstFailure;
	return [results.flat()];
}
