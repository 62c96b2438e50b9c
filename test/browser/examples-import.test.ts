/**
 * The examples as a user meets them, in a real browser (Debian's Chromium driven by
 * playwright-core) against the e2e run's n8n: each example that needs configuration is pasted
 * onto a new workflow, configured in its panels as its yellow note says (the Dialer credential,
 * the agents' data table, the output folder, the wallboard's login and key, picked and typed in
 * the editor, never set through the API), saved and activated with the editor's own buttons, and
 * then shown to work: a scripted over-limit pause from the simulator produces its alert line, the
 * board and the wallboard answer with the agents, yesterday's forms land on disk.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { chromium, selectors, type Browser, type BrowserContext, type Page } from 'playwright-core';

import {
	N8nApiError,
	type Credential,
	type N8nApi,
	type Workflow,
	type WorkflowNode,
} from '../../scripts/n8n/api';
import { AgentTable } from '../../scripts/n8n/dataTables';
import { simulatorCredential, sleep, triggerUrl } from '../../scripts/n8n/dialer';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/chromium';
import { readExamples } from '../../scripts/demo';
import { startSimulator } from '../../simulator';
import type { AgentEvent, DialerSimulator } from '../../simulator/types';
import { connectN8n, readConnection, registerSecret } from '../e2e/setup/connection';
import { ALL } from '../setup/lanes';
import { makeOutputFolder, readLines, removeOutputFolder } from '../e2e/support/supervision';

const DATA_TABLE = 'n8n-nodes-base.dataTable';
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
const DIALER_TYPES = /^n8n-nodes-dialer\./;
const WEBHOOK_SECRET = 'examples-import-webhook-secret';
const WALLBOARD_LOGIN = { user: 'wallboard', password: 'examples-import-wallboard-password' };
const WALLBOARD_KEY_SECRET = 'examples-import-wallboard-key-secret';

/** The credential type the wallboard's note asks for in this node: its login or its key. */
function wallboardCredentialType(node: WorkflowNode): 'httpBasicAuth' | 'jwtAuth' | undefined {
	if (node.parameters.authentication === 'basicAuth') return 'httpBasicAuth';
	if (node.parameters.authentication === 'jwtAuth' || node.type === 'n8n-nodes-base.jwt')
		return 'jwtAuth';
	return undefined;
}
/** The scripted pauses reach their maximum this many seconds after they start. */
const LIMIT_SECONDS = 8;
/** The editor's address of a saved workflow (a new one is at /workflow/new). */
const SAVED_WORKFLOW = /\/workflow\/(?!new\b)([A-Za-z0-9]+)(?:[?#]|$)/;

jest.setTimeout(240_000);

/**
 * On 1.x the editor differs for the examples with a data table (listed only once the workflow is
 * saved); the others run there in the whole matrix only (`npm run test:all`).
 */
const withoutTableDescribe =
	ALL || readConnection().n8nVersion.startsWith('2.') ? describe : describe.skip;

describe('the examples imported in the editor and configured as their notes say (Chromium)', () => {
	let api: N8nApi;
	let simulator: DialerSimulator;
	let credential: Credential;
	/** The wallboard's Basic Auth login and its JWT key, by credential type. */
	let wallboardCredentials: Record<'httpBasicAuth' | 'jwtAuth', Credential>;
	let table: AgentTable;
	let outputFolder: string;
	let browser: Browser;
	let context: BrowserContext;
	let page: Page;
	const workflowIds: string[] = [];
	const n8nVersion = readConnection().n8nVersion;

	async function paste(file: string): Promise<void> {
		const example = (await readExamples()).find((candidate) => candidate.file === file)!;
		await page.goto('/workflow/new');
		await page.getByTestId('canvas-add-button').waitFor();
		// A string: it runs in the page, whose DOM types this project does not compile against.
		await page.evaluate(
			`navigator.clipboard.writeText(${JSON.stringify(JSON.stringify(example.workflow))})`,
		);
		await page.locator('.vue-flow__pane').click({ position: { x: 600, y: 500 } });
		await page.keyboard.press('ControlOrMeta+V');
		const last = example.workflow.nodes.filter((node) => node.type !== STICKY_NOTE).at(-1)!;
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${last.name}"]`).waitFor();
		await page.getByTestId('zoom-to-fit').click();
		// n8n 1.x lists data tables only for a saved workflow (2.x has saved it already): as the
		// notes say, save before picking.
		if (!SAVED_WORKFLOW.test(page.url())) await page.keyboard.press('ControlOrMeta+s');
		await page.waitForURL(SAVED_WORKFLOW);
	}

	async function openNode(name: string): Promise<void> {
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).dblclick();
		await page.getByTestId('ndv').waitFor();
	}

	async function closeNode(): Promise<void> {
		// n8n 2.x: a close button; 1.x: "Back to canvas".
		await page.getByTestId('ndv-close-button').or(page.getByTestId('back-to-canvas')).click();
		await page.getByTestId('ndv').waitFor({ state: 'hidden' });
	}

	/** Picks the credential by name in the open node's credential selector. */
	async function pickCredential(name: string): Promise<void> {
		const select = page.getByTestId('ndv').getByTestId('node-credentials-select');
		await select.click();
		// n8n may have chosen the only credential of the type already; choosing it again keeps it.
		await page.getByRole('option').filter({ hasText: name }).first().click();
	}

	/** Picks the data table from the list in the open Data table node. */
	async function pickTable(name: string): Promise<void> {
		const locator = page.getByTestId('ndv').getByTestId('resource-locator-dataTableId');
		await locator.getByTestId('rlc-input').click();
		await page.getByText(name, { exact: true }).first().click();
	}

	/** Types the folder into the Settings node's outputFolder field. */
	async function typeOutputFolder(settings: WorkflowNode, folder: string): Promise<void> {
		const { assignments } = (settings.parameters.assignments ?? {}) as {
			assignments: Array<{ name: string }>;
		};
		const index = assignments.findIndex((assignment) => assignment.name === 'outputFolder');
		await openNode(settings.name);
		const value = page
			.getByTestId('ndv')
			.getByTestId('assignment')
			.nth(index)
			.getByTestId('assignment-value')
			.locator('input');
		await value.fill(folder);
		await value.press('Tab');
		await closeNode();
	}

	/** What the note says about the credential, the table and the folder, done in the editor. */
	async function configure(file: string): Promise<void> {
		const { workflow } = (await readExamples()).find((candidate) => candidate.file === file)!;
		for (const node of workflow.nodes) {
			if (DIALER_TYPES.test(node.type)) {
				await openNode(node.name);
				await pickCredential(credential.name);
				await closeNode();
			} else if (node.type === DATA_TABLE) {
				await openNode(node.name);
				await pickTable(table.name);
				await closeNode();
			} else if (wallboardCredentialType(node)) {
				await openNode(node.name);
				await pickCredential(wallboardCredentials[wallboardCredentialType(node)!].name);
				await closeNode();
			}
		}
		const settings = workflow.nodes.find((node) => node.name === 'Settings');
		if (settings) await typeOutputFolder(settings, outputFolder);
	}

	/**
	 * Saves as a user does (Ctrl+S; n8n 2.x also saves by itself) and returns the workflow once n8n
	 * has stored what was done in the editor: the credential, the tables and the folder.
	 */
	async function save(file: string): Promise<Workflow> {
		await page.keyboard.press('ControlOrMeta+s');
		const id = SAVED_WORKFLOW.exec(page.url())![1];
		workflowIds.push(id);
		const { workflow } = (await readExamples()).find((candidate) => candidate.file === file)!;
		return until(`workflow ${id} saved with its configuration`, async () => {
			// n8n 2.x gives a new workflow its ID in the address before the save has stored it.
			const saved = await api.rest<Workflow>('GET', `/rest/workflows/${id}`).catch((error) => {
				if (error instanceof N8nApiError && error.status === 404) return undefined;
				throw error;
			});
			if (!saved) return undefined;
			const configured = workflow.nodes.every((node) => {
				const kept = saved.nodes.find((candidate) => candidate.name === node.name);
				if (DIALER_TYPES.test(node.type)) return kept?.credentials?.dialerApi?.id === credential.id;
				if (node.type === DATA_TABLE)
					return (kept?.parameters.dataTableId as { value?: string })?.value === table.id;
				if (node.name === 'Settings')
					return JSON.stringify(kept?.parameters).includes(outputFolder);
				const type = wallboardCredentialType(node);
				if (type) return kept?.credentials?.[type]?.id === wallboardCredentials[type].id;
				return kept !== undefined;
			});
			return configured ? saved : undefined;
		});
	}

	/** Publishes (n8n 2.x) or switches Active on (1.x), as the note's last step says. */
	async function activate(id: string): Promise<void> {
		if (n8nVersion.startsWith('2.')) {
			await page.getByTestId('workflow-open-publish-modal-button').click();
			await page.getByTestId('workflow-publish-button').click();
		} else {
			await page.getByTestId('workflow-activate-switch').click();
		}
		// "Workflow published" (2.x) or "activated" (1.x), shown for schedules and webhooks.
		const gotIt = page.getByRole('button', { name: 'Got it' });
		if (
			await gotIt.waitFor({ timeout: 3000 }).then(
				() => true,
				() => false,
			)
		)
			await gotIt.click();
		await until(`workflow ${id} active`, async () => {
			const stored = await api.rest<{ active?: boolean; activeVersionId?: string | null }>(
				'GET',
				`/rest/workflows/${id}`,
			);
			return stored.active || stored.activeVersionId ? true : undefined;
		});
	}

	async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
		const deadline = Date.now() + 20_000;
		for (;;) {
			const found = await probe();
			if (found !== undefined) return found;
			if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`);
			await sleep(250);
		}
	}

	const nodeNamed = (workflow: Workflow, name: string): WorkflowNode =>
		workflow.nodes.find((node) => node.name === name)!;

	/** Conditions as n8n runs them: it leaves out values equal to the defaults when saving. */
	function conditionsOf(parameters: Record<string, unknown>) {
		const { conditions = [] } = (parameters.filters ?? {}) as {
			conditions?: Array<{ keyName?: string; condition?: string; keyValue?: string }>;
		};
		return conditions.map(({ keyName = 'id', condition = 'eq', keyValue }) => ({
			keyName,
			condition,
			keyValue,
		}));
	}

	/** What import, pick and save left in each Data table node: the table and the example's settings. */
	function expectTablesKept(saved: Workflow, original: Workflow): void {
		for (const node of original.nodes.filter((candidate) => candidate.type === DATA_TABLE)) {
			const kept = nodeNamed(saved, node.name).parameters;
			expect({ node: node.name, table: (kept.dataTableId as { value: string }).value }).toEqual({
				node: node.name,
				table: table.id,
			});
			expect({ node: node.name, conditions: conditionsOf(kept) }).toEqual({
				node: node.name,
				conditions: conditionsOf(node.parameters),
			});
			if (node.parameters.columns) {
				expect((kept.columns as { mappingMode: string }).mappingMode).toBe('autoMapInputData');
			}
		}
	}

	beforeAll(async () => {
		const executablePath = await ensureChromium();
		selectors.setTestIdAttribute('data-test-id');
		api = await connectN8n();
		// Enough calls that yesterday, in any workflow timezone on any day, holds some with a chosen
		// result and a recording (the default 300 leave whole days without one).
		simulator = await startSimulator({ fichas: 6000, calls: 6000 });
		registerSecret(simulator.token);
		registerSecret(WEBHOOK_SECRET);
		credential = await api.createCredential(
			'dialerApi',
			'Dialer API (examples)',
			simulatorCredential(simulator, WEBHOOK_SECRET),
		);
		registerSecret(WALLBOARD_LOGIN.password);
		registerSecret(WALLBOARD_KEY_SECRET);
		wallboardCredentials = {
			httpBasicAuth: await api.createCredential(
				'httpBasicAuth',
				'Wallboard login (examples)',
				WALLBOARD_LOGIN,
			),
			jwtAuth: await api.createCredential('jwtAuth', 'Wallboard key (examples)', {
				keyType: 'passphrase',
				secret: WALLBOARD_KEY_SECRET,
				algorithm: 'HS256',
			}),
		};
		table = await AgentTable.create(api);
		outputFolder = await makeOutputFolder();
		browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
		const { ownerEmail, ownerPassword } = readConnection();
		context = await browser.newContext({
			baseURL: api.baseUrl,
			viewport: { width: 1440, height: 900 },
			permissions: ['clipboard-read', 'clipboard-write'],
		});
		await context.route(
			(url) => url.origin !== api.baseUrl,
			(route) => route.abort(),
		);
		const login = await context.request.post('/rest/login', {
			data: { emailOrLdapLoginId: ownerEmail, password: ownerPassword },
		});
		expect(login.status()).toBe(200);
		page = await context.newPage();
	}, 600_000);

	afterAll(async () => {
		await browser?.close();
		for (const id of workflowIds) {
			await api.deactivateWorkflow(id).catch(() => undefined);
			await api.deleteWorkflow(id).catch(() => undefined);
		}
		await table?.delete().catch(() => undefined);
		for (const made of [credential, ...Object.values(wallboardCredentials ?? {})]) {
			if (made) await api.deleteCredential(made.id).catch(() => undefined);
		}
		await simulator?.close();
		if (outputFolder) await removeOutputFolder(outputFolder);
	});

	// What the page showed when a test ended, for a failure's report (test-output/ is ignored).
	afterEach(async () => {
		const name = expect.getState().currentTestName ?? 'test';
		await page
			?.screenshot({ path: path.resolve('test-output', `${name.replace(/\W+/g, '-')}.png`) })
			.catch(() => undefined);
	});

	/** Pasted, configured as the note says, saved and (unless told not to) published. */
	async function importAsTheNoteSays(file: string, publish = true): Promise<Workflow> {
		await paste(file);
		await configure(file);
		const saved = await save(file);
		if (publish) await activate(saved.id);
		return saved;
	}

	async function original(file: string): Promise<Workflow> {
		return (await readExamples()).find((candidate) => candidate.file === file)!
			.workflow as Workflow;
	}

	describe('live over-limit pause alerts to a log file', () => {
		const FILE = 'live-pause-alerts-to-file.json';
		let saved: Workflow;

		beforeAll(async () => {
			saved = await importAsTheNoteSays(FILE);
		});

		it('keeps the picked table, its conditions and the automatic mapping after saving', async () => {
			expectTablesKept(saved, await original(FILE));
			expect(nodeNamed(saved, 'Agent Events').credentials).toEqual({
				dialerApi: { id: credential.id, name: credential.name },
			});
		});

		it('writes the alert line of a scripted over-limit pause, and none for a pause that ended', async () => {
			const url = triggerUrl(api, nodeNamed(saved, 'Agent Events').webhookId!);
			simulator.webhooks.register({ url, secret: WEBHOOK_SECRET });
			const udate = Math.floor(Date.now() / 1000);
			const pauseIn = (agent: number): AgentEvent => ({
				evento: 'agente.pause_in',
				estado: 'paused',
				t: udate,
				usuario_id: agent,
				pausa_id: 7,
				udate,
				durmax: LIMIT_SECONDS,
			});
			await simulator.webhooks.emit(pauseIn(501));
			await simulator.webhooks.emit(pauseIn(502));
			await simulator.webhooks.emit({
				evento: 'agente.pause_out',
				estado: 'online',
				t: udate + 1,
				usuario_id: 502,
			});
			// The example saves no successful execution: both pauses are checked at the limit plus
			// 2 s; the log then holds the one line, and no execution failed.
			const log = path.join(outputFolder, 'over-limit-pauses.log');
			await until('the alert line', async () =>
				(await readLines(log)).length > 0 ? true : undefined,
			);
			await sleep(2000);
			const executions = await api.listExecutions(saved.id);
			expect(executions.filter((execution) => execution.status === 'error')).toEqual([]);
			const lines = await readLines(log);
			expect(lines).toEqual([
				expect.stringMatching(
					/^\S+\tAgent 501 still paused, 8-s limit reached at \d\d:\d\d \(pause 7 since \d\d:\d\d\)$/,
				),
			]);
		});
	});

	describe('agent board', () => {
		const FILE = 'agent-board.json';
		let saved: Workflow;

		beforeAll(async () => {
			saved = await importAsTheNoteSays(FILE);
		});

		it('keeps the picked table after saving', async () => {
			expectTablesKept(saved, await original(FILE));
		});

		it('answers with the agents the alerts workflow saved', async () => {
			const webhook = nodeNamed(saved, 'Board on Demand');
			const url = `${api.webhookBaseUrl}/webhook/${String(webhook.parameters.path)}`;
			let res = await request(url);
			for (let i = 0; i < 50 && res.statusCode === 404; i++) {
				await res.body.dump();
				await sleep(200);
				res = await request(url);
			}
			const text = await res.body.text();
			expect(res.statusCode).toBe(200);
			expect(text).toMatch(/^Agent board at .*\nPaused: 501 \(pause 7 since \d\d:\d\d\)\n/);
			expect(text).toContain('Available: 502');
			// The request is answered before the files are written.
			const csv = await until('agent-board.csv written', () =>
				readFile(path.join(outputFolder, 'agent-board.csv'), 'utf8').catch(() => undefined),
			);
			expect(csv).toMatch(/^agentId,state,since,pauseId,lastEvent,lastEventAt\n501,paused,/);
		});
	});

	describe('supervisor wallboard', () => {
		const FILE = 'supervisor-wallboard.json';
		let saved: Workflow;

		beforeAll(async () => {
			saved = await importAsTheNoteSays(FILE);
		});

		it('keeps the picked table after saving', async () => {
			expectTablesKept(saved, await original(FILE));
		});

		it('answers the page to the login, and the agents to the key in the page', async () => {
			const { path: pagePath } = nodeNamed(saved, 'Wallboard').parameters;
			const url = `${api.webhookBaseUrl}/webhook/${String(pagePath)}`;
			const basic = Buffer.from(`${WALLBOARD_LOGIN.user}:${WALLBOARD_LOGIN.password}`);
			const html = await until('the wallboard page', async () => {
				const res = await request(url, {
					headers: { authorization: `Basic ${basic.toString('base64')}` },
				});
				const body = await res.body.text();
				return res.statusCode === 200 ? body : undefined;
			});
			const settings = JSON.parse(
				/<script id="settings" type="application\/json">(.*?)<\/script>/.exec(html)![1],
			) as { key: string; dataPath: string };
			const read = async (query = '') => {
				const res = await request(`${api.webhookBaseUrl}/webhook/${settings.dataPath}${query}`, {
					headers: { authorization: `Bearer ${settings.key}` },
				});
				expect(res.statusCode).toBe(200);
				return (await res.body.json()) as {
					lastId: number;
					agents: Array<{ agentId: number; state: string }>;
				};
			};
			const { agents, lastId } = await read();
			expect(agents).toEqual(
				expect.arrayContaining([
					expect.objectContaining({ agentId: 501, state: 'paused' }),
					expect.objectContaining({ agentId: 502, state: 'online' }),
				]),
			);
			// The page's later readings: only rows after the last it has (the id condition kept).
			expect((await read(`?afterId=${lastId}`)).agents).toEqual([]);
			expect((await read(`?afterId=${lastId - 1}`)).agents).toHaveLength(1);
		});
	});

	withoutTableDescribe("yesterday's filled forms as CSV on disk", () => {
		const FILE = 'filled-forms-to-disk.json';

		it('runs from the editor and writes the CSV into the folder typed in Settings', async () => {
			await importAsTheNoteSays(FILE);
			await page.getByTestId('execute-workflow-button').first().click();
			const deadline = Date.now() + 30_000;
			let files: string[] = [];
			while (Date.now() < deadline) {
				files = await readdir(outputFolder);
				if (files.some((file) => file.startsWith('filled-forms-'))) break;
				await sleep(500);
			}
			const csv = files.find((file) => file.startsWith('filled-forms-'))!;
			expect(csv).toMatch(/\.csv$/);
			expect(await readFile(path.join(outputFolder, csv), 'utf8')).toContain('Ficha;');
		});
	});

	withoutTableDescribe("yesterday's call recordings of chosen results, archived to disk", () => {
		const FILE = 'recordings-archive-to-disk.json';

		it('runs from the editor and writes the recordings into the folder typed in Settings', async () => {
			await importAsTheNoteSays(FILE);
			await page.getByTestId('execute-workflow-button').first().click();
			const recordings = await until('recordings in the folder', async () => {
				const found = (await readdir(outputFolder)).filter((file) => file.startsWith('recording-'));
				return found.length > 0 ? found : undefined;
			});
			expect(recordings[0]).toMatch(/^recording-\d{4}-\d\d-\d\d-./);
		});
	});

	describe('live over-limit pause alerts to Slack', () => {
		const FILE = 'live-pause-alerts-slack.json';

		it('keeps the picked table, its conditions and the automatic mapping after saving', async () => {
			// Not published: it would need a Slack credential.
			expectTablesKept(await importAsTheNoteSays(FILE, false), await original(FILE));
		});
	});
});
