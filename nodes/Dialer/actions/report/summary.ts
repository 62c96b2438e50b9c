import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ParameterError } from '../../../shared/parameters';
import type { ApiFields } from '../../../shared/transport/request';
import type { ReportRowSource } from '../../../shared/reports/rowSource';
import { reportRows } from './reportItems';

/**
 * Summaries of report rows, computed by the node so a workflow gets the figures every supervisor
 * asks for (calls offered, answered, service level; classifications and fichas per agent) as one
 * item instead of one item per row. Each row is added to its group's tally and to the total as it
 * is read; no row is kept.
 */

/** What a summary counts per group, row by row. */
export interface Tally {
	add(row: IDataObject): void;
	/** The figures of the rows added so far. */
	figures(): IDataObject;
}

/** A way of summarising a report: its tally, and the row field each Group By choice reads. */
export interface Summarizer {
	newTally(): Tally;
	groupFields: Record<string, string>;
}

/** Group name of rows whose group field is missing or blank. */
export const BLANK = '(blank)';

const textOf = (value: unknown): string =>
	value === undefined || value === null || String(value).trim() === ''
		? BLANK
		: String(value).trim();

// A duration as call times are written elsewhere (getHC2's duracao, the CSV exports): 00:00:20.
const DURATION = /^(?:(\d+):)?(\d+):(\d{2})$/;

/**
 * Seconds from a number, digits as text or a duration (00:00:20, 1:05); undefined when it is
 * none of these, or negative.
 */
export function secondsOf(value: unknown): number | undefined {
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (text === '') return undefined;
	const duration = text === undefined ? null : DURATION.exec(text);
	const seconds = duration
		? Number(duration[1] ?? 0) * 3600 + Number(duration[2]) * 60 + Number(duration[3])
		: typeof value === 'number' || text !== undefined
			? Number(value)
			: NaN;
	return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** A share in percent with one decimal; null when there is nothing to share. */
export const percent = (part: number, whole: number): number | null =>
	whole === 0 ? null : Math.round((1000 * part) / whole) / 10;

/** Rows counted in total and by the value of one field, each value named as it comes. */
export function countingTally(countName: string, field: string, byName: string): () => Tally {
	return () => {
		let count = 0;
		const by = new Map<string, number>();
		return {
			add(row) {
				count++;
				const value = textOf(row[field]);
				by.set(value, (by.get(value) ?? 0) + 1);
			},
			figures: () => ({ [countName]: count, [byName]: sortedRecord(by) }),
		};
	};
}

function sortedRecord(counts: Map<string, number>): IDataObject {
	return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The summary of `rows`: the figures of all rows, and of each group of rows sharing the value of
 * `groupField` (sorted by that value), or no groups when `groupField` is undefined.
 */
export function summarize(
	rows: Iterable<IDataObject>,
	summarizer: Summarizer,
	groupField: string | undefined,
): { total: IDataObject; groups: IDataObject[] } {
	const total = summarizer.newTally();
	const groups = new Map<string, Tally>();
	for (const row of rows) {
		total.add(row);
		if (groupField === undefined) continue;
		const name = textOf(row[groupField]);
		let tally = groups.get(name);
		if (!tally) groups.set(name, (tally = summarizer.newTally()));
		tally.add(row);
	}
	return {
		total: total.figures(),
		groups: [...groups]
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([name, tally]) => ({ name, ...tally.figures() })),
	};
}

/** The Output choice the report operations offer: one item per row, or one summary item. */
export function outputProperty(rowsName: string, summaryDescription: string): INodeProperties {
	const options = [
		{ name: `One Item per ${rowsName}`, value: 'items', description: 'The rows as they come' },
		{ name: 'Summary', value: 'summary', description: summaryDescription },
	];
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'items',
		options,
		description: `Whether to output one item per ${rowsName.toLowerCase()} or one summary item`,
	};
}

/** Group By for a summary: `choices` maps each option's name to its value. */
export function groupByProperty(
	summarizer: Summarizer,
	choices: Record<string, string>,
): INodeProperties {
	const options = [
		...Object.entries(choices).map(([name, value]) => ({
			name,
			value,
			description: `Figures per value of ${summarizer.groupFields[value]}, and in total`,
		})),
		{ name: 'Nothing (Total Only)', value: 'none', description: 'Only the total figures' },
	];
	// Each report's first choice; a named value, which n8n's lint rules read as a default.
	const firstChoice = options[0].value;
	return {
		displayName: 'Group By',
		name: 'groupBy',
		type: 'options',
		default: firstChoice,
		displayOptions: { show: { output: ['summary'] } },
		options,
		description: 'Which groups of rows the summary gives figures for, besides the total',
	};
}

/** The row field this item's Group By reads, undefined for totals only. */
export function groupFieldOf(
	context: IExecuteFunctions,
	itemIndex: number,
	summarizer: Summarizer,
): string | undefined {
	const groupBy = context.getNodeParameter('groupBy', itemIndex) as string;
	if (groupBy === 'none') return undefined;
	const field = summarizer.groupFields[groupBy];
	if (field === undefined) {
		throw new ParameterError(
			'Group By',
			`"${groupBy}" is not a group of this report`,
			`Choose one of ${[...Object.keys(summarizer.groupFields), 'none'].join(', ')}.`,
		);
	}
	return field;
}

/** The summary as the one output item, with the period and the settings it was computed with. */
export function summaryItems(
	fields: ApiFields,
	rows: Iterable<IDataObject>,
	summarizer: Summarizer,
	groupField: string | undefined,
	settings: IDataObject,
): INodeExecutionData[] {
	const { de, ate } = fields;
	const summary = summarize(rows, summarizer, groupField);
	return [{ json: { de, ate, ...settings, groupField: groupField ?? null, ...summary } }];
}

/** A report over this item's period and filters, summarised: its parameters checked first. */
export async function reportSummary(
	this: IExecuteFunctions,
	itemIndex: number,
	source: ReportRowSource,
	summarizer: Summarizer,
	settings: IDataObject = {},
): Promise<INodeExecutionData[]> {
	const groupField = groupFieldOf(this, itemIndex, summarizer);
	const { fields, rows } = await reportRows.call(this, itemIndex, source);
	return summaryItems(fields, rows, summarizer, groupField, settings);
}

/** Whether this item asks for the summary rather than one item per row. */
export const summaryWanted = (context: IExecuteFunctions, itemIndex: number): boolean =>
	context.getNodeParameter('output', itemIndex, 'items') === 'summary';
