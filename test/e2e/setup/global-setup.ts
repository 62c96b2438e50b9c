/**
 * One n8n for the whole e2e run: built package packed and installed like a user's, started on
 * 127.0.0.1, connection details handed to test files through a JSON file.
 * E2E_SKIP_BUILD=1 packs the existing dist/; E2E_KEEP_N8N=1 keeps n8n's folder (log, database);
 * E2E_N8N_LOG_LEVEL sets n8n's log level (default debug).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { startN8n, type N8nInstance } from '../../../scripts/n8n/instance';
import { CONNECTION_ENV, type E2eConnection } from './connection';

declare global {
	// Read by the global teardown, which runs in the same process.
	var n8nE2eInstance: N8nInstance | undefined;
}

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const n8n = await startN8n({
		build: process.env.E2E_SKIP_BUILD !== '1',
		keepUserFolder: process.env.E2E_KEEP_N8N === '1',
		// Debug logging makes the secret check meaningful (it is where request details would
		// leak); E2E_N8N_LOG_LEVEL=info takes its cost out of throughput measurements.
		env: {
			N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL ?? 'debug',
			GENERIC_TIMEZONE: 'America/Sao_Paulo',
		},
	});
	globalThis.n8nE2eInstance = n8n;

	const connection: E2eConnection = {
		baseUrl: n8n.baseUrl,
		pid: n8n.pid,
		userFolder: n8n.userFolder,
		logFile: n8n.logFile,
		ownerEmail: n8n.ownerEmail,
		ownerPassword: n8n.ownerPassword,
		apiKey: n8n.api.key,
		secretsFile: path.join(n8n.userFolder, 'e2e-secrets.txt'),
	};
	writeFileSync(connection.secretsFile, '');
	const file = path.join(n8n.userFolder, 'e2e-connection.json');
	writeFileSync(file, JSON.stringify(connection, null, '\t'));
	process.env[CONNECTION_ENV] = file;
	const phases = Object.entries(n8n.timings).map(
		([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`,
	);
	console.log(
		`\nn8n ready at ${n8n.baseUrl} in ${((Date.now() - started) / 1000).toFixed(1)} s (${phases.join(', ')})`,
	);
}
