/**
 * Every process-wide cache of the package: memory that outlives one node run, one poll or one
 * delivery, for as long as the n8n process runs. Each entry says the cost it avoids. Most avoid
 * what n8n 2.41 spends on every credential read: it loads and decrypts the credential and
 * resolves it in an expression isolate. When n8n stops paying that per call, those caches
 * should go, and the code reading through them should read the credential each time; the ones
 * that avoid a cost of the package itself say so and may stay.
 *
 * Only the memory lives here; the code that fills and empties each cache stays next to its
 * use. Types are written out structurally: nodes/shared imports no node's files.
 *
 * Not caches, so not here: the Dialer Trigger's per-workflow dialer clocks
 * (DialerTrigger/dialerClock.ts, DialerClocks) are state its items are computed from (the
 * offset and the order shift need the deliveries of the last minutes), its receipt numbers
 * (DialerTrigger/receipts.ts) count the deliveries each trigger took, and its refusal counts
 * (DialerTrigger/refusals.ts) decide when n8n's log gets a line; dropping any of them changes
 * what the node does, not what it costs. The call names of transport/errors.ts are labels of one
 * run's context, kept weakly, not memory across runs. The Dialer Report Trigger keeps its own
 * (DialerReportTrigger/overlappingPolls.ts, DialerReportTrigger/clockCheck.ts).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * The Dialer API credential as one node run, poll or list search read it, by its context
 * (credentials.ts, dialerCredentials). Avoids: n8n loading, decrypting and building an
 * expression isolate for the credential on every getCredentials call, once per request of a
 * run. Weak: an entry goes with its context.
 */
export const credentialReadsByRun = new WeakMap<object, Promise<ICredentialDataDecryptedObject>>();

/**
 * A poll's credential read, by credential ID, shared with the polls of the next
 * POLL_READ_TTL_MS (credentials.ts, startPollCredentials). Avoids: outside an execution n8n
 * builds an expression isolate for every credential read, about 95 ms of its main thread, so
 * triggers on one credential that poll at the same moment read it once.
 */
export const pollCredentialReads = new Map<
	string,
	{ readAt: number; read: Promise<ICredentialDataDecryptedObject> }
>();

/**
 * The SHA-256 digests of a credential's Webhook Secrets, by credential ID, with the time they
 * were read (DialerTrigger/verification.ts, SecretDigestCache). Avoids: reading the credential
 * on every delivery, about 20 ms of n8n's main thread each. Never in workflow static data,
 * which n8n saves to its database.
 */
export const webhookSecretDigests = new Map<
	string,
	{ loadedAt: number; digests: Promise<readonly Buffer[]> }
>();

/**
 * The Dialer Trigger's Allowed Addresses option, parsed, by its text (at most 100 lists;
 * DialerTrigger/addresses.ts, allowedRanges). Avoids: parsing the list on every delivery of a
 * flood; a cost of the package, not of n8n, so it may stay.
 */
export const allowedAddressLists = new Map<
	string,
	ReadonlyArray<{ bits: bigint; prefix: number }> | undefined
>();

/**
 * A timezone's offset per wall-clock hour, or null near a clock change (at most 10,000 hours;
 * dialerTime.ts, steadyOffset). Avoids: asking Intl (through luxon) for offsets for every row
 * time of a large report; a cost of the package, not of n8n, so it may stay.
 */
export const steadyZoneOffsets = new Map<string, number | null>();
