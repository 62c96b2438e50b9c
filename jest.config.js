/**
 * Unit tests run in parallel on every core (`--maxWorkers=100%` in `npm run test:unit`: Jest's
 * default leaves one core idle, half of a 2-core CI machine); e2e tests share one real n8n, so
 * `npm run test:e2e` runs them in band.
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.dev.json' }];

module.exports = {
	reporters: ['default', '<rootDir>/test/e2e/setup/secret-scan-reporter.js'],
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: [
				'<rootDir>/test/unit/**/*.test.ts',
				'<rootDir>/test/simulator/**/*.test.ts',
				'<rootDir>/test/package/**/*.test.ts',
			],
		},
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			// The browser test shares this project's n8n: one start per run.
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts', '<rootDir>/test/browser/**/*.test.ts'],
			globalSetup: '<rootDir>/test/e2e/setup/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/setup/global-teardown.ts',
			setupFilesAfterEnv: ['<rootDir>/test/e2e/setup/test-timeout.ts'],
		},
		{
			// The same harness on the last n8n 1.x line (Node 22): loading, the action node, the
			// trigger, the fault classes, the Report Trigger, supervision, recordings, the examples
			// imported in the editor (Chromium) and the morning digest e-mailed over SMTP. `globals.n8nVersion` is a major or a version of
			// scripts/n8n/runtime.ts.
			// The credential test is left out: n8n 1.x's credential tester shows its own generic
			// texts, not the credential's (docs/compatibility.md). DB_SQLITE_POOL_SIZE=3 is 2.x's
			// default, which docs/compatibility.md asks of 1.x users: with 1.x's single SQLite
			// connection, simultaneous Data Table writes break n8n's transactions for good
			// (n8n-io/n8n#20916).
			displayName: 'e2e-n8n1',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: [
				'<rootDir>/test/e2e/package-loading.test.ts',
				'<rootDir>/test/e2e/dialer.test.ts',
				'<rootDir>/test/e2e/trigger.test.ts',
				'<rootDir>/test/e2e/trigger-security.test.ts',
				'<rootDir>/test/e2e/dialer-faults.test.ts',
				'<rootDir>/test/e2e/report-trigger.test.ts',
				'<rootDir>/test/e2e/report-trigger-events.test.ts',
				'<rootDir>/test/e2e/report-trigger-timezone.test.ts',
				'<rootDir>/test/e2e/supervision.test.ts',
				'<rootDir>/test/e2e/pause-alerts-model.test.ts',
				'<rootDir>/test/e2e/recordings.test.ts',
				'<rootDir>/test/browser/examples-import.test.ts',
				'<rootDir>/test/browser/wallboard.test.ts',
				'<rootDir>/test/e2e/morning-digest.test.ts',
			],
			globals: { n8nVersion: '1', n8nEnv: { DB_SQLITE_POOL_SIZE: '3' } },
			globalSetup: '<rootDir>/test/e2e/setup/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/setup/global-teardown.ts',
			setupFilesAfterEnv: ['<rootDir>/test/e2e/setup/test-timeout.ts'],
		},
		{
			// Starts its own n8n in queue mode (Redis, PostgreSQL, webhook processor, workers).
			displayName: 'queue',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/queue-mode/**/*.test.ts'],
			globalSetup: '<rootDir>/test/queue-mode/setup/global-setup.ts',
			globalTeardown: '<rootDir>/test/queue-mode/setup/global-teardown.ts',
		},
	],
};
