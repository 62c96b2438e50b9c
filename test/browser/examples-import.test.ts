/**
 * The examples as a user meets them, in a real browser (Debian's Chromium driven by
 * playwright-core) against the e2e run's n8n: each example that needs configuration is pasted
 * onto a new workflow, configured in its panels as its yellow note says (the Dialer credential,
 * the output folder, the wallboard's login and key, picked and typed in the editor, never set
 * through the API; on n8n 1.x the note's table steps too: the table made by hand, the two nodes
 * that make it on 2.x deleted, the table picked), saved and activated with the editor's own buttons, and
 * then shown to work: a scripted over-limit pause from the simulator produces its alert line, the
 * board and the wallboard answer with the agents, yesterday's forms land on disk.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { type Page } from 'playwright-core';

import {
	type Credential,
	type N8nApi,
	type Workflow,
	type WorkflowNode,
} from '../../harness/n8n/api';
import { AGENT_TABLE_NAME, type AgentTable } from '../../harness/n8n/dataTables';
import { sleep, triggerUrl } from '../../harness/n8n/dialer';
import { readExamples } from '../../harness/demo';
import { readConnection } from '../e2e/setup/connection';
import { ALL } from '../setup/lanes';
import { readLines } from '../e2e/support/supervision';
import {
	openEditorSession,
	screenshotEachTest,
	scriptPauses,
	type EditorSession,
} from '../support/editorSession';
import { type ExampleImporter, readsOrWritesRows, until } from '../support/exampleImport';

/** The scripted pauses reach their maximum this many seconds after they start. */
const LIMIT_SECONDS = 8;

jest.setTimeout(240_000);

/**
 * On 1.x the editor differs for the examples with a data table (listed only once the workflow is
 * saved); the others run there in the whole matrix only (`npm run test:all`).
 */
const withoutTableDescribe =
	ALL || readConnection().n8nVersion.startsWith('2.') ? describe : describe.skip;

