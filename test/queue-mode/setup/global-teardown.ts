/**
 * Fails the run if a registered secret appears in any n8n process's log, and stops the whole
 * queue-mode installation (n8n processes, Redis, PostgreSQL) whatever the tests did.
 */
import { secretsIn } from '../../e2e/setup/connection';

export default async function globalTeardown(): Promise<void> {
	const run = globalThis.queueModeRun;
	globalThis.queueModeRun = undefined;
	if (!run) return;
	const { stack, connection } = run;
	const logs = [stack.main, stack.webhook, ...stack.workers].map((p) => p.process.logFile);
	const { hits } = secretsIn(connection, logs);
	await stack.stop();
	if (hits.length > 0) throw new Error(`Test secrets in the n8n logs:\n${hits.join('\n')}`);
}
