/**
 * Validates the GitHub Actions workflows against GitHub's workflow schema with action-validator
 * (@action-validator/core, the validator of the `action-validator` CLI compiled to WebAssembly).
 *
 * CLI: `npx tsx scripts/lint-workflows.ts [file.yml ...]`, by default every file in
 * .github/workflows/. Prints each problem with its place in the file; exits 1 if any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { validateWorkflow, type ValidationError } from '@action-validator/core';

const WORKFLOWS_DIR = path.resolve(__dirname, '..', '.github', 'workflows');

/**
 * The innermost errors: a "oneOf" failure holds one error list per alternative, and the useful
 * message (a misspelt key, a wrong value) is at the bottom of them.
 */
function leafErrors(errors: ValidationError[]): ValidationError[] {
	return errors.flatMap((error) =>
		'states' in error && error.states?.length
			? leafErrors(error.states.flatMap((state) => state.errors))
			: [error],
	);
}

function describe(error: ValidationError): string {
	const where =
		'location' in error && error.location
			? `line ${error.location.line} column ${error.location.column}`
			: ('path' in error && error.path) || '/';
	return `${where}: ${error.title}${error.detail ? ` (${error.detail})` : ''}`;
}

export function workflowProblems(file: string): string[] {
	const { errors } = validateWorkflow(readFileSync(file, 'utf8'));
	return [...new Set(leafErrors(errors).map(describe))];
}

function main(files: string[]): void {
	const targets = files.length
		? files
		: readdirSync(WORKFLOWS_DIR)
				.filter((name) => /\.ya?ml$/.test(name))
				.map((name) => path.join(WORKFLOWS_DIR, name));
	if (targets.length === 0) throw new Error(`no workflow files in ${WORKFLOWS_DIR}`);
	let failed = false;
	for (const file of targets) {
		const problems = workflowProblems(file);
		const label = path.relative(process.cwd(), file);
		console.log(`${problems.length ? 'FAIL' : 'ok  '} ${label}`);
		for (const problem of problems) console.log(`     ${problem}`);
		failed ||= problems.length > 0;
	}
	if (failed) process.exitCode = 1;
}

if (require.main === module) main(process.argv.slice(2));
