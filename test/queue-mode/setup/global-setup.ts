/**
 * One n8n in queue mode for the queue-mode run, started here (the runner's own process, whose exit
 * and signal hooks stop every process) rather than in a test file. E2E_SKIP_BUILD=1 packs the existing dist/;
 * E2E_KEEP_N8N=1 keeps every folder (logs, PostgreSQL data).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { startQueueMode, type QueueModeStack } from '../../../scripts/queue-mode/stack';
import { CONNECTION_ENV } from '../../e2e/setup/connection';
import { STALL_DETECTION, type QueueConnection } from './connection';

declare global {
	// Read by the global teardown, which runs in the same process.
	var queueModeRun: { stack: QueueModeStack; connection: QueueConnection } | undefined;
}

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const stack = await startQueueMode({
		build: process.env.E2E_SKIP_BUILD !== '1',
		keep: process.env.E2E_KEEP_N8N === '1',
		env: STALL_DETECTION,
	});
	const mainFolder = path.dirname(stack.main.process.logFile);
	const connection: QueueConnection = {
		baseUrl: stack.main.baseUrl,
		pid: stack.main.process.pid,
		userFolder: mainFolder,
		logFile: stack.main.process.logFile,
		ownerEmail: stack.ownerEmail,
		ownerPassword: stack.ownerPassword,
		apiKey: stack.api.key,
		webhookBaseUrl: stack.webhook.baseUrl,
		secretsFile: path.join(mainFolder, 'e2e-secrets.txt'),
		webhookLogFile: stack.webhook.process.logFile,
		workers: stack.workers.map((w) => ({
			name: w.name,
			pid: w.process.pid,
			logFile: w.process.logFile,
		})),
	};
	globalThis.queueModeRun = { stack, connection };
	writeFileSync(connection.secretsFile, '');
	const file = path.join(mainFolder, 'e2e-connection.json');
	writeFileSync(file, JSON.stringify(connection, null, '\t'));
	process.env[CONNECTION_ENV] = file;
	const phases = Object.entries(stack.timings).map(
		([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`,
	);
	console.log(
		`\nn8n queue mode ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${phases.join(', ')})`,
	);
}
