/**
 * The shipped code imports downward only: each node folder and the credential import their own
 * files and nodes/shared/, nodes/shared/ imports nothing of theirs, and no files import each other
 * in a circle (CONTRIBUTING, Layout). Imports between the repository's parts go one way: the
 * harness uses the package, never the tests or scripts/, and the simulator, the tests' oracle,
 * not even the package; the package uses neither. Read with TypeScript's own import scanner,
 * type-only imports included: a type that travels upward ties the files as much as a value does.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const SHARED = 'nodes/shared';
const SIMULATOR = 'harness/simulator/';

/** The code files under these folders, as repository paths (installed packages left out). */
const codeFiles = (dirs: string[]) =>
	dirs.flatMap((dir) =>
		(readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
			.map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
			.filter((file) => /\.(ts|js|cjs|mjs)$/.test(file) && !file.includes('node_modules/')),
	);

const shippedFiles = codeFiles(['nodes', 'credentials']);
const harnessFiles = codeFiles(['harness']);

/** The repository file a relative import names, as TypeScript finds it (`.ts` when none is). */
function resolved(from: string, specifier: string): string {
	const base = path.posix.join(path.posix.dirname(from), specifier);
	const candidates = [`${base}.ts`, `${base}/index.ts`, base];
	return candidates.find((file) => existsSync(path.join(ROOT, file))) ?? candidates[0];
}

/** Each file's imports of repository files (packages left out). */
const importsOf = (files: string[]) =>
	new Map(
		files.map((file) => {
			const { importedFiles } = ts.preProcessFile(
				readFileSync(path.join(ROOT, file), 'utf8'),
				true,
				true,
			);
			const local = importedFiles
				.map(({ fileName }) => fileName)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => resolved(file, specifier));
			return [file, local];
		}),
	);
const imports = importsOf(shippedFiles);
const harnessImports = importsOf(harnessFiles);

/** The imports in `graph` whose target's repository part `allowedTarget` refuses. */
const refused = (graph: Map<string, string[]>, allowedTarget: (to: string) => boolean) =>
	[...graph].flatMap(([from, targets]) =>
		targets.filter((to) => !allowedTarget(to)).map((to) => `${from} -> ${to}`),
	);

/** The package's files: its source, its build and its main (index.js with its types). */
const inPackage = (file: string) => /^(nodes|credentials|dist)\/|^index(\.|$)/.test(file);

/** What a file belongs to: nodes/shared, one node's folder, or the credentials. */
function partOf(file: string): string {
	if (file === SHARED || file.startsWith(`${SHARED}/`)) return SHARED;
	const [top, folder] = file.split('/');
	return top === 'nodes' ? `nodes/${folder}` : top;
}

/** A part may import its own files and nodes/shared; nodes/shared only its own. */
function allowed(from: string, to: string): boolean {
	const [fromPart, toPart] = [partOf(from), partOf(to)];
	return toPart === fromPart || (toPart === SHARED && fromPart !== SHARED);
}

/** The groups of files that import each other in a circle (Tarjan's strongly connected parts). */
function circles(graph: Map<string, string[]>): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const found: string[][] = [];
	const visit = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (!graph.has(next)) continue;
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (stack.includes(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const group: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			group.push(member);
		} while (member !== file);
		if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group.sort());
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return found;
}

it('reads the imports of every node and the credential', () => {
	expect(shippedFiles.length).toBeGreaterThan(50);
	for (const node of ['Dialer', 'DialerTrigger', 'DialerReportTrigger']) {
		expect(imports.get(`nodes/${node}/${node}.node.ts`)?.length).toBeGreaterThan(0);
	}
	expect(imports.get('credentials/DialerApi.credentials.ts')).toContain(
		`${SHARED}/transport/server.ts`,
	);
});

it('every import names a file that exists', () => {
	const missing = [...imports].flatMap(([from, targets]) =>
		targets.filter((to) => !existsSync(path.join(ROOT, to))).map((to) => `${from} -> ${to}`),
	);
	expect(missing).toEqual([]);
});

it('no node imports another node or the credential, and nodes/shared imports none of them', () => {
	const upwardOrAcross = [...imports].flatMap(([from, targets]) =>
		targets.filter((to) => !allowed(from, to)).map((to) => `${from} -> ${to}`),
	);
	expect(upwardOrAcross).toEqual([]);
});

it('no files of nodes/ and credentials/ import each other in a circle', () => {
	expect(circles(imports)).toEqual([]);
});

it('reads the imports of the harness', () => {
	expect(harnessFiles.length).toBeGreaterThan(100);
	expect(harnessImports.get('harness/demo.ts')).toContain('harness/simulator/index.ts');
	expect(harnessImports.get('harness/bench/lib/rememberedKeys.ts')).toContain(
		'nodes/DialerReportTrigger/cursor.ts',
	);
});

it('nodes/ and credentials/ import neither the harness nor test/ nor scripts/', () => {
	expect(refused(imports, inPackage)).toEqual([]);
});

it('the harness imports its own files and the package, never test/ or scripts/', () => {
	// Its ESLint set-up extends the package's TypeScript rules.
	const harnessMay = (to: string) =>
		to.startsWith('harness/') || inPackage(to) || to === 'eslint.config.mjs';
	expect(refused(harnessImports, harnessMay)).toEqual([]);
});

it('the simulator imports only its own files: it knows the API contract, not the package', () => {
	const simulator = new Map([...harnessImports].filter(([from]) => from.startsWith(SIMULATOR)));
	expect(simulator.size).toBeGreaterThan(30);
	expect(refused(simulator, (to) => to.startsWith(SIMULATOR))).toEqual([]);
});
