import type { ICredentialDataDecryptedObject, IGetNodeParameterOptions } from 'n8n-workflow';

/**
 * What reading an item's parameters needs: the action node's context, or a trigger's (one set of
 * parameters, read as item 0).
 */
export interface ItemParameters {
	getNodeParameter(
		name: string,
		itemIndex: number,
		fallbackValue?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown;
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
}
