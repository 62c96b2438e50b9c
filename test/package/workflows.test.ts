/**
 * The workflow check of `npm run lint` (scripts/lint-workflows.ts): the repository's workflows
 * pass it, and broken copies of them fail it, each problem named with its place.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { workflowProblems } from '../../scripts/lint-workflows';

const ROOT = path.resolve(__dirname, '..', '..');
const LINT = path.join(ROOT, 'scripts', 'lint-workflows.ts');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const WORKFLOWS = ['ci.yml', 'publish.yml'];
const original = (name: string) =>
	readFileSync(path.join(ROOT, '.github', 'workflows', name), 'utf8');

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'dialer-workflows-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a repository workflow with one text replaced (the text must be there). */
function brokenCopy(name: string, from: string, to: string): string {
	const text = original(name);
	expect(text).toContain(from);
	const file = path.join(dir, name);
	writeFileSync(file, text.replace(from, to));
	return file;
}

function lint(...files: string[]) {
	const result = spawnSync(TSX, [LINT, ...files], { cwd: ROOT, encoding: 'utf8' });
	return { status: result.status, stdout: result.stdout };
}

describe('npm run lint:workflows', () => {
	it('passes the repository workflows', () => {
		const result = lint();
		expect(result.stdout.trim().split('\n')).toEqual(
			WORKFLOWS.map((name) => `ok   .github/workflows/${name}`),
		);
		expect(result.status).toBe(0);
	});

	it('fails a broken copy, naming the file and the problem', () => {
		const broken = brokenCopy('ci.yml', '    runs-on:', '    runs_on:');
		const result = lint(path.join(ROOT, '.github', 'workflows', 'publish.yml'), broken);
		expect(result.status).toBe(1);
		expect(result.stdout).toContain('ok   .github/workflows/publish.yml');
		expect(result.stdout).toContain(`FAIL ${path.relative(ROOT, broken)}`);
		expect(result.stdout).toContain(
			"/jobs/test: Property conditions are not met (Additional property 'runs_on' is not allowed)",
		);
	});

	it.each([
		[
			'a misspelt trigger',
			'ci.yml',
			'  pull_request:\n',
			'  pull-request:\n',
			"/on: Property conditions are not met (Additional property 'pull-request' is not allowed)",
		],
		[
			'an unknown permission level',
			'publish.yml',
			'      id-token: write\n',
			'      id-token: writ\n',
			'/jobs/publish/permissions/id-token: Enum conditions are not met',
		],
		[
			'a step that neither runs nor uses anything',
			'publish.yml',
			'      - run: npm run build\n',
			'      - name: Build\n',
			'/jobs/publish/steps/',
		],
		['invalid YAML', 'ci.yml', "branches: ['**']", "branches: ['**'", 'Parse Error'],
	])('finds %s', (_case, name, from, to, problem) => {
		const problems = workflowProblems(brokenCopy(name, from, to));
		expect(problems.join('\n')).toContain(problem);
	});
});
