/**
 * Fails the run if a registered secret appears in any n8n process's log, and stops the whole
 * queue-mode installation (n8n processes, Redis, PostgreSQL) whatever the tests did.
 */
import { existsSync, readFileSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
	const run = globalThis.queueModeRun;
	globalThis.queueModeRun = undefined;
	if (!run) return;
	const { stack, connection } = run;
	const secrets = readFileSync(connection.secretsFile, 'utf8').split('\n').filter(Boolean);
	const logs = [stack.main, stack.webhook, ...stack.workers]
		.map((p) => p.process.logFile)
		.filter((file) => existsSync(file))
		.map((file) => readFileSync(file, 'utf8'));
	const leaked = secrets.filter((secret) => logs.some((log) => log.includes(secret)));
	await stack.stop();
	if (leaked.length > 0) throw new Error(`${leaked.length} test secret(s) appear in the n8n logs`);
}