describe('the examples imported in the editor and configured as their notes say (Chromium)', () => {
	let session: EditorSession;
	let api: N8nApi;
	let credential: Credential;
	/** n8n 1.x: made by hand as the note says; 2.x: none (the examples make it when published). */
	let table: AgentTable | undefined;
	let outputFolder: string;
	let importer: ExampleImporter;
	let page: Page;

	const nodeNamed = (workflow: Workflow, name: string): WorkflowNode =>
		workflow.nodes.find((node) => node.name === name)!;

	/**
	 * Each condition as stored. n8n leaves out a value equal to its default when saving: "Equals"
	 * may be absent. The column may not: left out, it is the node's default, the system column
	 * `id`, which no example reads.
	 */
	function conditionsOf(parameters: Record<string, unknown>) {
		const { conditions = [] } = (parameters.filters ?? {}) as {
			conditions?: Array<{ keyName?: string; condition?: string; keyValue?: string }>;
		};
		return conditions.map(({ keyName, condition = 'eq', keyValue }) => ({
			keyName,
			condition,
			keyValue,
		}));
	}

	/** The settings of a read that the examples set, none of them n8n's default. */
	const READ_SETTINGS = ['limit', 'returnAll'];

	/**
	 * What import, pick and save (and, for `reopened`, opening it again) left in each Data table
	 * node that reads or writes rows: the table (By Name as pasted on 2.x, picked from the list on
	 * 1.x), every condition as the example has it, the order and amount of its read.
	 */
	function expectTablesKept(saved: Workflow, original: Workflow): void {
		for (const node of original.nodes.filter(readsOrWritesRows)) {
			const kept = nodeNamed(saved, node.name).parameters;
			const { mode, value } = kept.dataTableId as { mode: string; value: string };
			expect({ node: node.name, table: { mode, value } }).toEqual({
				node: node.name,
				table: table
					? { mode: 'list', value: table.id }
					: { mode: 'name', value: AGENT_TABLE_NAME },
			});
			expect({ node: node.name, conditions: conditionsOf(kept) }).toEqual({
				node: node.name,
				conditions: conditionsOf(node.parameters),
			});
			const settings = READ_SETTINGS.filter((name) => name in node.parameters);
			expect({ node: node.name, read: settings.map((name) => kept[name]) }).toEqual({
				node: node.name,
				read: settings.map((name) => node.parameters[name]),
			});
			if (node.parameters.columns) {
				expect((kept.columns as { mappingMode: string }).mappingMode).toBe('autoMapInputData');
			}
		}
	}

	beforeAll(async () => {
		session = await openEditorSession('examples-import', { fichas: 6000, calls: 6000 });
		({ api, credential, table, outputFolder, importer, page } = session);
	}, 600_000);
	afterAll(() => session?.close());
	screenshotEachTest(() => page);

	const importAsTheNoteSays = (file: string, publish = true) =>
		importer.importAsTheNoteSays(file, { publish });

	/** Opened again in the editor, each Data table panel opened, and saved: checked as stored. */
	const reopenAndExpectTablesKept = async (file: string, saved: Workflow) =>
		expectTablesKept(await importer.reopen(file, saved), await original(file));

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

		it('keeps them when opened again in the editor', async () => {
			await reopenAndExpectTablesKept(FILE, saved);
		});

		it('writes the alert line of a scripted over-limit pause, and none for a pause that ended', async () => {
			const url = triggerUrl(api, nodeNamed(saved, 'Agent Events').webhookId!);
			await scriptPauses(session, url, { over: 501, inTime: 502, limitSeconds: LIMIT_SECONDS });
			// The example saves no successful execution: once the alert line is written, the other
			// pause's check has run too; the log then holds the one line, and no execution failed.
			const log = path.join(outputFolder, 'over-limit-pauses.log');
			await until('the alert line', async () =>
				(await readLines(log)).length > 0 ? true : undefined,
			);
			await sleep(2000);
			const executions = await api.listExecutions(saved.id);
			expect(executions.filter((execution) => execution.status === 'error')).toEqual([]);
			const lines = await readLines(log);
			expect(lines).toEqual([
				// With n8n behind (a busy machine), the line says how late it is.
				expect.stringMatching(
					/^\S+\tAgent 501 still paused, 8-s limit reached at \d\d:\d\d \(pause 7 since \d\d:\d\d\)(; alerted \d+ s after the limit: n8n was \d+ s behind)?$/,
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

		it('keeps the picked table and its condition after saving and opened again', async () => {
			expectTablesKept(saved, await original(FILE));
			await reopenAndExpectTablesKept(FILE, saved);
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

		it("keeps the picked table and its read of the page's eventOrder window after saving and opened again", async () => {
			expectTablesKept(saved, await original(FILE));
			await reopenAndExpectTablesKept(FILE, saved);
		});

		it('answers the page to the login, and the agents to the key in the page', async () => {
			const { path: pagePath } = nodeNamed(saved, 'Wallboard').parameters;
			const url = `${api.webhookBaseUrl}/webhook/${String(pagePath)}`;
			const { user, password } = session.wallboardLogin;
			const basic = Buffer.from(`${user}:${password}`);
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
					lastOrder: number;
					agents: Array<{ agentId: number; state: string }>;
				};
			};
			const { agents, lastOrder } = await read();
			expect(agents).toEqual(
				expect.arrayContaining([
					expect.objectContaining({ agentId: 501, state: 'paused' }),
					expect.objectContaining({ agentId: 502, state: 'online' }),
				]),
			);
			// The page's later readings: only the rows from its since on (the eventOrder condition kept).
			expect((await read(`?since=${lastOrder + 1}`)).agents).toEqual([]);
			expect((await read(`?since=${lastOrder}`)).agents).toEqual([
				expect.objectContaining({ agentId: 502, state: 'online' }),
			]);
			// And up to its before (the second condition kept): 502's pause, not its end.
			expect((await read(`?since=0&before=${lastOrder}`)).agents).toEqual(
				expect.arrayContaining([expect.objectContaining({ agentId: 502, state: 'paused' })]),
			);
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
