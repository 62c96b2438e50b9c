import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ParameterError } from './parameters';

/** Any failure as the error n8n shows: parameter problems name the parameter and the fix. */
export function asNodeError(
	context: Pick<IExecuteFunctions, 'getNode'>,
	error: unknown,
	itemIndex?: number,
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
