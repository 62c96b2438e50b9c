/**
 * Fails the run if a registered secret appears in any n8n process's log, prints the lines of each
 * log that name an error (what a CI log needs to tell why an execution failed or went missing),
 * and stops the whole queue-mode installation (n8n processes, Redis, PostgreSQL) whatever the
 * tests did.
 */
import { readFileSync } from 'node:fs';

import { secretsIn } from '../../e2e/setup/connection';

const ERROR_LINES_SHOWN = 20;
/** Lines that name an error without being one: migrations' names, the absent Python runner. */
const NOISE = /migration|Python task runner/i;

function errorLines(logFile: string): string[] {
	try {
		return readFileSync(logFile, 'utf8')
			.split('\n')
			.filter((line) => /error|stalled|crash|failed/i.test(line) && !NOISE.test(line));
	} catch {
		return [];
	}
}

export default async function globalTeardown(): Promise<void> {
	const run = globalThis.queueModeRun;
	globalThis.queueModeRun = undefined;
	if (!run) return;
	const { stack, connection } = run;
	const logs = [stack.main, stack.webhook, ...stack.workers].map((p) => p.process.logFile);
	const { hits } = secretsIn(connection, logs);
	const names = ['main', 'webhook', ...stack.workers.map((_, i) => `worker-${i + 1}`)];
	logs.forEach((logFile, i) => {
		const lines = errorLines(logFile);
		if (hits.length === 0 && lines.length > 0)
			console.log(
				`n8n ${names[i]}: ${lines.length} log lines naming an error, the last ${Math.min(lines.length, ERROR_LINES_SHOWN)}:\n` +
					lines.slice(-ERROR_LINES_SHOWN).join('\n'),
			);
	});
	await stack.stop();
	if (hits.length > 0) throw new Error(`Test secrets in the n8n logs:\n${hits.join('\n')}`);
}
