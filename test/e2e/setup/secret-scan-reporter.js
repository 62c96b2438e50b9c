/**
 * Jest reporter: fails the run if a secret registered by an e2e test appears in the test output
 * (test names, failure messages, captured console output). n8n's log and database are searched
 * by the global teardown; this covers what the test run itself prints.
 */
const { existsSync, readFileSync } = require('node:fs');

class SecretScanReporter {
	constructor() {
		this.hits = [];
		this.scannedFiles = 0;
	}

	secrets() {
		const connectionFile = process.env.N8N_E2E_CONNECTION;
		if (!connectionFile || !existsSync(connectionFile)) return [];
		const { secretsFile } = JSON.parse(readFileSync(connectionFile, 'utf8'));
		return existsSync(secretsFile)
			? readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean)
			: [];
	}

	onTestResult(_test, result) {
		const secrets = this.secrets();
		if (secrets.length === 0) return;
		this.scannedFiles++;
		const output = [
			result.failureMessage ?? '',
			...result.testResults.flatMap((test) => [test.fullName, ...test.failureMessages]),
			...(result.console ?? []).map((entry) => entry.message),
		].join('\n');
		for (const secret of secrets) {
			if (output.includes(secret))
				this.hits.push(`${result.testFilePath} prints a test secret (${secret.slice(0, 12)}…)`);
		}
	}

	onRunComplete() {
		if (this.scannedFiles > 0) {
			console.log(
				`Secret scan of the test output: ${this.scannedFiles} files, ${this.hits.length} hits`,
			);
			for (const hit of this.hits) console.log(`  ${hit}`);
		}
	}

	getLastError() {
		return this.hits.length > 0
			? new Error(`Test secrets in the test output:\n${this.hits.join('\n')}`)
			: undefined;
	}
}

module.exports = SecretScanReporter;
