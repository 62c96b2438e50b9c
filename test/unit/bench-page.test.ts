/**
 * BENCHMARKS.md is assembled from sections saved one by one, so one section can be measured
 * again without the others: each keeps its own date, n8n version, machine and duration. Below
 * its generated part the page is written by hand (how the bench runs, what was measured outside
 * its sections), and writing the page again keeps that part.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	HAND_WRITTEN_MARKER,
	benchmarksMarkdown,
	burstQueueSection,
	withHandWritten,
} from '../../harness/bench/report/markdown';
import {
	readSections,
	writeSection,
	type SectionName,
	type SectionRecord,
} from '../../harness/bench/report/sections';
import type { BurstQueueResult, QueueRun } from '../../harness/bench/scenarios/burstQueue';
import { queuePoint } from '../../harness/bench/scenarios/burstQueue';
import { LIVE_ALERTS } from '../../harness/bench/scenarios/liveAlerts';

const ROOT = path.resolve(__dirname, '..', '..');

/** A section as the repository keeps it, with the machine said differently. */
function saved<Name extends SectionName>(
	name: Name,
	machine: Partial<SectionRecord['machine']>,
): SectionRecord<Name> {
	const file = path.join(ROOT, 'harness', 'bench', 'results', `${name}.json`);
	const record = JSON.parse(readFileSync(file, 'utf8')) as SectionRecord<Name>;
	return { ...record, machine: { ...record.machine, note: undefined, ...machine } };
}

/** The page's lines from a section's heading up to the next heading of its level or higher. */
function sectionOf(page: string, heading: string): string {
	const start = page.indexOf(heading);
	const next = page.slice(start + heading.length).search(/\n##? /);
	return next < 0 ? page.slice(start) : page.slice(start, start + heading.length + next);
}

describe('the benchmark page', () => {
	let outDir: string;
	beforeEach(() => (outDir = mkdtempSync(path.join(tmpdir(), 'dialer-bench-page-'))));
	afterEach(() => rmSync(outDir, { recursive: true, force: true }));

	it('says for each section when, on which n8n and machine, and in how long it was measured', () => {
		writeSection(outDir, saved('bulk', { date: '2026-11-20 08:00 UTC', durationMin: 3.25 }));
		writeSection(
			outDir,
			saved('events', { date: '2026-11-24 17:30 UTC', n8nVersion: '2.50.0', durationMin: 9 }),
		);
		const page = benchmarksMarkdown(readSections(outDir), 'harness/bench/chart.svg');

		const runs = sectionOf(page, '## Runs');
		expect(runs).toMatch(
			/\| bulk \| 2026-11-20 08:00 UTC \| .* \| 2\.41\.1 on Node 24\.\S+ \| .*2 cores.* \| 3\.3 min \|/,
		);
		expect(runs).toMatch(
			/\| events \| 2026-11-24 17:30 UTC \| .* \| 2\.50\.0 on Node .* \| 9\.0 min \|/,
		);
		expect(sectionOf(page, '## 2. Bulk actions')).toContain(
			'*Measured 2026-11-20 08:00 UTC on n8n 2.41.1.*',
		);
		expect(sectionOf(page, '## 3. Event stream')).toContain(
			'*Measured 2026-11-24 17:30 UTC on n8n 2.50.0.*',
		);
	});

	it('names the command that measures a section not measured yet, and shows no tables for it', () => {
		writeSection(outDir, saved('bulk', {}));
		const page = benchmarksMarkdown(readSections(outDir), 'harness/bench/chart.svg');

		expect(page).toContain(
			'| report-trigger | not yet: `npm run bench -- --only report-trigger` |',
		);
		expect(page).not.toContain('## 1. Report to items');
		expect(page).toContain('## 2. Bulk actions');
	});

	it('replaces only the section measured again', () => {
		writeSection(outDir, saved('bulk', { date: '2026-11-20 08:00 UTC' }));
		writeSection(outDir, saved('events', { date: '2026-11-20 08:10 UTC' }));
		writeSection(outDir, saved('bulk', { date: '2026-11-25 10:00 UTC' }));
		const page = benchmarksMarkdown(readSections(outDir), 'harness/bench/chart.svg');

		expect(sectionOf(page, '## 2. Bulk actions')).toContain('*Measured 2026-11-25 10:00 UTC');
		expect(sectionOf(page, '## 3. Event stream')).toContain('*Measured 2026-11-20 08:10 UTC');
		expect(page).not.toContain('2026-11-20 08:00 UTC');
	});

	it('shows queue-mode bursts by why deliveries were lost, and asks for a fresh run of an older shape', () => {
		const run = (lostBy: QueueRun['lostBy'], executions: number): QueueRun => {
			const failed = lostBy.unavailable + lostBy.timedOut + lostBy.refused + lostBy.other;
			return {
				...{ deliveries: 1000, failed, p50Ms: 900, p99Ms: 4800, maxMs: 5000, outcomes: {} },
				...{ eventsPerSecond: 120, answered: 1000 - failed, lostBy, executions, finished: 700 },
			};
		};
		const lost = { unavailable: 3, timedOut: 7, refused: 1, other: 0 };
		const result: BurstQueueResult = {
			...{ deliveries: 1000, levels: [150], runs: 1, env: {}, behindTrigger: LIVE_ALERTS },
			points: [queuePoint('queue2', 150, [run(lost, 1001)])],
		};
		const [heading, , text, , header, , row] = burstQueueSection(result);

		expect(heading).toBe(
			'## 5. Shift-start bursts in queue mode, the live alerts behind the trigger',
		);
		expect(text).toContain("queue mode on n8n's defaults");
		expect(text).toContain('at least once, not exactly once');
		expect(header).toContain('| Lost: 503 | Lost: timed out | Lost: refused | Lost: other |');
		expect(row).toBe(
			'| 150 | queue mode, 2 webhook processors | 120.0 | – | 989 | 3 | 7 | 1 | 0 | 4,800 ms | 1.01 | 700 |',
		);
		const older = { ...result, behindTrigger: undefined } as unknown as BurstQueueResult;
		expect(burstQueueSection(older).join('\n')).toContain(
			'needs a fresh run, `npm run bench -- --only burst-queue`',
		);
	});

	it('keeps the hand-written part of the page it writes again, and starts a new page without one', () => {
		const handWritten = `${HAND_WRITTEN_MARKER}\n\n## How the benchmarks are run\n\nBy hand.\n`;
		writeSection(outDir, saved('bulk', { date: '2026-11-20 08:00 UTC' }));
		const before = withHandWritten(benchmarksMarkdown(readSections(outDir), 'x.svg'), handWritten);
		writeSection(outDir, saved('bulk', { date: '2026-11-25 10:00 UTC' }));
		const after = withHandWritten(benchmarksMarkdown(readSections(outDir), 'x.svg'), before);

		expect(after).toContain('*Measured 2026-11-25 10:00 UTC');
		expect(after).not.toContain('2026-11-20 08:00 UTC');
		expect(after.endsWith(`\n${handWritten}`)).toBe(true);
		expect(after.split(HAND_WRITTEN_MARKER)).toHaveLength(2);
		expect(withHandWritten('# Benchmarks\n', undefined)).toBe('# Benchmarks\n');
	});

	it('is the page the repository carries (after a change of wording: `npm run bench -- --render`)', () => {
		const page = readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8');
		expect(page.split(HAND_WRITTEN_MARKER)).toHaveLength(2);
		expect(
			withHandWritten(benchmarksMarkdown(readSections(ROOT), 'harness/bench/chart.svg'), page),
		).toBe(page);
	});
});
