/**
 * What a browser test of the examples starts from, as a user would: a dialer (the simulator), the
 * credentials only the user can know (the Dialer API, the wallboard's login and key), a folder for
 * the examples' files, on n8n 1.x the agents' table made by hand as the notes say, and an editor
 * page logged in. `close` takes all of it away again, the examples imported and the table too.
 */
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';

import type { Credential, N8nApi } from '../../harness/n8n/api';
import { AGENT_TABLE_NAME, AgentTable, workflowsCreateTables } from '../../harness/n8n/dataTables';
import { simulatorCredential } from '../../harness/n8n/dialer';
import { launchEditorBrowser } from '../../harness/editor';
import { startSimulator } from '../../harness/simulator';
import type { DialerSimulator, SimulatorOptions } from '../../harness/simulator/types';
import { nowSeconds, pauseIn } from '../e2e/support/liveAlerts';
import { event } from '../e2e/support/triggerWorkflows';
import { connectN8n, readConnection, registerSecret } from '../e2e/setup/connection';
import { makeOutputFolder, removeOutputFolder } from '../e2e/support/supervision';
import { ExampleImporter } from './exampleImport';

export interface EditorSession {
	api: N8nApi;
	n8nVersion: string;
	simulator: DialerSimulator;
	webhookSecret: string;
	credential: Credential;
	wallboardLogin: { user: string; password: string };
	/** The wallboard's Basic Auth login and its JWT key, by credential type. */
	wallboard: Record<'httpBasicAuth' | 'jwtAuth', Credential>;
	/** The agents' table there was before the session: none, unless a run before left it. */
	tableBefore?: AgentTable;
	/** n8n 1.x: made by hand as the notes say; 2.x: none (the examples make it when published). */
	table?: AgentTable;
	outputFolder: string;
	importer: ExampleImporter;
	page: Page;
	close(): Promise<void>;
}

/** A session whose secrets and credential names carry `label`, so that each test's differ. */
export async function openEditorSession(
	label: string,
	simulatorOptions: SimulatorOptions = {},
): Promise<EditorSession> {
	const api = await connectN8n();
	const { n8nVersion, ownerEmail, ownerPassword } = readConnection();
	const webhookSecret = `${label}-webhook-secret`;
	const wallboardLogin = { user: 'wallboard', password: `${label}-wallboard-password` };
	const wallboardKeySecret = `${label}-wallboard-key-secret`;
	for (const secret of [webhookSecret, wallboardLogin.password, wallboardKeySecret])
		registerSecret(secret);

	const made: {
		simulator?: DialerSimulator;
		credentials: Credential[];
		table?: AgentTable;
		outputFolder?: string;
		browser?: Browser;
		importer?: ExampleImporter;
	} = { credentials: [] };
	const close = async () => {
		await made.browser?.close();
		for (const id of made.importer?.workflowIds ?? []) {
			await api.deactivateWorkflow(id).catch(() => undefined);
			await api.deleteWorkflow(id).catch(() => undefined);
		}
		// Made by hand (1.x) or by the published examples (2.x).
		const table =
			made.table ?? (await AgentTable.named(api, AGENT_TABLE_NAME, 0).catch(() => undefined));
		await table?.delete().catch(() => undefined);
		for (const credential of made.credentials)
			await api.deleteCredential(credential.id).catch(() => undefined);
		await made.simulator?.close();
		if (made.outputFolder) await removeOutputFolder(made.outputFolder);
	};
	try {
		const simulator = (made.simulator = await startSimulator(simulatorOptions));
		registerSecret(simulator.token);
		const credential = await api.createCredential(
			'dialerApi',
			`Dialer API (${label})`,
			simulatorCredential(simulator, webhookSecret),
		);
		made.credentials.push(credential);
		const wallboard = {
			httpBasicAuth: await api.createCredential(
				'httpBasicAuth',
				`Wallboard login (${label})`,
				wallboardLogin,
			),
			jwtAuth: await api.createCredential('jwtAuth', `Wallboard key (${label})`, {
				keyType: 'passphrase',
				secret: wallboardKeySecret,
				algorithm: 'HS256',
			}),
		};
		made.credentials.push(...Object.values(wallboard));
		const tableBefore = await AgentTable.named(api, AGENT_TABLE_NAME, 0).catch(() => undefined);
		// n8n 1.x: the notes' first 1.x step, the table made by hand (Overview → Data tables).
		if (!workflowsCreateTables(n8nVersion))
			made.table = await AgentTable.create(api, AGENT_TABLE_NAME);
		const outputFolder = (made.outputFolder = await makeOutputFolder());
		made.browser = await launchEditorBrowser();
		const importer = (made.importer = await ExampleImporter.open(
			made.browser,
			api,
			{ email: ownerEmail, password: ownerPassword, n8nVersion },
			{ credential, table: made.table, outputFolder, wallboard },
		));
		return {
			api,
			n8nVersion,
			simulator,
			webhookSecret,
			credential,
			wallboardLogin,
			wallboard,
			tableBefore,
			table: made.table,
			outputFolder,
			importer,
			page: importer.page,
			close,
		};
	} catch (error) {
		await close();
		throw error;
	}
}

/**
 * Two agents pause now with a maximum `limitSeconds` away, sent by the simulator to the live
 * alerts' trigger at `url`; `inTime` comes back a second later, `over` stays paused.
 */
export async function scriptPauses(
	session: EditorSession,
	url: string,
	{ over, inTime, limitSeconds }: { over: number; inTime: number; limitSeconds: number },
): Promise<void> {
	const { simulator } = session;
	simulator.webhooks.register({ url, secret: session.webhookSecret });
	const udate = nowSeconds();
	await simulator.webhooks.emit(pauseIn(over, 7, udate, limitSeconds));
	await simulator.webhooks.emit(pauseIn(inTime, 7, udate, limitSeconds));
	await simulator.webhooks.emit(event('agente.pause_out', inTime, { t: udate + 1 }));
}

/** What the page showed when each test ended, for a failure's report (test-output/ is ignored). */
export function screenshotEachTest(page: () => Page | undefined): void {
	afterEach(async () => {
		const name = expect.getState().currentTestName ?? 'test';
		await page()
			?.screenshot({ path: path.resolve('test-output', `${name.replace(/\W+/g, '-')}.png`) })
			.catch(() => undefined);
	});
}
