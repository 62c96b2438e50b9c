/** What every operation handler gets, and the output conventions they share. */
import type { AgentStates } from '../agent-states';
import type { FieldReader } from '../http/fields';
import { jsonReply, type Reply } from '../http/replies';
import type { ReportListing } from '../listing';
import type { SeededData } from '../model';
import type { WallClock } from '../time';
import type { AgentEvent, EnvelopeMode, PermissionMode, ReportQuirks } from '../types';

export interface OperationContext {
	data: SeededData;
	/** The dialer's wall clock: report times and de/ate. */
	clock: WallClock;
	envelope: EnvelopeMode;
	idsAsStrings: boolean;
	permissionMode: PermissionMode;
	/** How reports show and filter times (changed by tests while running). */
	reportQuirks: ReportQuirks;
	/** The order of report rows, and when each is written. */
	listing: ReportListing;
	states: AgentStates;
	/** Delivers an agent event to the webhook receivers in the background. */
	publish(event: AgentEvent): void;
	/** Download link of a call recording (absolute or relative, on this server or the storage). */
	recordingUrl(uid: string): string;
}

export type OperationHandler = (fields: FieldReader, context: OperationContext) => Reply;

/**
 * Payload under a top-level `data` key (what public clients read), or with that wrapper
 * removed in `bare` mode: an array becomes the body, object keys move up next to `siblings`.
 * Only operations whose wrapper the contract leaves open use this.
 */
export function present(
	context: OperationContext,
	payload: object,
	siblings: Record<string, unknown> = {},
): Reply {
	if (context.envelope === 'data') return jsonReply({ ...siblings, data: payload });
	return jsonReply(Array.isArray(payload) ? payload : { ...siblings, ...payload });
}

/** A report's period; with `deMinutes`, `de` loses its seconds (a read returns its whole first minute). */
export function reportRange(
	fields: FieldReader,
	context: OperationContext,
	required: boolean,
): { de: number; ate: number } | undefined {
	const range = fields.dateRange(required);
	if (!range || !context.reportQuirks.deMinutes) return range;
	return { ...range, de: range.de - (range.de % 60_000) };
}

/** A row time as getFP1, getRQ4 and getRE2 show it: `dd/mm/yyyy HH:MM:SS`, or without seconds. */
export function rowTimeText(context: OperationContext, epochMs: number): string {
	return context.reportQuirks.minuteTimes
		? context.clock.formatBrazilianMinute(epochMs)
		: context.clock.formatBrazilianDateTime(epochMs);
}

/** Ids go out as numbers, or as strings when the simulator plays a server that quotes them. */
export function outId(context: OperationContext, id: number): number | string {
	return context.idsAsStrings ? String(id) : id;
}

/** Small lookups by id for building report rows. */
export function indexById<T extends { id: number }>(items: T[]): Map<number, T> {
	return new Map(items.map((item) => [item.id, item]));
}
