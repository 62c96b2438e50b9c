/**
 * The benchmark's sections, each kept in its own file (`harness/bench/results/<section>.json`) with the
 * date, machine, n8n version and duration of the run that measured it, so that one section can
 * be measured again (`npm run bench -- --only <section>`) and BENCHMARKS.md assembled from all.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { BulkResult } from '../scenarios/bulk';
import type { BurstResult } from '../scenarios/burst';
import type { BurstQueueResult } from '../scenarios/burstQueue';
import type { BurstSettingsResult } from '../scenarios/burstSettings';
import type { BurstRun, DeliveryCost, RatePoint } from '../scenarios/events';
import type { CurvePoint, ReportResult } from '../scenarios/reports';
import type { RecordingsResult } from '../scenarios/recordings';
import type { ReportFloorResult } from '../scenarios/reportFloor';
import type { RefusedFloodResult } from '../scenarios/refusedFlood';
import type { ReportTriggerResult } from '../scenarios/reportTrigger';
import type { SoakResult } from '../scenarios/soak';
import type { SummariesResult } from '../scenarios/summaries';

/** Where and how a section was measured. */
export interface Machine {
	date: string;
	commit: string;
	cpu: string;
	cores: number;
	memoryGb: number;
	kernel: string;
	benchNode: string;
	n8nNode: string;
	n8nVersion: string;
	loadBefore: number[];
	loadAfter: number[];
	/** How long the section took; absent for sections measured before sections were timed. */
	durationMin?: number;
	/** Said instead of a duration, e.g. that the section was part of a longer run. */
	note?: string;
	quick: boolean;
}

export interface EventsResult {
	count: number;
	concurrency: number;
	save: string;
	bursts: Record<'trigger' | 'generic', { runs: BurstRun[]; executions: number }>;
	costs: DeliveryCost[];
	rates: RatePoint[];
	/** Why the rate series stopped early, when n8n gave up. */
	rateFailure?: string;
	legacyEngine?: { costs: DeliveryCost[]; rates: RatePoint[]; rateFailure?: string };
}

/** What each section measures, in the order of the page. */
export interface SectionResults {
	/** Report to items (the headline sizes) and the growth with size. */
	reports: { reports: ReportResult[]; curve: CurvePoint[] };
	/** The whole-period reports against HTTP Request alone (fetch + parse in n8n), in rounds. */
	'report-floor': ReportFloorResult;
	'report-trigger': ReportTriggerResult;
	/** A month of inbound calls summarised by the node, against items + a Code node. */
	summaries: SummariesResult;
	/** Call recordings downloaded as files, against HTTP Request with the credential. */
	recordings: RecordingsResult;
	bulk: BulkResult;
	events: EventsResult;
	/** One per n8n configuration. */
	burst: BurstResult[];
	/** n8n's expression-engine settings side by side, the live alerts example behind the trigger. */
	'burst-settings': BurstSettingsResult;
	'burst-queue': BurstQueueResult;
	'refused-flood': RefusedFloodResult;
	soak: SoakResult;
	/** The same shift with another process taking one of the machine's cores all along. */
	'soak-busy': SoakResult;
}

export type SectionName = keyof SectionResults;

export const SECTIONS: SectionName[] = [
	'reports',
	'report-floor',
	'report-trigger',
	'summaries',
	'recordings',
	'bulk',
	'events',
	'burst',
	'burst-settings',
	'burst-queue',
	'refused-flood',
	'soak',
	'soak-busy',
];

export interface SectionRecord<Name extends SectionName = SectionName> {
	section: Name;
	machine: Machine;
	/** How it was measured (runs, isolation, simulator data, memory and CPU accounting). */
	settings: Record<string, string>;
	result: SectionResults[Name];
}

/** Every section measured so far, by name. */
export type SavedSections = { [Name in SectionName]?: SectionRecord<Name> };

const sectionFile = (outDir: string, name: SectionName) =>
	path.join(outDir, 'harness', 'bench', 'results', `${name}.json`);

export function writeSection<Name extends SectionName>(
	outDir: string,
	record: SectionRecord<Name>,
): string {
	const file = sectionFile(outDir, record.section);
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(record, null, '\t')}\n`);
	return file;
}

export function readSections(outDir: string): SavedSections {
	const saved: SavedSections = {};
	for (const name of SECTIONS) {
		const file = sectionFile(outDir, name);
		if (existsSync(file))
			Object.assign(saved, { [name]: JSON.parse(readFileSync(file, 'utf8')) as SectionRecord });
	}
	return saved;
}
