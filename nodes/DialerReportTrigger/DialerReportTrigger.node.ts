import { createHash } from 'crypto';
import { DateTime } from 'luxon';
import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { startPollCredentials } from '../shared/credentials';
import { asNodeError } from '../shared/errors';
import { attachRecordings, recordingsWanted, type FileSettings } from '../shared/recordings';
import { namedSubtitle } from '../shared/subtitle';
import { dialerApiConnection } from '../shared/transport/credentialTest';
import { nameCalls } from '../shared/transport/errors';
import { dialerApiRequest, type ApiFields } from '../shared/transport/request';
import { checkClock, readingAhead, testEventWarnings } from './clockCheck';
import { pollReport, resumeState, type ReadWindow } from './cursor';
import { findLateRows, LATE_ROWS_FIELD, lateWarnings } from './lateRows';
import { emitRows, forgetRowsToEmitAgain, rowsToEmitAgain } from './emission';
import { eventProperties, REPORT_EVENTS, type ReportEvent } from './events';
import { startPoll } from './overlappingPolls';
import { rowIdentifier } from './rowIdentity';
import {
	eventOf,
	readSettings,
	singleItem,
	triggerOptions,
	type TriggerSettings,
} from './settings';

/** "Fetch Test Event" looks this far back, nearest first, for the most recent rows. */
const TEST_LOOKBACKS_MS = [3_600_000, 86_400_000, 7 * 86_400_000];
const TEST_SAMPLE_ROWS = 10;
/** Recordings downloaded at the same time when the event offers Download Recordings. */
const PARALLEL_DOWNLOADS = 4;
/** Report login fields: never part of what is stored. */
const SECRET_FIELDS = new Set(['user', 'senha']);

/** Which event, parameters and start a clock check belongs to (the report login left out). */
function scopeOf(event: ReportEvent, fields: ApiFields, startFrom: number | undefined): string {
	const chosen = Object.entries(fields)
		.filter(([name]) => !SECRET_FIELDS.has(name))
		.sort(([a], [b]) => a.localeCompare(b));
	return createHash('sha256')
		.update(JSON.stringify([event.value, chosen, startFrom ?? null]))
		.digest('base64url')
		.slice(0, 22);
}

