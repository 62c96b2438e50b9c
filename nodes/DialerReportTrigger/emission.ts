/**
 * Handing a poll's rows to n8n so that none is lost when n8n cannot store their execution.
 *
 * When a poll returns rows, n8n creates the execution in its database (and in queue mode puts
 * it on the queue) only after the poll has returned and its cursor has moved past them. If the
 * database is unreachable at that moment (a PostgreSQL restart or failover), n8n logs the error
 * and the rows are gone: the next poll starts after them. n8n 2.x tells whoever emits the rows
 * that the execution could not be started, through the emit's done promise, so the trigger
 * emits them itself, keeps those rows in its static data when n8n says so, and emits them first
 * on the next poll. n8n 1.x does not settle that promise on such a failure (it leaves the
 * rejection unhandled), so there the trigger returns the rows as before. With n8n's durable poll
 * cursors the failed store leaves the stored state as it was, so the next poll reads the rows
 * again; the rows kept here go to the poll's own copy of the state, stored only when n8n reports
 * the failure before it stores that copy alone (then with the cursor past them): once either way.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions, IRun } from 'n8n-workflow';

/** Where the rows to emit again wait in the node's static data. */
const EMIT_AGAIN = 'rowsToEmitAgain';

/** Rows an earlier poll emitted whose execution n8n could not start, oldest first. */
export function rowsToEmitAgain(staticData: IDataObject): IDataObject[] {
	const rows = staticData[EMIT_AGAIN];
	return Array.isArray(rows) ? (rows as IDataObject[]) : [];
}

/** Forgets the rows waiting to be emitted again: the trigger starts over (Event, Start From). */
export function forgetRowsToEmitAgain(staticData: IDataObject): void {
	// Deleting marks n8n's static data as changed: only when there is something to delete.
	if (EMIT_AGAIN in staticData) delete staticData[EMIT_AGAIN];
}

/**
 * Whether n8n settles the emit's done promise when the execution cannot be started: the poll
 * context of n8n 2.x, which stages the poll's state (`__runPoll`), does.
 */
function reportsFailedStarts(context: IPollFunctions): boolean {
	return typeof (context as unknown as { __runPoll?: unknown }).__runPoll === 'function';
}

/** An execution that was started and then cancelled (by a user, a timeout, a shutdown) exists. */
function wasStarted(error: unknown): boolean {
	const { message, reason } = (error ?? {}) as { message?: unknown; reason?: unknown };
	return typeof reason === 'string' || (typeof message === 'string' && /cancel/i.test(message));
}

/**
 * Emits `items` (made from `rows`, which include `rowsToEmitAgain`) and returns what the poll
 * returns: null once emitted here, else the items for n8n to emit. `notStored` is called when n8n
 * reports that it could not start their execution.
 */
export function emitRows(
	context: IPollFunctions,
	staticData: IDataObject,
	rows: IDataObject[],
	items: INodeExecutionData[][],
	notStored: () => void,
): INodeExecutionData[][] | null {
	// Only the waiting rows in `rows`: a failed start reported since they were read (while this
	// poll downloaded recordings) added more. Most polls have none waiting: no set of their rows.
	const waiting = rowsToEmitAgain(staticData);
	const emitting = waiting.length > 0 ? new Set(rows) : undefined;
	const stillWaiting = waiting.filter((row) => !emitting?.has(row));
	if (stillWaiting.length > 0) staticData[EMIT_AGAIN] = stillWaiting;
	else forgetRowsToEmitAgain(staticData);
	if (!reportsFailedStarts(context)) return items;
	const done = context.helpers.createDeferredPromise<IRun | undefined>();
	done.promise.catch((error: unknown) => {
		if (wasStarted(error)) return;
		notStored();
		staticData[EMIT_AGAIN] = [...rowsToEmitAgain(staticData), ...rows];
		const cause = (error as Error)?.message;
		context.logger.warn(
			`n8n could not start the execution of ${rows.length} new rows (${cause}); ` +
				'the next poll emits them again',
			{ node: context.getNode().name },
		);
	});
	context.__emit(items, undefined, done);
	return null;
}
