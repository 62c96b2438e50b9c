/**
 * One n8n in queue mode for the queue-mode run, started here (the runner's own process, whose exit
 * and signal hooks stop every process) rather than in a test file. E2E_SKIP_BUILD=1 packs the existing dist/;
 * E2E_KEEP_N8N=1 keeps every folder (logs, PostgreSQL data).
 */
import path from 'node:path';

import { startQueueMode, type QueueModeStack } from '../../../harness/queue-mode/stack';
import { publishConnection, readyLine } from '../../e2e/setup/connection';
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
	const connection = publishConnection<QueueConnection>(stack.api, {
		baseUrl: stack.main.baseUrl,
		n8nVersion: stack.n8nVersion,
		pid: stack.main.process.pid,
		userFolder: path.dirname(stack.main.process.logFile),
		logFile: stack.main.process.logFile,
		ownerEmail: stack.ownerEmail,
		ownerPassword: stack.ownerPassword,
		webhookBaseUrl: stack.webhook.baseUrl,
		webhookLogFile: stack.webhook.process.logFile,
		workers: stack.workers.map((w) => ({
			name: w.name,
			pid: w.process.pid,
			logFile: w.process.logFile,
		})),
	});
	globalThis.queueModeRun = { stack, connection };
	console.log(readyLine('n8n queue mode', started, stack.timings));
}
