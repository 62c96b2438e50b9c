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

type OperationExecute = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

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

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ParameterError) {
		return new NodeOperationError(context.getNode(), error.message, { itemIndex, description: error.fix });
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/** Runs the chosen operation once per input item; with "continue on fail" a failing item becomes an error item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = operations[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not supported`);
	}

	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await handler.execute.call(this, itemIndex);
			output.push(...this.helpers.constructExecutionMetaData(results, { itemData: { item: itemIndex } }));
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			output.push({
				json: { error: nodeError.message, ...(nodeError.description ? { description: nodeError.description } : {}) },
				pairedItem: { item: itemIndex },
			});
		}
	}
	return [output];
}
