/**
 * The documentation's links lead somewhere: README.md, docs/, BENCHMARKS.md and the other project
 * pages link only to files and headings that exist, README names only files that exist, n8n's
 * documentation links of the nodes open each node's page and the credential's its README section,
 * and README stays a page users read to the end (250 lines, prose lines and table cells a screen
 * wide).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { DialerApi } from '../../credentials/DialerApi.credentials';
import { Dialer } from '../../nodes/Dialer/Dialer.node';
import { DialerReportTrigger } from '../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { DialerTrigger } from '../../nodes/DialerTrigger/DialerTrigger.node';
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

const README_MAX_LINES = 250;
const PROSE_MAX_CHARACTERS = 120;
const CELL_MAX_CHARACTERS = 160;

/** The pages checked: README, every docs/ page and the other pages users and contributors open. */
const PAGES = [
	'README.md',
	...readdirSync(path.join(ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
	'examples/README.md',
	'harness/simulator/README.md',
	'harness/n8n/README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
	'BENCHMARKS.md',
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

	// Not prose: fenced code (commands as typed), table rows (their cells are checked below) and
	// link definitions, one address each.
	it(`has no prose line over ${PROSE_MAX_CHARACTERS} characters`, () => {
		let fenced = false;
		const long = readme.split('\n').flatMap((text, index) => {
			if (text.startsWith('```')) fenced = !fenced;
			const prose = !fenced && !text.startsWith('```') && !/^\s*\|/.test(text);
			if (!prose || /^\[[^\]]+\]: \S+$/.test(text)) return [];
			return text.length > PROSE_MAX_CHARACTERS
				? [`README.md:${index + 1} (${text.length}): ${text.slice(0, 60)}…`]
				: [];
		});
		expect(long).toEqual([]);
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

/** The link the editor's node panel opens, built as n8n 1.123 and 2.41 build it (useNodeDocsUrl). */
function editorNodeDocsLink(description: INodeTypeDescription, codex: Codex): string {
	if (description.documentationUrl?.startsWith('http')) return description.documentationUrl;
	const utm = new URLSearchParams({
		utm_source: 'n8n_app',
		utm_medium: 'node_settings_modal-credential_link',
		utm_campaign: `n8n-nodes-dialer.${description.name}`,
	});
	return `${codex.resources.primaryDocumentation[0].url}?${utm.toString()}`;
}

interface Codex {
	resources: Record<string, Array<{ url: string }>>;
}

const readCodex = (file: string): Codex =>
	JSON.parse(readFileSync(path.join(ROOT, 'nodes', file), 'utf8')) as Codex;

/** What a browser opens for `link`: its page and its anchor, the query set aside. */
function landing(link: string): string {
	const url = new URL(link);
	return `${url.origin}${url.pathname}${url.hash}`;
}

describe("n8n's documentation links", () => {
	const nodes: Array<[string, INodeTypeDescription, string]> = [
		['Dialer', new Dialer().description, 'Dialer/Dialer.node.json'],
		['Dialer Trigger', new DialerTrigger().description, 'DialerTrigger/DialerTrigger.node.json'],
		[
			'Dialer Report Trigger',
			new DialerReportTrigger().description,
			'DialerReportTrigger/DialerReportTrigger.node.json',
		],
	];

	it.each(nodes)("the %s panel's docs link opens its page", (_, description, codexFile) => {
		const link = editorNodeDocsLink(description, readCodex(codexFile));
		expect(repositoryPath(landing(link))).toMatch(/^docs\/[a-z-]+\.md$/);
		expect(brokenLink('README.md', landing(link))).toBeUndefined();
	});

	// Without documentationUrl n8n would use the codex link with its query after it: the codex
	// link lands on the same page even so.
	it.each(nodes)(
		"the %s codex link still opens its page with n8n's query appended",
		(_, description, codexFile) => {
			const withoutOwnLink = { ...description, documentationUrl: undefined };
			const link = editorNodeDocsLink(withoutOwnLink, readCodex(codexFile));
			expect(landing(link)).toBe(description.documentationUrl);
		},
	);

	// n8n's credential panel opens a link outside docs.n8n.io unchanged: the anchor is kept.
	it('the credential panel opens the README section Credentials', () => {
		const link = new DialerApi().documentationUrl;
		expect(repositoryPath(link)).toBe('README.md#credentials');
		expect(brokenLink('README.md', link)).toBeUndefined();
	});

	const credentialLinks = readdirSync(path.join(ROOT, 'nodes'), { recursive: true })
		.map(String)
		.filter((file) => file.endsWith('.node.json'))
		.flatMap((file) =>
			(readCodex(file).resources.credentialDocumentation ?? []).map(({ url }) => [file, url]),
		);

	it.each(credentialLinks)('%s: the credential link %s lands on a README section', (_, url) => {
		expect(repositoryPath(url)).toMatch(/^README\.md#/);
		expect(brokenLink('README.md', url)).toBeUndefined();
	});
});
