/**
 * `npm run screenshots`: the README's pictures in docs/screenshots/, taken from a running
 * `npm run demo` in headless Chromium, so they show the package as it is today. Starts the demo
 * as a user does (its own process group), logs in with the login it prints, takes each picture
 * of SHOTS, and stops the demo by its process group on the way out, also on failure or Ctrl-C.
 *
 * A new picture is one entry in SHOTS. `--skip-build` is handed to the demo (pack the existing
 * dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import {
	hasFinished,
	N8nApi,
	nodeOutput,
	type Credential,
	type Workflow,
	type WorkflowNode,
} from './n8n/api';
import { DIALER_TYPE, TRIGGER_TYPE, TRIGGER_VERSION } from './n8n/dialer';
import { PROJECT_ROOT } from './n8n/instance';
import {
	editorContext,
	launchEditorBrowser,
	openNode,
	openWorkflow,
	pickFromNodesPanel,
	waitUntilStill,
	type EditorLogin,
} from './editor';

const OUTPUT = path.join(PROJECT_ROOT, 'docs', 'screenshots');
const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
/** The demo's first run installs n8n (about 5 minutes); later ones start in well under one. */
const DEMO_START_TIMEOUT_MS = 15 * 60_000;
const WEBHOOK_ID = '3c0d5b7e-1f2a-4e6b-9c8d-7a5f4e3d2c1b';

/** What a picture is taken from: the demo's n8n, seen by its owner. */
interface Scene {
	page: Page;
	api: N8nApi;
	credential: Credential;
	/** The demo's Files folder, where its examples write. */
	files: string;
	/** The wallboard's address with its login, as the demo prints it. */
	wallboardUrl: string;
	/** A workflow the demo imported, by the start of its name ("Dialer: live over-limit…"). */
	demoWorkflow(name: string): Promise<Workflow>;
	/** Opens a workflow made for the picture: the Dialer Trigger, then the Dialer node with these parameters. */
	openTriggerAndDialer(dialerParameters: Record<string, unknown>): Promise<void>;
}

interface Shot {
	file: string;
	theme?: 'light' | 'dark';
	/** Brings the page to what the picture shows. */
	show(scene: Scene): Promise<void>;
}

const SHOTS: Shot[] = [
	{
		file: 'canvas.png',
		show: ({ openTriggerAndDialer }) =>
			openTriggerAndDialer({ resource: 'call', operation: 'getActive', extension: '1001' }),
	},
	{
		file: 'canvas-dark.png',
		theme: 'dark',
		show: ({ openTriggerAndDialer }) =>
			openTriggerAndDialer({ resource: 'call', operation: 'getActive', extension: '1001' }),
	},
	{
		file: 'nodes-panel-actions.png',
		show: async ({ page, openTriggerAndDialer }) => {
			// After a trigger, the panel offers the Dialer node's actions.
			await openTriggerAndDialer({ resource: 'call', operation: 'getActive', extension: '1001' });
			await page.getByTestId('canvas-handle-plus').last().click();
			await pickFromNodesPanel(page, 'Dialer');
			const action = page
				.getByTestId('node-creator')
				.getByText('Get the active call of an extension');
			await waitUntilStill(page, action);
		},
	},
	{
		file: 'dialer-parameters.png',
		show: async ({ page, openTriggerAndDialer }) => {
			await openTriggerAndDialer({ resource: 'report', operation: 'getFilledForms' });
			await openNode(page, 'Dialer');
		},
	},
	{
		file: 'dialer-trigger-parameters.png',
		show: async ({ page, openTriggerAndDialer }) => {
			await openTriggerAndDialer({ resource: 'call', operation: 'getActive', extension: '1001' });
			await openNode(page, 'Dialer Trigger');
			const ndv = page.getByTestId('ndv');
			await ndv.getByText('Webhook URLs').click();
			await ndv.getByText('Production URL', { exact: true }).click();
			await ndv.getByText(`/webhook/${WEBHOOK_ID}/webhook`).waitFor();
		},
	},
	{
		file: 'live-pause-alerts-workflow.png',
		show: async ({ page, demoWorkflow }) =>
			openWorkflow(
				page,
				(await demoWorkflow('Dialer: live over-limit pause alerts to a log file')).id,
			),
	},
	{
		// The live alert as it landed: the demo's over-limit pause, the execution that wrote its line.
		file: 'live-alert.png',
		show: async ({ page, api, demoWorkflow }) => {
			const alerts = await demoWorkflow('Dialer: live over-limit pause alerts to a log file');
			const alerted = (await api.listExecutions(alerts.id, true)).find(
				(execution) =>
					hasFinished(execution) && nodeOutput(execution, 'Append to Log File').length > 0,
			);
			if (!alerted) throw new Error('the demo shows no execution that wrote an alert');
			await page.goto(`/workflow/${alerts.id}/executions/${alerted.id}`);
			await page.getByTestId('canvas-node').first().waitFor({ timeout: 60_000 });
			await page.getByTestId('zoom-to-fit').click();
		},
	},
	{
		// The e-mail the morning digest sends, as the demo's digest-to-disk example wrote it.
		file: 'morning-digest-email.png',
		show: async ({ page, files }) => {
			const digest = readdirSync(files).find((name) => /^morning-digest-.*\.html$/.test(name));
			if (!digest) throw new Error(`the demo wrote no morning digest in ${files}`);
			await page.setContent(readFileSync(path.join(files, digest), 'utf8'));
		},
	},
	{
		file: 'ai-agent-example.png',
		show: async ({ page, demoWorkflow }) =>
			openWorkflow(page, (await demoWorkflow('Dialer: AI agent')).id),
	},
	{
		// As a TV shows it: a 1920×1080 screen, the login in the address the demo prints.
		file: 'wallboard.png',
		show: async ({ page, wallboardUrl }) => {
			await page.setViewportSize({ width: 1920, height: 1080 });
			await page.goto(wallboardUrl);
			await page.locator('.tile').first().waitFor();
		},
	},
];

