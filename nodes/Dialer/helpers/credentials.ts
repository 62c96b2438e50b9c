import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** Any of n8n's contexts that can read the node's credential. */
export interface CredentialSource {
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

// n8n loads and decrypts the credential on every call: once per node run or poll is enough for
// the period, the fields and the server (n8n's request helper reads it again for the token).
const reads = new WeakMap<object, Promise<ICredentialDataDecryptedObject>>();

/** The Dialer API credential, read once for this run of `context`. */
export function dialerCredentials(
	context: CredentialSource,
): Promise<ICredentialDataDecryptedObject> {
	let read = reads.get(context);
	if (!read) {
		read = context.getCredentials('dialerApi');
		reads.set(context, read);
	}
	return read;
}

/**
 * Starts a new run of `context`: n8n 1.x polls with one context for as long as the workflow is
 * active, and each poll reads the credential as it is now (a corrected Dialer Timezone or URL).
 */
export function forgetCredentials(context: object): void {
	reads.delete(context);
}
