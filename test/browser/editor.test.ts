/**
 * The nodes in n8n's editor, in a real browser (Debian's Chromium driven by playwright-core),
 * against the e2e run's n8n: adding both nodes from the nodes panel, every resource/operation's
 * parameters, the light and dark icons, the AI agent and live pause alerts examples, and a page
 * that logs no errors. The README's pictures are `npm run screenshots`'s (harness/screenshots.ts).
 */
import { NodeHelpers, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

import { Dialer } from '../../nodes/Dialer/Dialer.node';
import { DialerTrigger } from '../../nodes/DialerTrigger/DialerTrigger.node';
import type { Credential, N8nApi, Workflow, WorkflowNode } from '../../harness/n8n/api';
import { TRIGGER_VERSION } from '../../harness/n8n/dialer';
import { configureExample, readExamples } from '../../harness/demo';
import {
	closeNode,
	editorContext,
	launchEditorBrowser,
	openNode,
	openWorkflow,
	pickFromNodesPanel,
} from '../../harness/editor';
import { startSimulator } from '../../harness/simulator';
import type { DialerSimulator } from '../../harness/simulator/types';
import { connectN8n, readConnection, registerSecret } from '../e2e/setup/connection';

const PACKAGE = 'n8n-nodes-dialer';
const WEBHOOK_SECRET = 'browser-test-webhook-secret';

// Installing Chromium (first CI run) and a cold editor take longer than jest's default.
jest.setTimeout(180_000);

interface Operation {
	resource: string;
	operation: string;
	/** The node's name on the canvas, e.g. "Report: Get Filled Forms". */
	name: string;
}

const dialer = new Dialer().description;
const trigger = new DialerTrigger().description;

function optionsOf(property: INodeProperties): Array<{ name: string; value: string }> {
	return (property.options ?? []) as Array<{ name: string; value: string }>;
}

/** Every resource/operation pair the node offers, read from its description. */
function operations(): Operation[] {
	const resources = optionsOf(dialer.properties.find((p) => p.name === 'resource')!);
	return resources.flatMap((resource) =>
		dialer.properties
			.filter(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
			)
			.flatMap(optionsOf)
			.map((operation) => ({
				resource: resource.value,
				operation: operation.value,
				name: `${resource.name}: ${operation.name}`,
			})),
	);
}

/** The parameters n8n shows for these values, decided by n8n-workflow's own display rules. */
function visibleParameters(
	description: INodeTypeDescription,
	values: Record<string, string>,
): INodeProperties[] {
	const node = { typeVersion: 1 };
	const all =
		NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ??
		{};
	return description.properties.filter((p) =>
		NodeHelpers.displayParameter(all, p, node, description),
	);
}

/** How one parameter shows in the panel: an input with its test id, or a collection's or notice's text. */
function parameterLocator(panel: Locator, property: INodeProperties): Locator {
	if (property.type === 'notice') return panel.getByText(property.displayName.slice(0, 60));
	if (property.type === 'collection' || property.type === 'fixedCollection') {
		return panel.getByText(property.displayName, { exact: true });
	}
	return panel.getByTestId(`parameter-input-${property.name}`);
}

async function expectParameters(
	page: Page,
	description: INodeTypeDescription,
	values: Record<string, string>,
) {
	const panel = page.getByTestId('ndv').getByTestId('node-parameters');
	await panel.waitFor();
	const missing: string[] = [];
	for (const property of visibleParameters(description, values)) {
		if ((await parameterLocator(panel, property).count()) === 0)
			missing.push(`${property.displayName} (${property.name})`);
	}
	expect(missing).toEqual([]);
}

/** Waits until exactly `count` of the package's icons named `file` are on the page, each loaded. */
async function expectIcons(page: Page, file: string, count: number): Promise<void> {
	const selector = `img[src*="/icons/${PACKAGE}/"][src$="/${file}"]`;
	// A string predicate: it runs in the page, whose DOM types this project does not compile against.
	await page.waitForFunction(
		`[...document.querySelectorAll('${selector}')].filter((image) => image.complete && image.naturalWidth > 0).length === ${count}`,
		undefined,
		{ timeout: 15_000 },
	);
	expect(await page.locator(selector).count()).toBe(count);
}

/** What the canvas shows under each node's name, node by node (n8n's `_subtitle_…` element). */
async function canvasSubtitles(page: Page): Promise<string[]> {
	const subtitles = page.locator('[data-test-id="canvas-node"] [class^="_subtitle_"]');
	await subtitles.first().waitFor();
	return (await subtitles.allTextContents()).map((text) => text.trim());
}

describe('the nodes in the n8n editor (Chromium)', () => {
	let api: N8nApi;
	let simulator: DialerSimulator;
	let credential: Credential;
	let browser: Browser;
	let context: BrowserContext;
	let page: Page;
	const workflows: Workflow[] = [];
	/** Errors the page logged: uncaught exceptions and console errors, except the allowed kinds below. */
	const errors: string[] = [];
	let baseUrl: string;

	/** A logged-in browser context that never leaves 127.0.0.1 and records what the page logs. */
	async function newContext(colorScheme: 'light' | 'dark'): Promise<BrowserContext> {
		const { ownerEmail, ownerPassword } = readConnection();
		const created = await editorContext(
			browser,
			{ baseUrl, email: ownerEmail, password: ownerPassword },
			colorScheme,
		);
		created.on('page', (opened) => {
			opened.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
			opened.on('console', (message) => {
				if (message.type() !== 'error') return;
				const source = message.location().url;
				// Requests the test aborted, and n8n's output-schema lookup, which 404s for any
				// node that ships no schema files (n8n's own behaviour for community nodes).
				if (!source.startsWith(baseUrl) || source.startsWith(`${baseUrl}/schemas/${PACKAGE}.`))
					return;
				errors.push(`console: ${message.text()} (${source})`);
			});
		});
		return created;
	}

	beforeAll(async () => {
		api = await connectN8n();
		baseUrl = api.baseUrl;
		simulator = await startSimulator();
		registerSecret(simulator.token);
		registerSecret(WEBHOOK_SECRET);
		credential = await api.createCredential('dialerApi', 'Dialer API', {
			baseUrl: simulator.baseUrl,
			pathSegment: simulator.pathSegment,
			token: simulator.token,
			authScheme: 'raw',
			ignoreSslIssues: false,
			webhookSecret: WEBHOOK_SECRET,
			reportUser: '',
			reportPassword: '',
		});
		browser = await launchEditorBrowser();
		context = await newContext('light');
		page = await context.newPage();
	}, 600_000);

	afterAll(async () => {
		await browser?.close();
		for (const workflow of workflows) await api.deleteWorkflow(workflow.id).catch(() => undefined);
		if (credential) await api.deleteCredential(credential.id).catch(() => undefined);
		await simulator?.close();
	});

	async function createWorkflow(
		name: string,
		nodes: WorkflowNode[],
		connections: Workflow['connections'] = {},
	) {
		const workflow = await api.createWorkflow({ name, nodes, connections });
		workflows.push(workflow);
		return workflow;
	}

	it('adds the Dialer Trigger and the Dialer node from the nodes panel', async () => {
		await page.goto('/workflow/new');
		await page.getByTestId('canvas-add-button').click();
		await pickFromNodesPanel(page, 'Dialer');
		await page.getByTestId('node-creator').getByText('On agent paused', { exact: true }).click();
		await page.getByTestId('ndv').waitFor();
		await expectParameters(page, trigger, { events: 'agente.pause_in' });
		await closeNode(page);

		await page.getByTestId('canvas-handle-plus').first().click();
		await pickFromNodesPanel(page, 'Dialer');
		// Every operation is offered as an action of the node.
		const actions = page.getByTestId('node-creator');
		for (const { resource, operation } of operations()) {
			const action = optionsOf(
				dialer.properties.find(
					(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
				)!,
			).find((option) => option.value === operation) as { action?: string };
			// Waits: the panel renders its actions after the node is picked, later on a busy machine.
			await actions.getByText(action.action!, { exact: true }).first().waitFor();
		}
		await actions.getByText('Get the active call of an extension', { exact: true }).click();
		await page.getByTestId('ndv').waitFor();
		await expectParameters(page, dialer, { resource: 'call', operation: 'getActive' });
		await closeNode(page);

		const types = await page
			.getByTestId('canvas-node')
			.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-type')));
		expect(types).toEqual([`${PACKAGE}.dialerTrigger`, `${PACKAGE}.dialer`]);
		await expectIcons(page, 'dialer.svg', 2);
	});

	it('shows the Dialer Trigger with its webhook URLs, notice, events and options', async () => {
		const workflow = await createWorkflow('Dialer Trigger in the editor', [
			{
				name: 'Dialer Trigger',
				type: `${PACKAGE}.dialerTrigger`,
				typeVersion: TRIGGER_VERSION,
				position: [0, 0],
				webhookId: '3c0d5b7e-1f2a-4e6b-9c8d-7a5f4e3d2c1b',
				parameters: {
					events: ['agente.pause_in', 'agente.pause_out'],
					options: { agentIds: '105, 110' },
				},
				credentials: { dialerApi: { id: credential.id, name: credential.name } },
			},
		]);
		await openWorkflow(page, workflow.id);
		expect(await canvasSubtitles(page)).toEqual(['2 events']);
		await openNode(page, 'Dialer Trigger');
		await expectParameters(page, trigger, {});
		// The URL to paste into the dialer console: the production one, shown on request.
		const ndv = page.getByTestId('ndv');
		await ndv.getByText('Webhook URLs').click();
		await ndv.getByText('Production URL', { exact: true }).click();
		await ndv
			.getByText(`${baseUrl}/webhook/3c0d5b7e-1f2a-4e6b-9c8d-7a5f4e3d2c1b/webhook`, { exact: true })
			.waitFor();
		await closeNode(page);
	});

	describe('every resource and operation of the Dialer node', () => {
		const all = operations();
		let workflow: Workflow;

		beforeAll(async () => {
			workflow = await createWorkflow(
				'Every Dialer operation',
				all.map(({ resource, operation, name }, index) => ({
					name,
					type: `${PACKAGE}.dialer`,
					typeVersion: 1,
					position: [(index % 4) * 260, Math.floor(index / 4) * 200],
					parameters: { resource, operation },
					credentials: { dialerApi: { id: credential.id, name: credential.name } },
				})),
			);
			await openWorkflow(page, workflow.id);
		});

		it.each(all)('$name shows its parameters', async ({ resource, operation, name }) => {
			await openNode(page, name);
			await expectParameters(page, dialer, { resource, operation });
			await closeNode(page);
		});
	});

	it('shows the dark icon in the dark theme', async () => {
		const dark = await newContext('dark');
		const previous = page;
		page = await dark.newPage();
		try {
			const workflow = await createWorkflow(
				'Dialer nodes in the dark theme',
				[
					{
						name: 'Dialer Trigger',
						type: `${PACKAGE}.dialerTrigger`,
						typeVersion: TRIGGER_VERSION,
						position: [0, 0],
						webhookId: 'b1f0c2d3-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
						parameters: { events: ['agente.login'] },
					},
					{
						name: 'Dialer',
						type: `${PACKAGE}.dialer`,
						typeVersion: 1,
						position: [260, 0],
						parameters: { resource: 'call', operation: 'getActive' },
					},
				],
				{ 'Dialer Trigger': { main: [[{ node: 'Dialer', type: 'main', index: 0 }]] } },
			);
			await openWorkflow(page, workflow.id);
			await expectIcons(page, 'dialer.dark.svg', 2);
			await expectIcons(page, 'dialer.svg', 0);
			// What was picked, in words, as n8n's editor evaluates the subtitle expressions.
			expect((await canvasSubtitles(page)).sort()).toEqual([
				'Agent Logged In',
				'Get the active call of an extension',
			]);
		} finally {
			await dark.close();
			page = previous;
		}
	});

	it('shows the AI agent example with the Dialer node as a tool', async () => {
		const example = (await readExamples()).find(
			({ file }) => file === 'ai-agent-dialer-tool.json',
		)!;
		const { name, nodes, connections } = configureExample(example.workflow, credential, '');
		const workflow = await createWorkflow(name, nodes, connections);
		await openWorkflow(page, workflow.id);
		const tools = page.locator(
			`[data-test-id="canvas-node"][data-node-type="${PACKAGE}.dialerTool"]`,
		);
		await expect(tools.count()).resolves.toBe(2);
		await expectIcons(page, 'dialer.svg', 2);
	});

	it('shows the live over-limit pause alerts example on its data table', async () => {
		const example = (await readExamples()).find(
			({ file }) => file === 'live-pause-alerts-to-file.json',
		)!;
		// As pasted: every Data table node names the table By Name (none made yet: it is not published).
		const { name, nodes, connections } = configureExample(example.workflow, credential, '');
		const workflow = await createWorkflow(name, nodes, connections);
		await openWorkflow(page, workflow.id);
		const dataTableNodes = example.workflow.nodes.filter(
			(node) => node.type === 'n8n-nodes-base.dataTable',
		).length;
		await expect(
			page
				.locator('[data-test-id="canvas-node"][data-node-type="n8n-nodes-base.dataTable"]')
				.count(),
		).resolves.toBe(dataTableNodes);
		await expectIcons(page, 'dialer.svg', 1);
	});

	it('logs no errors in the page', () => {
		expect(errors).toEqual([]);
	});
});
