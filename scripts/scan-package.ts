/**
 * Runs n8n's own community-package scanner (@n8n/scan-community-package) the way n8n does before
 * verifying a package: over the source (package.json, nodes/, credentials/) and over the packed
 * tarball's JavaScript, with inline eslint-disable comments ignored. Also refuses runtime
 * dependencies. Exits non-zero on any finding.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}

interface Scanner {
	SOURCE_FILE_PATTERNS: string[];
	analyzePackage(dir: string, patterns: string[]): Promise<ScanResult>;
}

const root = path.resolve(__dirname, '..');

function packTarball(into: string): string {
	const output = execFileSync('npm', ['pack', '--json', '--pack-destination', into], {
		cwd: root,
		encoding: 'utf8',
	});
	const [{ filename }] = JSON.parse(output) as Array<{ filename: string }>;
	const unpacked = path.join(into, 'package');
	execFileSync('tar', ['-xzf', path.join(into, filename), '-C', into]);
	return unpacked;
}

function report(label: string, result: ScanResult): boolean {
	console.log(
		`${result.passed ? 'PASS' : 'FAIL'} ${label}${result.message ? `: ${result.message}` : ''}`,
	);
	if (result.details) console.log(result.details);
	return result.passed;
}

async function main(): Promise<void> {
	// The scanner is an ES module; load it the way Node does, not through the TS compiler.
	const scanner = (await import(
		'@n8n/scan-community-package/scanner/scanner.mjs' as string
	)) as Scanner;
	const workDir = mkdtempSync(path.join(tmpdir(), 'dialer-scan-'));
	try {
		const packageDir = packTarball(workDir);
		const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
			dependencies?: Record<string, string>;
		};
		const runtimeDependencies = Object.keys(manifest.dependencies ?? {});
		const results = [
			report(
				'source (package.json, nodes/, credentials/)',
				await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS),
			),
			report(
				'packed tarball (dist JavaScript, package.json)',
				await scanner.analyzePackage(packageDir, ['**/*.js', 'package.json']),
			),
			report('no runtime dependencies', {
				passed: runtimeDependencies.length === 0,
				message: runtimeDependencies.length ? `found ${runtimeDependencies.join(', ')}` : undefined,
			}),
		];
		if (results.includes(false)) process.exitCode = 1;
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
}

void main();
