/**
 * Each measured figure has one home: BENCHMARKS.md, with the date it was measured. Every other
 * tracked file says what to do and links to a BENCHMARKS.md section, so it carries no date stamp
 * of a measurement: a date next to a measured figure, or a date a measurement word stamps
 * ("measured on …", "traced …", "runs of …"). A date that is a value, not a stamp, is fine: a
 * format example or a placeholder (`2026-11-21T08:00:00`, "a date like 2026-11-21"), sample
 * output. Not checked: BENCHMARKS.md, CHANGELOG.md (release and change dates), the bench's saved
 * results (`harness/bench/results/`, each with its date) and the tests, whose dates are inputs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

const NOT_CHECKED = [
	/^BENCHMARKS\.md$/,
	/^CHANGELOG\.md$/,
	/^harness\/bench\/results\//,
	/^test\//,
];

const MONTH =
	'(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|' +
	'Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const YEAR = '(?:19|20)\\d\\d';
/**
 * A calendar date: 2026-11-28, 28 November 2026, November 28, 2026, Nov 2026. Not 28/11/2026:
 * that is how the dialer writes its rows' times, always a value (a row, a log line quoting one).
 */
const DATE = new RegExp(
	[
		`\\b${YEAR}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])\\b`,
		`\\b\\d{1,2} ${MONTH}\\.? ${YEAR}\\b`,
		`\\b${MONTH}\\.? (?:\\d{1,2},? )?${YEAR}\\b`,
	].join('|'),
	'g',
);
/** A measured figure: a number with a unit of time, size, rate, ratio or share, or a load. */
const FIGURE =
	/\d[\d,.]*\s?(?:ms|µs|s|min|minutes?|seconds?|hours?|[kMG]B|%|×|events\/s|\/s)(?![\w/])|\bload(?: average)? \d|\bp(?:50|95|99)\b|\b\d+ cores?\b/;
/** Words that stamp the date after them as a measurement's. */
const STAMP =
	/\b(?:measured|traced|timed|profiled|benchmarked|checked|runs?|ran|rounds?)\b[^.;\n]{0,40}$/i;
/** How far either side of a date, within its paragraph, a figure counts as next to it. */
const NEAR = 120;

export interface DatedFigure {
	line: number;
	date: string;
	context: string;
}

/** The date stamps of measurements in a text. */
export function datedFigures(text: string): DatedFigure[] {
	return [...text.matchAll(DATE)].flatMap((match) => {
		const start = match.index;
		const end = start + match[0].length;
		const paragraphStart = text.lastIndexOf('\n\n', start) + 1;
		const paragraphEnd = text.indexOf('\n\n', end) < 0 ? text.length : text.indexOf('\n\n', end);
		const before = text.slice(Math.max(paragraphStart, start - NEAR), start);
		const after = text.slice(end, Math.min(paragraphEnd, end + NEAR));
		// The date's own digits and a time after it (`02:40 UTC`) are not figures.
		const around = `${before} ${after.replace(/^[ T]\d\d:\d\d(?::\d\d)?/, '')}`;
		if (!STAMP.test(before) && !FIGURE.test(around)) return [];
		const line = text.slice(0, start).split('\n').length;
		return [{ line, date: match[0], context: `${before}${match[0]}${after}`.replace(/\s+/g, ' ') }];
	});
}

describe('a dated figure', () => {
	it.each([
		['a notice', 'Measured on 2 cores (2026-11-28): 20 events/s held.'],
		['a reading', 'On 2026-11-27 07:04 UTC (load 2.3 before): 0.95× the time of Split Out'],
		['a trace', 'Traced on 2026-11-25, 1,000 deliveries into a Dialer Trigger'],
		['a check', 'Checked on 2026-11-26 with npm view: 20 of them are missing'],
		['a duration', 'took 17.9 min on this 2-core machine\n(2026-11-27, n8n already installed)'],
		['a size', 'It prints the size (74 files, 60 kB packed, at 0.1.0 on 23 November 2026).'],
		['runs', 'in 5-minute runs of 2026-11-28 and 29, while the wallboard re-read its table'],
		['a comment', '// 0.48× the time of HTTP Request (2026-11-28 02:29 UTC, quiet)'],
	])('is found in %s', (_, text) => {
		expect(datedFigures(text)).toHaveLength(1);
	});

	it.each([
		['a placeholder', "placeholder: 'e.g. 2026-01-01'"],
		['a format example', 'ISO 8601 text (2026-11-21T08:00:00), 14 digits (20261121080000)'],
		['a date in a description', 'A date without a time (2026-11-21) means the end of that day.'],
		[
			'an example in a prompt',
			"$fromAI('start', 'as a date like 2026-11-21 (or a date and time)')",
		],
		[
			'a time as the reports write it',
			'`21/11/2026 08:00:00`, `2026-11-21 08:00:00`, `21/11/2026`',
		],
		[
			'a row time in a log line',
			'"(data 25/11/2026 10:00:00); … The oldest is dated 25 min before now"',
		],
		['sample output', 'Agent board at 2026-11-23 10:30\nPaused: 101 (pause 1 since 10:00)'],
		['a figure in another paragraph', 'Set it to `2026-11-21`.\n\nIt took 3 s.'],
	])('is not %s', (_, text) => {
		expect(datedFigures(text)).toEqual([]);
	});
});

describe('measured figures and their dates', () => {
	const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
		.split('\n')
		.filter((file) => file && !NOT_CHECKED.some((pattern) => pattern.test(file)));

	it(`live in BENCHMARKS.md only: no other file of ${files.length} carries a date stamp of one`, () => {
		const found = files.flatMap((file) => {
			const content = readFileSync(path.join(ROOT, file));
			if (content.includes(0)) return []; // images and other binary files
			return datedFigures(content.toString('utf8')).map(
				({ line, date, context }) => `${file}:${line} ${date}: …${context}…`,
			);
		});
		expect(found).toEqual([]);
	});
});
