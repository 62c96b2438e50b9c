/**
 * The published package as n8n's own installer (Settings → Community Nodes) puts it on disk:
 * `npm pack`, the tarball extracted into `.n8n/nodes/node_modules/<name>`, devDependencies,
 * peerDependencies and optionalDependencies removed from its package.json, then
 * `npm install --ignore-scripts` in that folder. Needs a built dist/ (`npm run build`, which
 * `npm test` runs before the unit tests).
 */
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

import { references } from '../support/markdown';

const ROOT = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};
/** What n8n puts on the module path of community packages (its own node_modules) and allows them to import. */
const PROVIDED_BY_N8N = ['n8n-workflow', 'lodash', 'luxon', 'moment', 'p-limit', 'zod'];

interface PackResult {
	filename: string;
	size: number;
	unpackedSize: number;
	files: Array<{ path: string }>;
}

let work: string;
let packed: PackResult;
let installed: string;
/** A folder with only what n8n itself provides to community packages (NODE_PATH). */
let hostModules: string;

/** Every file below `dir`, relative to it, skipping what `npm install` itself adds. */
function filesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
		.filter((file) => !file.startsWith('node_modules/') && file !== 'package-lock.json')
		.sort();
}

/** The source files of a kind, relative to the project root. */
function sources(dir: string, pattern: RegExp): string[] {
	return (readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
		.filter((file) => pattern.test(file))
		.map((file) => path.join(dir, file));
}

/** The package's files as the build should produce them, from the sources alone. */
function expectedFiles(): string[] {
	const typescript = ['nodes', 'credentials'].flatMap((dir) => sources(dir, /(?<!\.d)\.ts$/));
	return [
		'LICENSE',
		'README.md',
		'index.d.ts',
		'index.js',
		'package.json',
		...typescript.flatMap((file) => [
			`dist/${file.replace(/\.ts$/, '.js')}`,
			`dist/${file.replace(/\.ts$/, '.d.ts')}`,
		]),
		...sources('icons', /\.svg$/).map((file) => `dist/${file}`),
		...sources('nodes', /\.node\.json$/).map((file) => `dist/${file}`),
	].sort();
}

beforeAll(() => {
	if (!existsSync(path.join(ROOT, 'dist')))
		throw new Error('dist/ is missing: run `npm run build` first');
	work = mkdtempSync(path.join(tmpdir(), 'dialer-tarball-'));
	[packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: ROOT,
			encoding: 'utf8',
		}),
	) as PackResult[];

	installed = path.join(work, '.n8n', 'nodes', 'node_modules', manifest.name);
	mkdirSync(installed, { recursive: true });
	execFileSync('tar', [
		'-xzf',
		path.join(work, packed.filename),
		'-C',
		installed,
		'--strip-components=1',
	]);
	const installedManifestFile = path.join(installed, 'package.json');
	const installedManifest = JSON.parse(readFileSync(installedManifestFile, 'utf8')) as Record<
		string,
		unknown
	>;
	delete installedManifest.devDependencies;
	delete installedManifest.peerDependencies;
	delete installedManifest.optionalDependencies;
	writeFileSync(installedManifestFile, JSON.stringify(installedManifest, null, 2));
	execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
		cwd: installed,
		stdio: 'ignore',
	});

	hostModules = path.join(work, 'n8n-modules');
	mkdirSync(hostModules);
	for (const name of PROVIDED_BY_N8N)
		if (existsSync(path.join(ROOT, 'node_modules', name)))
			symlinkSync(path.join(ROOT, 'node_modules', name), path.join(hostModules, name));

	console.log(
		`${packed.filename}: ${packed.files.length} files, ${(packed.size / 1024).toFixed(1)} kB packed, ${(packed.unpackedSize / 1024).toFixed(1)} kB unpacked`,
	);
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the published package', () => {
	it('holds exactly the entry point (index.js, index.d.ts), the built nodes and credentials (JavaScript, declarations, icons, codex), README, LICENSE and package.json: no sources, tests or source maps', () => {
		const tarball = packed.files.map((file) => file.path).sort();
		expect(tarball).toEqual(expectedFiles());
		expect(filesUnder(installed)).toEqual(expectedFiles());
	});

	it("README's links and images work on the registry's package page, which has only the package's files: each is a README anchor or an absolute address", () => {
		const readme = readFileSync(path.join(installed, 'README.md'), 'utf8');
		const relative = references(readme).filter(
			({ target }) => !target.startsWith('#') && !/^[a-z][a-z+.-]*:/i.test(target),
		);
		expect(relative.map(({ target, line }) => `README.md:${line} ${target}`)).toEqual([]);
		expect(references(readme).length).toBeGreaterThan(20);
	});

	it('installs without any dependency of its own', () => {
		const modules = path.join(installed, 'node_modules');
		expect(
			existsSync(modules) ? readdirSync(modules).filter((name) => !name.startsWith('.')) : [],
		).toEqual([]);
	});

	it('every node and credential package.json declares exists and loads as a class n8n can read', () => {
		const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		for (const file of declared) expect(filesUnder(installed)).toContain(file);

		// In a fresh Node process, with only what n8n itself provides on the module path.
		const loader = `
			const path = require('node:path');
			const out = {};
			for (const file of ${JSON.stringify(declared)}) {
				const exported = Object.values(require(path.join(${JSON.stringify(installed)}, file)));
				out[file] = exported.filter((value) => typeof value === 'function').map((Type) => {
					const instance = new Type();
					const description = instance.description ?? instance;
					return { name: description.name, displayName: description.displayName, properties: description.properties.length };
				});
			}
			process.stdout.write(JSON.stringify(out));
		`;
		const loaded = JSON.parse(
			execFileSync(process.execPath, ['-e', loader], {
				cwd: work,
				encoding: 'utf8',
				env: { PATH: process.env.PATH, NODE_PATH: hostModules },
			}),
		) as Record<string, Array<{ name: string; displayName: string; properties: number }>>;

		expect(Object.keys(loaded)).toEqual(declared);
		for (const file of declared) {
			expect(loaded[file]).toHaveLength(1);
			expect(loaded[file][0]).toEqual({
				name: expect.stringMatching(/^[a-z][A-Za-z]+$/),
				displayName: expect.stringMatching(/^Dialer/),
				properties: expect.any(Number),
			});
			expect(loaded[file][0].properties).toBeGreaterThan(0);
		}
	});

	it("require('n8n-nodes-dialer') gives the same node and credential classes n8n loads, for code that embeds or tests them", () => {
		const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		// A fresh Node process that finds the installed package by its name, as an embedder's would.
		const embedder = `
			const path = require('node:path');
			const entry = require(${JSON.stringify(manifest.name)});
			const declared = {};
			for (const file of ${JSON.stringify(declared)})
				for (const [name, Type] of Object.entries(require(path.join(${JSON.stringify(installed)}, file))))
					declared[name] = entry[name] === Type;
			process.stdout.write(JSON.stringify({ exported: Object.keys(entry), declared }));
		`;
		const { exported, declared: sameClass } = JSON.parse(
			execFileSync(process.execPath, ['-e', embedder], {
				cwd: work,
				encoding: 'utf8',
				env: {
					PATH: process.env.PATH,
					NODE_PATH: [hostModules, path.dirname(installed)].join(path.delimiter),
				},
			}),
		) as { exported: string[]; declared: Record<string, boolean> };

		expect(exported.sort()).toEqual([
			'Dialer',
			'DialerApi',
			'DialerReportTrigger',
			'DialerTrigger',
		]);
		expect(sameClass).toEqual(Object.fromEntries(exported.map((name) => [name, true])));
	});

	it('gives TypeScript the classes with their n8n types', () => {
		const nodeModules = path.dirname(installed);
		symlinkSync(
			path.join(ROOT, 'node_modules', 'n8n-workflow'),
			path.join(nodeModules, 'n8n-workflow'),
		);
		const embedder = path.join(nodeModules, '..', 'embed.ts');
		writeFileSync(
			embedder,
			[
				"import type { ICredentialType, INodeType } from 'n8n-workflow';",
				`import { Dialer, DialerApi, DialerReportTrigger, DialerTrigger } from '${manifest.name}';`,
				'export const nodes: INodeType[] = [new Dialer(), new DialerTrigger(), new DialerReportTrigger()];',
				'export const credential: ICredentialType = new DialerApi();',
			].join('\n'),
		);
		const program = ts.createProgram([embedder], {
			strict: true,
			noEmit: true,
			module: ts.ModuleKind.CommonJS,
			moduleResolution: ts.ModuleResolutionKind.Node10,
			target: ts.ScriptTarget.ES2022,
			types: [],
			skipLibCheck: true,
		});
		const problems = ts
			.getPreEmitDiagnostics(program)
			.map((problem) => ts.flattenDiagnosticMessageText(problem.messageText, '\n'));
		expect(problems).toEqual([]);
	});
});
