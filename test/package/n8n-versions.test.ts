/**
 * The n8n versions the project is tested with are one fact, `N8N_VERSIONS` in
 * harness/n8n/runtime.ts, which the demo, the e2e harness, the benchmarks and CI read. The docs
 * name them in words; these tests keep those words equal to the table.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8N_VERSION, N8N_VERSIONS, selectedN8nVersion } from '../../harness/n8n/runtime';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Each version in the table with the Node major it runs on, in a stable order. */
const TESTED = Object.entries(N8N_VERSIONS)
	.map(([version, spec]) => [version, spec.node] as const)
	.sort(([a], [b]) => a.localeCompare(b));

/** The (version, Node major) pairs a pattern with those two groups finds, in the same order. */
function pairs(text: string, pattern: RegExp): Array<readonly [string, number]> {
	return [...text.matchAll(pattern)]
		.map((match) => [match[1], Number(match[2])] as const)
		.sort(([a], [b]) => a.localeCompare(b));
}

describe('the n8n versions the project is tested with', () => {
	const readme = read('README.md');

	it('default to the newest 2.x of the table, and a major alone names the newest of its line', () => {
		expect(N8N_VERSION).toMatch(/^2\./);
		for (const version of Object.keys(N8N_VERSIONS))
			if (version.startsWith('2.'))
				expect(version.localeCompare(N8N_VERSION, 'en', { numeric: true })).toBeLessThanOrEqual(0);
		expect(selectedN8nVersion('2')).toBe(N8N_VERSION);
		expect(selectedN8nVersion('1')).toMatch(/^1\./);
		expect(() => selectedN8nVersion('2.0.0')).toThrow(/not a supported n8n version/);
	});

	it("are the ones README's first lines say it is tested with, each with its Node.js", () => {
		const testedWith = readme.match(/^Tested with n8n[^]*?\n\n/m)?.[0] ?? '';
		expect(pairs(testedWith, /\*\*(\d+\.\d+\.\d+)\*\* \(Node\.js (\d+)\)/g)).toEqual(TESTED);
	});

	it.each(['README.md', 'docs/compatibility.md'])(
		"are the rows of %s's Compatibility table, each with its Node.js",
		(page) => {
			expect(pairs(read(page), /^\| \*\*(\d+\.\d+\.\d+)\*\* +\| (\d+)\.\d+\.\d+ +\|/gm)).toEqual(
				TESTED,
			);
		},
	);

	it('are the ones docs/development.md says the tests download', () => {
		expect(pairs(read('docs/development.md'), /n8n (\d+\.\d+\.\d+) with Node\.js (\d+)/g)).toEqual(
			TESTED,
		);
	});

	it("are the ones the harness's README names", () => {
		expect(pairs(read('harness/n8n/README.md'), /`(\d+\.\d+\.\d+)`[^`]*? on Node (\d+)/g)).toEqual(
			TESTED,
		);
	});
});
