/**
 * Fails the run if any secret a test registered appears in n8n's log, and stops the run's n8n
 * by PID whatever the tests did (its folder is kept when secrets leaked, for inspection).
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';

import { stopGroup } from '../../../scripts/n8n/instance';
import { readConnection } from './connection';

function leakedSecrets(secretsFile: string, logFile: string): string[] {
	const secrets = new Set(readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean));
	const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
	return [...secrets].filter((secret) => log.includes(secret));
}

export default async function globalTeardown(): Promise<void> {
	const connection = readConnection();
	const leaked = leakedSecrets(connection.secretsFile, connection.logFile);
	const keep = leaked.length > 0 || process.env.E2E_KEEP_N8N === '1';

	const instance = globalThis.n8nE2eInstance;
	globalThis.n8nE2eInstance = undefined;
	if (instance) {
		await instance.stop({ keepUserFolder: keep });
	} else {
		// Same process as the setup, so this is only a fallback; a later run reaps the pid file.
		await stopGroup(connection.pid);
		if (!keep) await rm(connection.userFolder, { recursive: true, force: true });
	}
	if (keep) console.log(`\nn8n user folder kept: ${connection.userFolder}`);
	if (leaked.length > 0) {
		throw new Error(`${leaked.length} test secret(s) appear in n8n's log ${connection.logFile}`);
	}
}