/** Waits until the page has loaded what it shows (icons included) and its fade-ins have ended. */
async function settle(page: Page): Promise<void> {
	await page.waitForLoadState('networkidle');
	// A string: it runs in the page, whose DOM types this project does not compile against.
	await page.waitForFunction(
		`[...document.querySelectorAll('img[src*="/icons/"]')].every((image) => image.complete && image.naturalWidth > 0)`,
		undefined,
		{ timeout: 15_000 },
	);
	await page.waitForTimeout(1_000);
}

/** What the demo's banner gives: the editor's login, its Files folder, the wallboard's address. */
interface DemoBanner {
	login: EditorLogin;
	files: string;
	wallboardUrl: string;
}

/** The demo in its own process group, as in a terminal: editor URL and login from its banner. */
async function startDemo(args: string[]): Promise<{ child: ChildProcess } & DemoBanner> {
	const child = spawn(TSX, ['harness/demo.ts', ...args], { cwd: PROJECT_ROOT, detached: true });
	child.stderr?.pipe(process.stderr);
	let stdout = '';
	const started = await new Promise<DemoBanner>((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error('the demo did not start')),
			DEMO_START_TIMEOUT_MS,
		);
		child.on('exit', (code) => reject(new Error(`the demo ended (exit code ${code})`)));
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			const editor = /n8n editor +(\S+)/.exec(stdout);
			const owner = /Log in as +(\S+) +\/ +(\S+)/.exec(stdout);
			const files = /Files +(\S+)/.exec(stdout);
			const wallboard = /Wallboard: +(\S+)/.exec(stdout);
			if (!stdout.includes('Press Ctrl-C') || !editor || !owner || !files || !wallboard) return;
			clearTimeout(timer);
			resolve({
				login: { baseUrl: editor[1], email: owner[1], password: owner[2] },
				files: files[1],
				wallboardUrl: wallboard[1],
			});
		});
	}).catch(async (error: Error) => {
		await stopDemo(child);
		throw error;
	});
	return { child, ...started };
}

/** Ctrl-C to the demo's process group, then waits until it has stopped everything it started. */
async function stopDemo(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	process.kill(-child.pid!, 'SIGINT');
	await exited;
}

async function takeScreenshots(
	browser: Browser,
	{ login, files, wallboardUrl }: DemoBanner,
): Promise<void> {
	const api = await N8nApi.connect({ ...login });
	const workflows = await api.rest<Workflow[]>('GET', '/rest/workflows');
	const credentials = await api.rest<Credential[]>('GET', '/rest/credentials');
	const credential = credentials.find((candidate) => candidate.type === 'dialerApi');
	if (!credential) throw new Error('the demo made no Dialer API credential');
	const made: Workflow[] = [];
	const demoWorkflow = async (name: string) => {
		const found = workflows.find((workflow) => workflow.name.startsWith(name));
		if (!found) throw new Error(`the demo imported no workflow named "${name}…"`);
		return found;
	};
	const openTriggerAndDialer = async (page: Page, dialerParameters: Record<string, unknown>) => {
		const dialerApi = { dialerApi: { id: credential.id, name: credential.name } };
		const nodes: WorkflowNode[] = [
			{
				name: 'Dialer Trigger',
				type: TRIGGER_TYPE,
				typeVersion: TRIGGER_VERSION,
				position: [0, 0],
				webhookId: WEBHOOK_ID,
				parameters: { events: ['agente.pause_in', 'agente.pause_out'] },
				credentials: dialerApi,
			},
			{
				name: 'Dialer',
				type: DIALER_TYPE,
				typeVersion: 1,
				position: [300, 0],
				parameters: dialerParameters,
				credentials: dialerApi,
			},
		];
		const workflow = await api.createWorkflow({
			name: 'The Dialer Trigger and the Dialer node',
			nodes,
			connections: { 'Dialer Trigger': { main: [[{ node: 'Dialer', type: 'main', index: 0 }]] } },
		});
		made.push(workflow);
		await openWorkflow(page, workflow.id);
	};
	mkdirSync(OUTPUT, { recursive: true });
	try {
		for (const shot of SHOTS) {
			const context = await editorContext(browser, login, shot.theme);
			try {
				const page = await context.newPage();
				await shot.show({
					page,
					api,
					credential,
					files,
					wallboardUrl,
					demoWorkflow,
					openTriggerAndDialer: (parameters) => openTriggerAndDialer(page, parameters),
				});
				await settle(page);
				await page.screenshot({ path: path.join(OUTPUT, shot.file) });
				process.stderr.write(`[screenshots] ${path.relative(PROJECT_ROOT, OUTPUT)}/${shot.file}\n`);
			} finally {
				await context.close();
			}
		}
	} finally {
		for (const workflow of made) await api.deleteWorkflow(workflow.id).catch(() => undefined);
	}
}

async function main(): Promise<void> {
	const { child, ...banner } = await startDemo(process.argv.slice(2));
	const stop = () => void stopDemo(child).finally(() => process.exit(130));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	let browser: Browser | undefined;
	try {
		browser = await launchEditorBrowser();
		await takeScreenshots(browser, banner);
	} finally {
		await browser?.close();
		await stopDemo(child);
	}
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`[screenshots] ${error.stack ?? error.message}\n`);
		process.exitCode = 1;
	});
}
