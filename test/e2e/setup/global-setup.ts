/**
 * One n8n for the whole e2e run: built package packed and installed like a user's, started on
 * 127.0.0.1, connection details handed to test files through a JSON file. The project's
 * `globals.n8nVersion` (jest.config.js) or DIALER_N8N_VERSION picks the n8n version;
 * `globals.n8nEnv` adds settings to n8n's environment.
 * E2E_SKIP_BUILD=1 packs the existing dist/; E2E_KEEP_N8N=1 keeps n8n's folder (log, database);
 * E2E_N8N_LOG_LEVEL sets n8n's log level (default debug).
 */
import type { ProjectConfig } from 'jest';

import { startN8n, type N8nInstance } from '../../../harness/n8n/instance';
import { publishConnection, readyLine } from './connection';

declare global {
	// Read by the global teardown, which runs in the same process.
	var n8nE2eInstance: N8nInstance | undefined;
}

export default async function globalSetup(_: unknown, project: ProjectConfig): Promise<void> {
	const started = Date.now();
	const n8n = await startN8n({
		version: project.globals?.n8nVersion as string | undefined,
		build: process.env.E2E_SKIP_BUILD !== '1',
		keepUserFolder: process.env.E2E_KEEP_N8N === '1',
		// Debug logging makes the secret check meaningful (it is where request details would
		// leak); E2E_N8N_LOG_LEVEL=info takes its cost out of throughput measurements.
		env: {
			N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL ?? 'debug',
			GENERIC_TIMEZONE: 'America/Sao_Paulo',
			...(project.globals?.n8nEnv as Record<string, string> | undefined),
		},
	});
	globalThis.n8nE2eInstance = n8n;
	publishConnection(n8n.api, {
		baseUrl: n8n.baseUrl,
		n8nVersion: n8n.n8nVersion,
		pid: n8n.pid,
		userFolder: n8n.userFolder,
		logFile: n8n.logFile,
		ownerEmail: n8n.ownerEmail,
		ownerPassword: n8n.ownerPassword,
	});
	console.log(readyLine(`n8n ${n8n.n8nVersion} at ${n8n.baseUrl}`, started, n8n.timings));
}
