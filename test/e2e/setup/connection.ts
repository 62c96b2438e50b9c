/**
 * How e2e test files reach the n8n started by the global setup: a JSON file whose path is in
 * N8N_E2E_CONNECTION. Test files also record the secrets they use, so the teardown can prove
 * none of them reached n8n's log.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { N8nApi } from '../../../harness/n8n/api';
import type { N8nInstance } from '../../../harness/n8n/instance';

export const CONNECTION_ENV = 'N8N_E2E_CONNECTION';

export type E2eConnection = Pick<
	N8nInstance,
	'baseUrl' | 'n8nVersion' | 'pid' | 'userFolder' | 'logFile' | 'ownerEmail' | 'ownerPassword'
> & {
	/** '' where workflows are managed through the editor's endpoints (n8n 1.x). */
	apiKey: string;
	workflowApi: N8nApi['workflowApi'];
	/** Where production webhooks are served when not by baseUrl (queue mode's webhook processor). */
	webhookBaseUrl?: string;
	/** One secret per line, appended by test files. */
	secretsFile: string;
};

/**
 * For a global setup: writes the connection (with an empty secrets file) into the main n8n's
 * user folder and points N8N_E2E_CONNECTION at it, for the test files and the teardown.
 */
export function publishConnection<T extends E2eConnection>(
	api: N8nApi,
	fields: Omit<T, 'apiKey' | 'workflowApi' | 'secretsFile'>,
): T {
	const connection = {
		...fields,
		apiKey: api.keyIfAny,
		workflowApi: api.workflowApi,
		secretsFile: path.join(fields.userFolder, 'e2e-secrets.txt'),
	} as T;
	writeFileSync(connection.secretsFile, '');
	const file = path.join(fields.userFolder, 'e2e-connection.json');
	writeFileSync(file, JSON.stringify(connection, null, '\t'));
	process.env[CONNECTION_ENV] = file;
	return connection;
}

/** `n8n … ready in 12.3 s (runtime 0.0 s, pack 2.1 s, …)` for a global setup's log. */
export function readyLine(what: string, started: number, timings: Record<string, number>): string {
	const phases = Object.entries(timings).map(
		([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`,
	);
	return `\n${what} ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${phases.join(', ')})`;
}

export function readConnection(): E2eConnection {
	const file = process.env[CONNECTION_ENV];
	if (!file)
		throw new Error(
			`${CONNECTION_ENV} is not set: run e2e tests with \`npx jest --selectProjects e2e\``,
		);
	return JSON.parse(readFileSync(file, 'utf8')) as E2eConnection;
}

/** A client logged in as the owner (for internal REST) using the run's API key. */
export function connectN8n(): Promise<N8nApi> {
	const {
		baseUrl,
		ownerEmail: email,
		ownerPassword: password,
		apiKey,
		webhookBaseUrl,
		workflowApi,
	} = readConnection();
	return N8nApi.connect({ baseUrl, email, password, apiKey, webhookBaseUrl, workflowApi });
}

/** The secrets test files registered, and which of `files` contain one (for a teardown). */
export function secretsIn(
	connection: E2eConnection,
	files: string[],
): { secrets: number; hits: string[] } {
	const secrets = [
		...new Set(readFileSync(connection.secretsFile, 'utf8').split('\n').filter(Boolean)),
	];
	const hits: string[] = [];
	for (const file of files.filter((candidate) => existsSync(candidate))) {
		const content = readFileSync(file);
		for (const secret of secrets) {
			if (content.includes(secret))
				hits.push(`${path.basename(file)} contains a test secret (${secret.slice(0, 12)}…)`);
		}
	}
	return { secrets: secrets.length, hits };
}

/** Records a secret that must never appear in n8n's log; checked when the run ends. */
export function registerSecret(secret: string): void {
	appendFileSync(readConnection().secretsFile, `${secret}\n`);
}
