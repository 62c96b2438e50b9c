import type { ICredentialDataDecryptedObject, INode, WorkflowExecuteMode } from 'n8n-workflow';

import { credentialReadsByRun as reads, pollCredentialReads as pollReads } from './processCaches';

/** Any of n8n's contexts that can read the node's credential. */
export interface CredentialSource {
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

/**
 * The Dialer API credential, read once for this run of `context` (processCaches.ts says why):
 * enough for the period, the fields, the server and the token (the package sets the header
 * itself).
 */
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

/** What a poll's context gives besides the credential: its node and mode. */
export interface PollCredentialSource extends CredentialSource {
	getNode(): INode;
	getMode(): WorkflowExecuteMode;
}

/**
 * How long a poll uses a read of its credential that another poll made (processCaches.ts,
 * pollCredentialReads, says why). A corrected credential reaches every poll within this time,
 * as the Dialer Trigger's secrets do.
 */
export const POLL_READ_TTL_MS = 10_000;

/**
 * Starts a poll of `context` (n8n 1.x polls with one context for as long as the workflow is
 * active): its credential as read by a poll in the last `POLL_READ_TTL_MS`, else as it is now.
 * Fetch Test Event always reads it as it is now, for the polls after it too.
 */
export function startPollCredentials(context: PollCredentialSource, now = Date.now()): void {
	reads.delete(context);
	// Decrypted credentials stay in memory no longer than they are used.
	for (const [key, { readAt }] of pollReads)
		if (now - readAt >= POLL_READ_TTL_MS) pollReads.delete(key);
	const id = context.getNode().credentials?.dialerApi?.id;
	if (!id) return;
	const shared = pollReads.get(id);
	if (shared && context.getMode() !== 'manual') {
		reads.set(context, shared.read);
		return;
	}
	const entry = { readAt: now, read: dialerCredentials(context) };
	pollReads.set(id, entry);
	// A failed read is not shared: the next poll tries again.
	entry.read.catch(() => {
		if (pollReads.get(id) === entry) pollReads.delete(id);
	});
}
