/**
 * The documentation's links lead somewhere: README.md, docs/ and the other project pages link
 * only to files and headings that exist, README names only files that exist, n8n's documentation
 * links of the nodes and the credential land on a README section, and README stays a page users
 * read to the end (about 400 lines, table cells a screen wide).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { DialerApi } from '../../credentials/DialerApi.credentials';
import {
	ROOT,
	brokenLink,
	codeSpans,
	namesRepositoryFile,
	read,
	references,
	repositoryPath,
	tableCells,
	trackedTopLevel,
} from '../support/markdown';

const README_MAX_LINES = 400;
const CELL_MAX_CHARACTERS = 160;

/** The pages checked: README, every docs/ page and the other pages users and contributors open. */
const PAGES = [
	'README.md',
	...readdirSync(path.join(ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
	'examples/README.md',
	'simulator/README.md',
	'scripts/n8n/README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
];

describe.each(PAGES)('%s', (page) => {
	const markdown = read(page);

	it('links and images lead to files and headings that exist', () => {
		const broken = references(markdown).flatMap(({ target, line }) => {
			const problem = brokenLink(page, target);
			return problem ? [`${page}:${line} ${target}: ${problem}`] : [];
		});
		expect(broken).toEqual([]);
	});

	// Code spans name paths from the repository root, whatever page they are on.
	it('names in code spans only repository files that exist', () => {
		const topLevel = trackedTopLevel();
		const missing = codeSpans(markdown)
			.filter(({ text }) => namesRepositoryFile(text, topLevel))
			.filter(({ text }) => !existsSync(path.join(ROOT, text)))
			.map(({ text, line }) => `${page}:${line} \`${text}\` does not exist`);
		expect(missing).toEqual([]);
	});
});

describe('README.md', () => {
	const readme = read('README.md');

	it(`is at most ${README_MAX_LINES} lines: details go to a docs/ page linked from it`, () => {
		expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
	});

	it(`has no table cell over ${CELL_MAX_CHARACTERS} characters: long explanations go under the table`, () => {
		const long = tableCells(readme)
			.filter(({ text }) => text.length > CELL_MAX_CHARACTERS)
			.map(({ text, line }) => `README.md:${line} (${text.length}): ${text.slice(0, 60)}…`);
		expect(long).toEqual([]);
	});

	it('links every docs/ page', () => {
		const linked = new Set(
			references(readme).map(({ target }) => (repositoryPath(target) ?? target).split('#')[0]),
		);
		const pages = PAGES.filter((page) => page.startsWith('docs/'));
		expect(pages.filter((page) => !linked.has(page))).toEqual([]);
	});
});

describe("n8n's documentation links", () => {
	const codexUrls = readdirSync(path.join(ROOT, 'nodes'), { recursive: true })
		.map(String)
		.filter((file) => file.endsWith('.node.json'))
		.flatMap((file) => {
			const codex = JSON.parse(readFileSync(path.join(ROOT, 'nodes', file), 'utf8')) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			return Object.values(codex.resources).flatMap((links) => links.map(({ url }) => [file, url]));
		});

	it.each([['the credential', new DialerApi().documentationUrl], ...codexUrls])(
		'%s: %s lands on a README section',
		(_, url) => {
			expect(repositoryPath(url)).toMatch(/^README\.md#/);
			expect(brokenLink('README.md', url)).toBeUndefined();
		},
	);
});
