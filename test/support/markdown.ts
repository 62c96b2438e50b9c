/**
 * What the project's Markdown points at, read with markdown-it (the CommonMark parser GitHub's
 * rendering follows): links and images with their line, the anchors GitHub gives headings, the
 * code spans that name a repository file, and table cells. Used by the docs tests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

export const ROOT = path.resolve(__dirname, '..', '..');
const REPOSITORY = 'n8n-nodes-dialer/n8n-nodes-dialer';
/** The repository's own addresses, as README.md uses them so they also work on the npm page. */
const REPOSITORY_URLS: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
	[
		new RegExp(`^https://github\\.com/${REPOSITORY}/(?:blob|tree)/main/([^?#]+)(#.*)?$`),
		(m) => `${m[1]}${m[2] ?? ''}`,
	],
	[new RegExp(`^https://raw\\.githubusercontent\\.com/${REPOSITORY}/main/([^?#]+)$`), (m) => m[1]],
	[new RegExp(`^https://github\\.com/${REPOSITORY}/?(#.*)?$`), (m) => `README.md${m[1] ?? ''}`],
];

const parser = new MarkdownIt({ html: true });

export interface Reference {
	/** The target as written. */
	target: string;
	line: number;
	image: boolean;
}

export const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Every inline token of a document with the line its block starts on. */
function inlines(markdown: string): Array<{ token: Token; line: number }> {
	return parser
		.parse(markdown, {})
		.filter((token) => token.type === 'inline')
		.map((token) => ({ token, line: (token.map?.[0] ?? 0) + 1 }));
}

/** Links (reference-style ones resolved) and images of a document. */
export function references(markdown: string): Reference[] {
	return inlines(markdown).flatMap(({ token, line }) =>
		(token.children ?? []).flatMap((child): Reference[] => {
			if (child.type === 'link_open')
				return [{ target: String(child.attrGet('href') ?? ''), line, image: false }];
			if (child.type === 'image')
				return [{ target: String(child.attrGet('src') ?? ''), line, image: true }];
			return [];
		}),
	);
}

/** The text of code spans, with their line. */
export function codeSpans(markdown: string): Array<{ text: string; line: number }> {
	return inlines(markdown).flatMap(({ token, line }) =>
		(token.children ?? [])
			.filter((child) => child.type === 'code_inline')
			.map((child) => ({ text: child.content, line })),
	);
}

/** The raw text of every table cell, with its line. */
export function tableCells(markdown: string): Array<{ text: string; line: number }> {
	const tokens = parser.parse(markdown, {});
	return tokens.flatMap((token, index) =>
		token.type === 'td_open' || token.type === 'th_open'
			? [{ text: tokens[index + 1].content.trim(), line: (tokens[index + 1].map?.[0] ?? 0) + 1 }]
			: [],
	);
}

/**
 * GitHub's heading ids: lower case, punctuation other than `-` and `_` dropped, spaces to `-`,
 * a repeated id suffixed `-1`, `-2`…; plus ids set in HTML (`<a id="…">`).
 */
export function anchors(markdown: string): Set<string> {
	const tokens = parser.parse(markdown, {});
	const seen = new Map<string, number>();
	const ids = new Set<string>();
	tokens.forEach((token, index) => {
		if (token.type !== 'heading_open') return;
		const text = (tokens[index + 1].children ?? [])
			.filter((child) => child.type === 'text' || child.type === 'code_inline')
			.map((child) => child.content)
			.join('');
		const slug = text
			.toLowerCase()
			.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		ids.add(count === 0 ? slug : `${slug}-${count}`);
	});
	for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(match[1]);
	return ids;
}

/** The repository path (and `#anchor`) an address of this repository stands for, if it is one. */
export function repositoryPath(url: string): string | undefined {
	for (const [pattern, toPath] of REPOSITORY_URLS) {
		const match = url.match(pattern);
		if (match) return toPath(match);
	}
	return undefined;
}

/**
 * What is wrong with a link of `file` (a repository path), or undefined when it leads somewhere:
 * a missing file, or an anchor the target page does not have. Addresses outside the repository
 * are not fetched.
 */
export function brokenLink(file: string, target: string): string | undefined {
	let local: string;
	if (target.startsWith('#')) local = `${file}${target}`;
	else if (/^[a-z][a-z+.-]*:/i.test(target)) {
		const inRepository = repositoryPath(target);
		if (inRepository === undefined) return undefined;
		local = inRepository;
	} else local = path.posix.join(path.posix.dirname(file), target);
	const [filePart, anchor] = local.split('#', 2) as [string, string | undefined];
	const targetFile = decodeURIComponent(filePart);
	if (!existsSync(path.join(ROOT, targetFile))) return `${targetFile} does not exist`;
	if (anchor === undefined || anchor === '') return undefined;
	if (!targetFile.endsWith('.md')) return `${targetFile} is no Markdown page to hold #${anchor}`;
	if (!anchors(read(targetFile)).has(decodeURIComponent(anchor)))
		return `${targetFile} has no heading with the anchor #${anchor}`;
	return undefined;
}

/** The first path segments of the repository's tracked files: what a repository path starts with. */
export function trackedTopLevel(): Set<string> {
	const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
	return new Set(files.filter(Boolean).map((file) => file.split('/')[0]));
}

/**
 * Whether a code span is meant as a repository path: one word starting with a top-level entry of
 * the repository (`test/e2e/demo.test.ts`, `CHANGELOG.md`), without placeholders (`<section>`, `*`).
 */
export function namesRepositoryFile(text: string, topLevel: Set<string>): boolean {
	if (/[\s<>*{}$~]/.test(text) || text.startsWith('/')) return false;
	const first = text.split('/')[0];
	return topLevel.has(first) && (text.includes('/') || /\.\w+$/.test(text));
}
