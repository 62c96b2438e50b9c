/**
 * Polls of one trigger that overlap, so that none emits the rows of another.
 *
 * Poll Times can start a poll while the previous one of the same trigger is still reading (a long
 * catch-up). With n8n's durable poll cursors (2.41, `N8N_POLLER_DURABLE_CURSORS_ENABLED`) a poll
 * also works on its own copy of the trigger's state, read from the database when n8n starts it,
 * and the state a poll made is stored with its execution only after the poll has returned; n8n's
 * scheduler starts each poll at its time whether or not the previous one has ended, and all the
 * polls it missed during an outage at once. A poll whose copy was read before the previous poll's
 * state was stored reads that poll's rows again as new. So, in one n8n process, a poll skips while
 * another poll of the same trigger is under way, and when it starts from the very state a poll
 * emitted from in the last minute (n8n stores that poll's state within seconds), unless n8n
 * reported that it could not store that poll's rows.
 */
import { createHash } from 'crypto';
import { DateTime } from 'luxon';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

/** How long a poll's emit can leave a copy of the state it started from stale. */
const STALE_FOR_MS = 60_000;

interface Emit {
	/** The state the emitting poll started from (a digest). */
	from: string;
	at: number;
}

export interface PollUnderWay {
	/** Notes that the poll emits rows; returns what to call when n8n could not store them. */
	emitting(): () => void;
	end(): void;
}

const underWay = new Set<string>();
const recentEmits = new Map<string, Emit[]>();

function keepEmits(trigger: string, emits: Emit[]): void {
	if (emits.length > 0) recentEmits.set(trigger, emits);
	else recentEmits.delete(trigger);
}

function emitsStillRecent(trigger: string): Emit[] {
	const now = DateTime.now().toMillis();
	const recent = (recentEmits.get(trigger) ?? []).filter((emit) => now - emit.at < STALE_FOR_MS);
	keepEmits(trigger, recent);
	return recent;
}

/**
 * Starts a poll of the trigger `context` belongs to (its workflow and node), whose stored state is
 * `staticData`; undefined when it must skip. Every emitting poll changes the state (remembered
 * keys, rows to emit again), so a poll starting from the state another emitted from started from
 * a copy read before that one was stored; the first state too (nothing stored yet).
 */
export function startPoll(
	context: IPollFunctions,
	staticData: IDataObject,
): PollUnderWay | undefined {
	const trigger = JSON.stringify([context.getWorkflow().id ?? null, context.getNode().id]);
	if (underWay.has(trigger)) return undefined;
	const from = createHash('sha256').update(JSON.stringify(staticData)).digest('base64url');
	if (emitsStillRecent(trigger).some((emit) => emit.from === from)) return undefined;
	underWay.add(trigger);
	return {
		emitting: () => {
			const emit = { from, at: DateTime.now().toMillis() };
			keepEmits(trigger, [...emitsStillRecent(trigger), emit]);
			return () =>
				keepEmits(
					trigger,
					emitsStillRecent(trigger).filter((other) => other !== emit),
				);
		},
		end: () => underWay.delete(trigger),
	};
}
