/**
 * Stops the run's n8n by PID whatever the tests did, then fails the run if any secret a test
 * registered appears in n8n's log or anywhere in its database (stored executions, their errors,
 * workflows; credentials are stored encrypted, so a plain-text hit is a leak). The folder is
 * kept when secrets leaked, for inspection.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { stopGroup } from '../../../scripts/n8n/instance';
import { readConnection, type E2eConnection } from './connection';

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

function leaks(connection: E2eConnection): string[] {
	const secrets = [
		...new Set(readFileSync(connection.secretsFile, 'utf8').split('\n').filter(Boolean)),
	];
	const found: string[] = [];
	for (const file of storedFiles(connection)) {
		const content = readFileSync(file);
		for (const secret of secrets) {
			if (content.includes(secret))
				found.push(`${path.basename(file)} contains a test secret (${secret.slice(0, 12)}…)`);
		}
	}
	return found;
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

	const leaked = leaks(connection);
	const secretCount = readFileSync(connection.secretsFile, 'utf8')
		.split('\n')
		.filter(Boolean).length;
	console.log(
		`\nSecret scan: ${secretCount} test secrets searched in ${storedFiles(connection)
			.map((f) => path.basename(f))
			.join(', ')}: ${leaked.length} hits`,
	);
	if (leaked.length === 0 && process.env.E2E_KEEP_N8N !== '1') {
		await rm(connection.userFolder, { recursive: true, force: true });
	} else {
		console.log(`n8n user folder kept: ${connection.userFolder}`);
	}
	if (leaked.length > 0) throw new Error(`Test secrets leaked:\n${leaked.join('\n')}`);
}
