/**
 * Stops the run's n8n by PID whatever the tests did, then fails the run if any secret a test
 * registered appears in n8n's log or anywhere in its database (stored executions, their errors,
 * workflows; credentials are stored encrypted, so a plain-text hit is a leak). The folder is
 * kept when secrets leaked, for inspection.
 */
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { stopGroup } from '../../../harness/n8n/instance';
import { readConnection, secretsIn, type E2eConnection } from './connection';

/** n8n's log and its SQLite files (the database, its write-ahead log and shared memory). */
function storedFiles(connection: E2eConnection): string[] {
	const dataFolder = path.join(connection.userFolder, '.n8n');
	const databaseFiles = existsSync(dataFolder)
		? readdirSync(dataFolder)
				.filter((name) => name.startsWith('database.sqlite'))
				.map((name) => path.join(dataFolder, name))
		: [];
	return [connection.logFile, ...databaseFiles].filter((file) => existsSync(file));
}

export default async function globalTeardown(): Promise<void> {
	const connection = readConnection();
	const instance = globalThis.n8nE2eInstance;
	globalThis.n8nE2eInstance = undefined;
	// Stopped first, so SQLite has written everything to its files before they are searched.
	if (instance) {
		await instance.stop({ keepUserFolder: true });
	} else {
		// Same process as the setup, so this is only a fallback; a later run reaps the pid file.
		await stopGroup(connection.pid);
	}

	const files = storedFiles(connection);
	const { secrets, hits } = secretsIn(connection, files);
	console.log(
		`\nSecret scan: ${secrets} test secrets searched in ${files.map((f) => path.basename(f)).join(', ')}: ${hits.length} hits`,
	);
	if (hits.length === 0 && process.env.E2E_KEEP_N8N !== '1') {
		await rm(connection.userFolder, { recursive: true, force: true });
	} else {
		console.log(`n8n user folder kept: ${connection.userFolder}`);
	}
	if (hits.length > 0) throw new Error(`Test secrets leaked:\n${hits.join('\n')}`);
}
