/**
 * How e2e test files reach the one n8n started by the global setup: a JSON file whose path is
 * in N8N_E2E_CONNECTION. Test files also record the secrets they use, so the teardown can
 * prove none of them reached n8n's log.
 */
import { appendFileSync, readFileSync } from 'node:fs';

import { N8nApi } from '../../../scripts/n8n/api';

export const CONNECTION_ENV = 'N8N_E2E_CONNECTION';

export interface E2eConnection {
	baseUrl: string;
	pid: number;
	userFolder: string;
	logFile: string;
	ownerEmail: string;
	ownerPassword: string;
	apiKey: string;
	/** Where production webhooks are served when not by baseUrl (queue mode's webhook processor). */
	webhookBaseUrl?: string;
	/** One secret per line, appended by test files. */
	secretsFile: string;
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
	} = readConnection();
	return N8nApi.connect({ baseUrl, email, password, apiKey, webhookBaseUrl });
}

/** Records a secret that must never appear in n8n's log; checked when the run ends. */
export function registerSecret(secret: string): void {
	appendFileSync(readConnection().secretsFile, `${secret}\n`);
}
