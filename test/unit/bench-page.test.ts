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
	withHandWritten,
} from '../../harness/bench/report/markdown';
import {
	readSections,
	writeSection,
	type SectionName,
	type SectionRecord,
} from '../../harness/bench/report/sections';

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
