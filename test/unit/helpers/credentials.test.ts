import type { ICredentialDataDecryptedObject, INode, WorkflowExecuteMode } from 'n8n-workflow';

import {
	POLL_READ_TTL_MS,
	dialerCredentials,
	startPollCredentials,
} from '../../../nodes/shared/credentials';

/** The credential as n8n stores it now; a test corrects it by changing it. */
interface StoredCredential {
	data: ICredentialDataDecryptedObject;
	reads: number;
	failing?: boolean;
}

let credentialIds = 0;

function storedCredential(dialerTimezone: string): StoredCredential & { id: string } {
	return { id: `credential-${++credentialIds}`, data: { dialerTimezone }, reads: 0 };
}

/** A poll's context on credential `id` (none: a node without a saved credential). */
function pollContext(
	stored: StoredCredential,
	id: string | undefined,
	mode: WorkflowExecuteMode = 'trigger',
) {
	const node = {
		name: 'Dialer Report Trigger',
		credentials: id ? { dialerApi: { id, name: 'Dialer' } } : undefined,
	} as INode;
	return {
		getNode: () => node,
		getMode: () => mode,
		getCredentials: async () => {
			stored.reads++;
			if (stored.failing) throw new Error('n8n could not read the credential');
			return { ...stored.data };
		},
	};
}

/** Starts a poll at `now` and reads its credential as the poll does. */
async function poll(
	stored: StoredCredential & { id: string },
	now: number,
	mode?: WorkflowExecuteMode,
) {
	const context = pollContext(stored, stored.id, mode);
	startPollCredentials(context, now);
	return (await dialerCredentials(context)).dialerTimezone;
}

describe('a poll reading its credential', () => {
	it('reads it once for triggers on one credential that poll within 10 seconds', async () => {
		const stored = storedCredential('America/Sao_Paulo');
		expect(await poll(stored, 1_000)).toBe('America/Sao_Paulo');
		expect(await poll(stored, 1_000)).toBe('America/Sao_Paulo');
		expect(await poll(stored, 1_000 + POLL_READ_TTL_MS - 1)).toBe('America/Sao_Paulo');
		expect(stored.reads).toBe(1);
	});

	it('takes a corrected credential within 10 seconds of the last read', async () => {
		const stored = storedCredential('America/Sao_Paulo');
		await poll(stored, 50_000);
		stored.data = { dialerTimezone: 'America/Manaus' };
		expect(await poll(stored, 55_000)).toBe('America/Sao_Paulo');
		expect(await poll(stored, 50_000 + POLL_READ_TTL_MS)).toBe('America/Manaus');
		expect(stored.reads).toBe(2);
	});

	it('reads it as it is now for Fetch Test Event, and the polls after it use that', async () => {
		const stored = storedCredential('America/Sao_Paulo');
		await poll(stored, 100_000);
		stored.data = { dialerTimezone: 'America/Manaus' };
		expect(await poll(stored, 101_000, 'manual')).toBe('America/Manaus');
		expect(await poll(stored, 102_000)).toBe('America/Manaus');
		expect(stored.reads).toBe(2);
	});

	it('reads it again on the next poll after a failed read', async () => {
		const stored = storedCredential('America/Sao_Paulo');
		stored.failing = true;
		await expect(poll(stored, 200_000)).rejects.toThrow('could not read');
		stored.failing = false;
		expect(await poll(stored, 200_500)).toBe('America/Sao_Paulo');
		expect(stored.reads).toBe(2);
	});

	it('keeps apart triggers on different credentials', async () => {
		const saoPaulo = storedCredential('America/Sao_Paulo');
		const manaus = storedCredential('America/Manaus');
		expect(await poll(saoPaulo, 300_000)).toBe('America/Sao_Paulo');
		expect(await poll(manaus, 300_000)).toBe('America/Manaus');
	});

	it('reads it on every poll when the node names no saved credential', async () => {
		const stored = storedCredential('America/Sao_Paulo');
		for (const now of [400_000, 400_001]) {
			const context = pollContext(stored, undefined);
			startPollCredentials(context, now);
			await dialerCredentials(context);
		}
		expect(stored.reads).toBe(2);
	});

	it('reads it once within a poll, and again in the next poll of the same context', async () => {
		const stored = storedCredential('America/Sao_Paulo');
		// n8n 1.x polls with one context for as long as the workflow is active.
		const context = pollContext(stored, stored.id);
		startPollCredentials(context, 500_000);
		await dialerCredentials(context);
		await dialerCredentials(context);
		expect(stored.reads).toBe(1);
		stored.data = { dialerTimezone: 'America/Manaus' };
		startPollCredentials(context, 500_000 + POLL_READ_TTL_MS);
		expect((await dialerCredentials(context)).dialerTimezone).toBe('America/Manaus');
	});
});
