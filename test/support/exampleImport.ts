/**
 * An example imported as its yellow note tells a user: pasted onto a new workflow in n8n's editor
 * (headless Chromium); its Dialer credential, output folder and the wallboard's login and key
 * picked and typed in the node panels, and "Save successful production executions" turned off
 * where the note asks (never set through the API); saved and published with the editor's own
 * buttons. On n8n 2.x the agents' data table is left as pasted (By Name; the example makes it when
 * published); on 1.x the note's 1.x steps: its two table-making nodes deleted and the table made
 * by hand picked from the list in every Data table node.
 */
import { type Browser, type Page, type Request } from 'playwright-core';

import {
	N8nApiError,
	type Credential,
	type N8nApi,
	type Workflow,
	type WorkflowInput,
	type WorkflowNode,
} from '../../harness/n8n/api';
import { AGENT_TABLE_NAME, TABLE_SETUP_NODES, type AgentTable } from '../../harness/n8n/dataTables';
import { sleep } from '../../harness/n8n/dialer';
import { closeNode, editorContext, openNode, type EditorLogin } from '../../harness/editor';
import { readExamples } from '../../harness/demo';

export const DATA_TABLE = 'n8n-nodes-base.dataTable';
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
export const DIALER_TYPES = /^n8n-nodes-dialer\./;
/** The editor's address of a saved workflow (a new one is at /workflow/new). */
const SAVED_WORKFLOW = /\/workflow\/(?!new\b)([A-Za-z0-9]+)(?:[?#]|$)/;

/** How an example is imported: published (as its note's last step says) or only saved. */
export interface ImportSteps {
	publish?: boolean;
}

/** Whether a node of the example reads or writes rows (not the Create step, which names none). */
export function readsOrWritesRows(node: WorkflowNode): boolean {
	return node.type === DATA_TABLE && node.parameters.resource !== 'table';
}

/** What the notes ask to pick or type: the credentials, the table (1.x), the folder. */
export interface ImportChoices {
	credential: Credential;
	/** n8n 1.x: the table made by hand as the note's 1.x steps say, picked from the list. */
	table?: AgentTable;
	outputFolder: string;
	/** The wallboard's Basic Auth login and its JWT key, by credential type. */
	wallboard?: Record<'httpBasicAuth' | 'jwtAuth', Credential>;
}

/** The credential type the wallboard's note asks for in this node: its login or its key. */
export function wallboardCredentialType(
	node: WorkflowNode,
): 'httpBasicAuth' | 'jwtAuth' | undefined {
	if (node.parameters.authentication === 'basicAuth') return 'httpBasicAuth';
	if (node.parameters.authentication === 'jwtAuth' || node.type === 'n8n-nodes-base.jwt')
		return 'jwtAuth';
	return undefined;
}

/** Polls `probe` until it gives a value, for 20 s. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + 20_000;
	for (;;) {
		const found = await probe();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`);
		await sleep(250);
	}
}

async function exampleWorkflow(file: string): Promise<Workflow> {
	return (await readExamples()).find((candidate) => candidate.file === file)!.workflow as Workflow;
}

export class ExampleImporter {
	/** Every workflow imported, for the caller to remove. */
	readonly workflowIds: string[] = [];

	private constructor(
		readonly page: Page,
		private readonly api: N8nApi,
		private readonly n8nVersion: string,
		private readonly choices: ImportChoices,
	) {}

	/** A logged-in editor page that may use the clipboard (pasting is how users import). */
	static async open(
		browser: Browser,
		api: N8nApi,
		login: Omit<EditorLogin, 'baseUrl'> & { n8nVersion: string },
		choices: ImportChoices,
	): Promise<ExampleImporter> {
		const context = await editorContext(browser, { ...login, baseUrl: api.baseUrl });
		await context.grantPermissions(['clipboard-read', 'clipboard-write']);
		return new ExampleImporter(await context.newPage(), api, login.n8nVersion, choices);
	}

	/** Pasted, configured as the note says, saved and (unless told not to) published. */
	async importAsTheNoteSays(file: string, { publish = true }: ImportSteps = {}): Promise<Workflow> {
		await this.paste(file);
		await this.configure(file);
		const saved = await this.save(file);
		if (publish) await this.activate(saved.id);
		return saved;
	}

	/**
	 * The saved workflow opened again in the editor, each Data table node's panel opened and closed
	 * (the editor loads the table's columns anew) and Ctrl+S: what n8n then holds.
	 */
	async reopen(file: string, saved: Workflow): Promise<Workflow> {
		const { page, api } = this;
		const workflow = await exampleWorkflow(file);
		// Every save the editor sends from here on (2.x also saves by itself, a moment after a change).
		const saves: Array<Promise<unknown>> = [];
		const onRequest = (request: Request) => {
			if (request.method() !== 'GET' && request.url().includes(`/rest/workflows/${saved.id}`))
				saves.push(request.response());
		};
		page.on('request', onRequest);
		try {
			await page.goto(`/workflow/${saved.id}`);
			// The last node kept (on 1.x the table-making ones were deleted).
			const last = workflow.nodes
				.filter((node) => node.type !== STICKY_NOTE)
				.filter((node) => !(this.choices.table && TABLE_SETUP_NODES.includes(node.name)))
				.at(-1)!;
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${last.name}"]`).waitFor();
			await this.fitWithMargin();
			for (const node of workflow.nodes.filter(readsOrWritesRows)) {
				await openNode(page, node.name);
				await page
					.getByTestId('ndv')
					.getByTestId('resource-locator-dataTableId')
					.getByTestId('rlc-mode-selector')
					.waitFor();
				await closeNode(page);
			}
			await page.keyboard.press('ControlOrMeta+s');
			// Until no save is under way and none started for 2 s.
			for (let seen = -1; seen !== saves.length;) {
				seen = saves.length;
				await Promise.all(saves);
				await sleep(2000);
			}
		} finally {
			page.off('request', onRequest);
		}
		return api.rest<Workflow>('GET', `/rest/workflows/${saved.id}`);
	}

	/**
	 * Zoom to fit, then one step out (the "-" key): fitted, a node in a corner can lie under the
	 * minimap (bottom left), which then takes the click.
	 */
	private async fitWithMargin(): Promise<void> {
		await this.page.getByTestId('zoom-to-fit').click();
		await this.page.keyboard.press('-');
		await sleep(300);
	}

	private async paste(file: string): Promise<void> {
		const { page } = this;
		const workflow = await exampleWorkflow(file);
		await page.goto('/workflow/new');
		await page.getByTestId('canvas-add-button').waitFor();
		// A string: it runs in the page, whose DOM types this project does not compile against.
		await page.evaluate(
			`navigator.clipboard.writeText(${JSON.stringify(JSON.stringify(workflow))})`,
		);
		await page.locator('.vue-flow__pane').click({ position: { x: 600, y: 500 } });
		await page.keyboard.press('ControlOrMeta+V');
		const last = workflow.nodes.filter((node) => node.type !== STICKY_NOTE).at(-1)!;
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${last.name}"]`).waitFor();
		await this.fitWithMargin();
		// n8n 1.x lists data tables only for a saved workflow (2.x has saved it already): as the
		// notes say, save before picking.
		if (!SAVED_WORKFLOW.test(page.url())) await page.keyboard.press('ControlOrMeta+s');
		await page.waitForURL(SAVED_WORKFLOW);
	}

	/** Picks the credential by name in the open node's credential selector. */
	private async pickCredential(name: string): Promise<void> {
		const select = this.page.getByTestId('ndv').getByTestId('node-credentials-select');
		await select.click();
		// n8n may have chosen the only credential of the type already; choosing it again keeps it.
		await this.page.getByRole('option').filter({ hasText: name }).first().click();
	}

	/**
	 * n8n 1.x, as the note says: "From list" (1.x shows the pasted By Name as an unknown mode
	 * "name"), then the table, in the open Data table node.
	 */
	private async pickTable(name: string): Promise<void> {
		const locator = this.page.getByTestId('ndv').getByTestId('resource-locator-dataTableId');
		await locator.getByTestId('rlc-mode-selector').click();
		await this.page.getByRole('option', { name: /^From list$/i }).click();
		await locator.getByTestId('rlc-input').click();
		// An item of the list, not the name in the canvas note behind the panel.
		await this.page
			.getByTestId('rlc-item')
			.filter({ hasText: new RegExp(`^\\s*${name}\\s*$`) })
			.first()
			.click();
	}

	/** n8n 1.x, as the note says: the nodes that make the table (2.x only) deleted. */
	private async deleteTableSetup(workflow: WorkflowInput): Promise<void> {
		for (const name of TABLE_SETUP_NODES) {
			if (!workflow.nodes.some((node) => node.name === name)) continue;
			const node = this.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
			await node.click();
			await this.page.keyboard.press('Delete');
			await node.waitFor({ state: 'detached' });
		}
	}

	/** Types the folder into the Settings node's outputFolder field. */
	private async typeOutputFolder(settings: WorkflowNode, folder: string): Promise<void> {
		const { assignments } = (settings.parameters.assignments ?? {}) as {
			assignments: Array<{ name: string }>;
		};
		const index = assignments.findIndex((assignment) => assignment.name === 'outputFolder');
		await openNode(this.page, settings.name);
		const value = this.page
			.getByTestId('ndv')
			.getByTestId('assignment')
			.nth(index)
			.getByTestId('assignment-value')
			.locator('input');
		await value.fill(folder);
		await value.press('Tab');
		await closeNode(this.page);
	}

	/** What the note says about the credential, the table (1.x) and the folder, in the editor. */
	private async configure(file: string): Promise<void> {
		const { page, choices } = this;
		const workflow = await exampleWorkflow(file);
		const table = choices.table;
		if (table) await this.deleteTableSetup(workflow);
		for (const node of workflow.nodes) {
			const wallboardType = wallboardCredentialType(node);
			const pick = DIALER_TYPES.test(node.type)
				? () => this.pickCredential(choices.credential.name)
				: table && readsOrWritesRows(node)
					? () => this.pickTable(table.name)
					: wallboardType && choices.wallboard
						? () => this.pickCredential(choices.wallboard![wallboardType].name)
						: undefined;
			if (!pick) continue;
			await openNode(page, node.name);
			await pick();
			await closeNode(page);
		}
		const settings = workflow.nodes.find((node) => node.name === 'Settings');
		if (settings) await this.typeOutputFolder(settings, choices.outputFolder);
		if (workflow.settings?.saveDataSuccessExecution === 'none') await this.saveNoSuccesses();
	}

	/**
	 * Workflow settings → Save successful production executions: Do not save, as the notes ask
	 * (a paste brings the nodes, not the workflow's settings).
	 */
	private async saveNoSuccesses(): Promise<void> {
		const { page } = this;
		await page.getByTestId('workflow-menu').click();
		await page.getByTestId('workflow-menu-item-settings').click();
		const dialog = page.getByTestId('workflow-settings-dialog');
		await dialog.getByTestId('workflow-settings-save-success-executions').click();
		await page.getByRole('option', { name: 'Do not save', exact: true }).click();
		await page.getByTestId('workflow-settings-save-button').locator('button').click();
		await dialog.waitFor({ state: 'hidden' });
	}

	/**
	 * Saves as a user does (Ctrl+S; n8n 2.x also saves by itself) and returns the workflow once n8n
	 * has stored what was done in the editor: the credential, the tables and the folder.
	 */
	private async save(file: string): Promise<Workflow> {
		const { page, api, choices } = this;
		await page.keyboard.press('ControlOrMeta+s');
		const id = SAVED_WORKFLOW.exec(page.url())![1];
		this.workflowIds.push(id);
		const workflow = await exampleWorkflow(file);
		// As pasted (2.x), or picked from the list (1.x).
		const table = choices.table
			? { mode: 'list', value: choices.table.id }
			: { mode: 'name', value: AGENT_TABLE_NAME };
		return until(`workflow ${id} saved with its configuration`, async () => {
			// n8n 2.x gives a new workflow its ID in the address before the save has stored it.
			const saved = await api.rest<Workflow>('GET', `/rest/workflows/${id}`).catch((error) => {
				if (error instanceof N8nApiError && error.status === 404) return undefined;
				throw error;
			});
			if (!saved) return undefined;
			const configured = workflow.nodes.every((node) => {
				const kept = saved.nodes.find((candidate) => candidate.name === node.name);
				if (choices.table && TABLE_SETUP_NODES.includes(node.name)) return kept === undefined;
				if (DIALER_TYPES.test(node.type))
					return kept?.credentials?.dialerApi?.id === choices.credential.id;
				if (readsOrWritesRows(node)) {
					const picked = kept?.parameters.dataTableId as { mode?: string; value?: string };
					return picked?.mode === table.mode && picked.value === table.value;
				}
				if (node.name === 'Settings')
					return JSON.stringify(kept?.parameters).includes(choices.outputFolder);
				const type = wallboardCredentialType(node);
				if (type && choices.wallboard)
					return kept?.credentials?.[type]?.id === choices.wallboard[type].id;
				return kept !== undefined;
			});
			const settingsKept =
				workflow.settings?.saveDataSuccessExecution !== 'none' ||
				saved.settings?.saveDataSuccessExecution === 'none';
			return configured && settingsKept ? saved : undefined;
		});
	}

	/** Publishes (n8n 2.x) or switches Active on (1.x), as the note's last step says. */
	private async activate(id: string): Promise<void> {
		const { page, api } = this;
		if (this.n8nVersion.startsWith('2.')) {
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
}
