/**
 * n8n's editor in headless Chromium (Debian's, driven by playwright-core), as the browser test
 * and `npm run screenshots` use it: a logged-in page that never leaves the n8n it was given, and
 * the moves both make on the canvas.
 */
import {
	chromium,
	selectors,
	type Browser,
	type BrowserContext,
	type Locator,
	type Page,
} from 'playwright-core';

import { CHROMIUM_ARGS, ensureChromium } from './chromium';

export interface EditorLogin {
	baseUrl: string;
	email: string;
	password: string;
}

/** Chromium, installed when missing, with n8n's `data-test-id` as the test id attribute. */
export async function launchEditorBrowser(): Promise<Browser> {
	const executablePath = await ensureChromium();
	selectors.setTestIdAttribute('data-test-id');
	return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/**
 * A browser context logged in to n8n as `login`, in the given theme, whose requests to any other
 * origin are aborted (the editor asks npm's registry about community packages).
 */
export async function editorContext(
	browser: Browser,
	login: EditorLogin,
	colorScheme: 'light' | 'dark' = 'light',
): Promise<BrowserContext> {
	const context = await browser.newContext({
		baseURL: login.baseUrl,
		viewport: { width: 1440, height: 900 },
		colorScheme,
	});
	await context.route(
		(url) => url.origin !== login.baseUrl,
		(route) => route.abort(),
	);
	// n8n keeps the theme in localStorage; about:blank and other origins have none to write.
	await context.addInitScript(
		`if (location.origin === '${login.baseUrl}') localStorage.setItem('N8N_THEME', '${colorScheme}');`,
	);
	const answer = await context.request.post('/rest/login', {
		data: { emailOrLdapLoginId: login.email, password: login.password },
	});
	if (answer.status() !== 200) throw new Error(`n8n refused the login: HTTP ${answer.status()}`);
	return context;
}

/** Waits until an element stops moving (panels slide in), so a screenshot catches it at rest. */
export async function waitUntilStill(page: Page, element: Locator): Promise<void> {
	let previous = '';
	for (let i = 0; i < 50; i++) {
		const box = JSON.stringify(await element.boundingBox());
		if (box === previous) return;
		previous = box;
		await page.waitForTimeout(100);
	}
	throw new Error('the element kept moving for 5 s');
}

export async function openWorkflow(page: Page, id: string): Promise<void> {
	await page.goto(`/workflow/${id}`);
	await page.getByTestId('canvas-node').first().waitFor({ timeout: 60_000 });
}

export async function openNode(page: Page, name: string): Promise<void> {
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).dblclick();
	await page.getByTestId('ndv').waitFor();
}

export async function closeNode(page: Page): Promise<void> {
	// n8n 2.x: a close button; 1.x: "Back to canvas".
	await page.getByTestId('ndv-close-button').or(page.getByTestId('back-to-canvas')).click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/** In the open nodes panel, searches for a node by its name and picks it. */
export async function pickFromNodesPanel(page: Page, name: string): Promise<void> {
	await page.getByTestId('node-creator-search-bar').fill(name);
	await page
		.getByTestId('node-creator-item-name')
		.filter({ hasText: new RegExp(`^${name}$`) })
		.click();
}
