/** Unit tests run in parallel and fast; e2e tests drive a real n8n and run one file at a time. */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.dev.json', isolatedModules: true }];

module.exports = {
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/simulator/**/*.test.ts'],
		},
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			globalSetup: '<rootDir>/test/e2e/setup/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/setup/global-teardown.ts',
			testTimeout: 180000,
			maxWorkers: 1,
		},
	],
};
