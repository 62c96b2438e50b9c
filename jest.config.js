/**
 * Unit tests run in parallel on every core (`--maxWorkers=100%` in `npm run test:unit`: Jest's
 * default leaves one core idle, half of a 2-core CI machine); e2e tests share one real n8n, so
 * `npm run test:e2e` runs them in band.
 */
const lanes = require('./test/setup/lanes');

const tsJest = ['ts-jest', { tsconfig: 'tsconfig.dev.json' }];

/** A project that runs these files, in this order, against the n8n its global setup starts. */
const realN8n = (files) => ({
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
	testMatch: files.map((file) => `<rootDir>/${file}`),
	globalSetup: '<rootDir>/test/e2e/setup/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/setup/global-teardown.ts',
	setupFilesAfterEnv: ['<rootDir>/test/e2e/setup/test-timeout.ts'],
});

module.exports = {
	testSequencer: '<rootDir>/test/setup/sequencer.js',
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
			// n8n 2.41.1: every e2e suite, the browser tests included (they share its n8n).
			displayName: 'e2e',
			...realN8n(lanes.suites.e2e),
		},
		{
			// The same harness on the last n8n 1.x line (Node 22). `globals.n8nVersion` is a major or
			// a version of harness/n8n/runtime.ts. DB_SQLITE_POOL_SIZE=3 is 2.x's default, which
			// docs/compatibility.md asks of 1.x users: with 1.x's single SQLite connection,
			// simultaneous Data Table writes break n8n's transactions for good (n8n-io/n8n#20916).
			displayName: 'e2e-n8n1',
			...realN8n(lanes.suites.n8n1),
			globals: { n8nVersion: '1', n8nEnv: { DB_SQLITE_POOL_SIZE: '3' } },
		},
		{
			// Starts its own n8n in queue mode (Redis, PostgreSQL, webhook processor, workers).
			displayName: 'queue',
			...realN8n(lanes.suites.queueMode),
			globalSetup: '<rootDir>/test/queue-mode/setup/global-setup.ts',
			globalTeardown: '<rootDir>/test/queue-mode/setup/global-teardown.ts',
			setupFilesAfterEnv: [],
		},
	],
};