export class DialerReportTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dialer Report Trigger',
		name: 'dialerReportTrigger',
		icon: { light: 'file:../../icons/dialer.svg', dark: 'file:../../icons/dialer.dark.svg' },
		group: ['trigger'],
		version: 1,
		// A page, no #anchor: n8n opens this link as it is, but appends ?utm_… after the whole
		// codex link (.node.json), where an anchor would swallow it and be lost.
		documentationUrl:
			'https://github.com/n8n-nodes-dialer/n8n-nodes-dialer/blob/main/docs/report-trigger.md',
		subtitle: namedSubtitle('$parameter["event"]', REPORT_EVENTS),
		description:
			'Starts the workflow once for each new filled form, classification, inbound call or call ' +
			'in history found in the dialer reports',
		defaults: { name: 'Dialer Report Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dialerApi', required: true, testedBy: 'dialerApiConnection' }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				default: 'newFilledForm',
				options: REPORT_EVENTS.map(({ name, value, description }) => ({
					name,
					value,
					description,
				})),
				description:
					'Which new report rows start the workflow: one execution per poll, one item per new row',
			},
			...eventProperties,
			triggerOptions,
		],
	};

	methods = { credentialTest: { dialerApiConnection } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const now = DateTime.now().toMillis();
		startPollCredentials(this);
		let event: ReportEvent;
		let settings: TriggerSettings;
		let fields: ApiFields;
		let recordings: FileSettings | undefined;
		try {
			event = eventOf(this);
			nameCalls(this, `${event.source.name} report`);
			settings = await readSettings(this);
			fields = await event.source.fields(singleItem(this), 0);
			const offersRecordings = event.source.properties.some(
				(property) => property.name === 'downloadRecordings',
			);
			recordings = offersRecordings ? recordingsWanted(singleItem(this), 0) : undefined;
		} catch (error) {
			throw asNodeError(this, error);
		}
		// A recording that cannot be downloaded never holds the trigger back: its item says why
		// (recordingError) and keeps the link.
		const itemsOf = async (rows: IDataObject[]): Promise<INodeExecutionData[][]> => {
			const items = rows.map((json) => ({ json }));
			if (recordings) {
				await attachRecordings.call(this, items, recordings, {
					parallel: PARALLEL_DOWNLOADS,
					keepFailures: true,
				});
			}
			return [items];
		};
		const readRows = async (read: Pick<ReadWindow, 'de' | 'ate'>) =>
			event.source.rows(
				await dialerApiRequest.call(this, event.source.endpoint, {
					...fields,
					de: read.de,
					ate: read.ate,
				}),
			);
		const identify = rowIdentifier(event.source.identity, settings.zone);

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": the latest rows, the stored state left as it is. Each look-back also
			// reads a day ahead, where only a dialer clock ahead of n8n's puts rows.
			for (const lookback of TEST_LOOKBACKS_MS) {
				const rows = await readRows(readingAhead(now - lookback, now, settings.zone));
				if (rows.length === 0) continue;
				const dated = rows.map((row, index) => ({ row, time: identify(row).time, index }));
				const times = dated.map(({ time }) => time);
				for (const warning of testEventWarnings(times, now, settings, TEST_LOOKBACKS_MS[0])) {
					this.logger.warn(warning, { node: this.getNode().name });
				}
				const latest = dated
					.sort((a, b) => (a.time ?? 0) - (b.time ?? 0) || a.index - b.index)
					.slice(-TEST_SAMPLE_ROWS);
				return await itemsOf(latest.map(({ row }) => row));
			}
			throw new NodeOperationError(this.getNode(), 'No rows in the last 7 days', {
				description:
					'The dialer returned no rows for this event and these parameters in the last 7 days. ' +
					'Check the parameters, or create a row in the dialer and fetch again.',
			});
		}

		const staticData = this.getWorkflowStaticData('node');
		const underWay = startPoll(this, staticData);
		if (!underWay) return null;
		try {
			const stored = staticData.reportCursor as IDataObject | undefined;
			const state = resumeState(
				stored,
				event.value,
				settings.startFrom ?? null,
				now,
				settings.overlapMs,
			);
			// Starting over (another Event, a new Start From), the rows waiting are another Event's
			// or read again: not emitted again on their own.
			if (state.cursor !== stored?.cursor) forgetRowsToEmitAgain(staticData);
			// n8n saves the state this first poll makes with the activation (the poll it runs while
			// activating), so a restart before the first row goes on from it.
			const scope = scopeOf(event, fields, settings.startFrom);
			// Before the poll's own reads: a row it reads that a poll can still list, the poll lists.
			const check = await checkClock(
				`${this.getWorkflow().id}:${this.getNode().id}`,
				scope,
				now,
				settings,
				readRows,
				identify,
			);
			const result = await pollReport(state, now, settings, readRows, identify);
			// Only a poll that read up to now tells: rows left for the next polls (Max Rows per Poll, a
			// catch-up) are not late, and a dialer filtering by the last save lists them there.
			const caughtUp = !result.full && result.state.cursor >= Math.floor(now / 1000) * 1000;
			const judged = check.read !== undefined && caughtUp;
			const {
				state: next,
				late,
				changes,
			} = judged
				? findLateRows(
						result.state,
						check.rows,
						identify,
						settings,
						check.read!,
						now,
						check.baseline,
						state,
					)
				: { state: result.state, late: [], changes: [] };
			check.commit(judged);
			for (const warning of [
				...check.warnings,
				...lateWarnings(late, event.source.identity, settings, now),
			]) {
				this.logger.warn(warning, { node: this.getNode().name });
			}
			// Status changes only the look back still saw come after the poll's rows.
			const found =
				changes.length > 0 ? [...result.emit, ...changes.map(({ row }) => row)] : result.emit;
			// The first new row tells how many rows came too late since the last one that did.
			const emit =
				next.lateRows > 0 && found.length > 0
					? [{ ...found[0], [LATE_ROWS_FIELD]: next.lateRows }, ...found.slice(1)]
					: found;
			// Only a poll that read everything it meant to gets here: a failed one moves nothing.
			staticData.reportCursor = (emit === found
				? next
				: { ...next, lateRows: 0 }) as unknown as IDataObject;
			const rows = [...rowsToEmitAgain(staticData), ...emit];
			if (rows.length === 0) return null;
			const items = await itemsOf(rows);
			return emitRows(this, staticData, rows, items, underWay.emitting());
		} finally {
			underWay.end();
		}
	}
}
