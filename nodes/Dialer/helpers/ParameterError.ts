/**
 * A problem with what the user entered, found before any request is sent. Helpers stay free of
 * n8n's execution context by throwing this; the router turns it into a NodeOperationError that
 * names the parameter, points at the item and says how to fix it.
 */
export class ParameterError extends Error {
	constructor(
		readonly parameter: string,
		problem: string,
		readonly fix: string,
	) {
		super(`${parameter}: ${problem}`);
		this.name = 'ParameterError';
	}
}
