/**
 * The supervisor wallboard (examples/supervisor-wallboard.json) in a real browser: Debian's
 * Chromium, driven by playwright-core, opens the page as a TV's browser would, with the Basic Auth
 * login in its address. The live alerts example (examples/live-pause-alerts-to-file.json) keeps
 * the agents' table from the simulator's events. The page must show each agent's state and time
 * in it, turn a pause red once it passes its limit, and take in new events, all without reloading.
 * Then 200 agents on a 1920×1080 screen: every tile on it and readable (the README's picture comes
 * from npm run screenshots).
 */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { DateTime } from 'luxon';
import { chromium, type Browser, type Page } from 'playwright-core';
import { request } from 'undici';

import type { Credential, N8nApi, Workflow } from '../../harness/n8n/api';
import { simulatorCredential, sleep } from '../../harness/n8n/dialer';
import { CHROMIUM_ARGS, ensureChromium } from '../../harness/chromium';
import { startSimulator } from '../../harness/simulator';
import type { DialerSimulator } from '../../harness/simulator/types';
import { connectN8n, registerSecret } from '../e2e/setup/connection';
import {
	deployAlertExample,
	nowSeconds,
	pauseIn,
	readExample,
	type AlertDeployment,
} from '../e2e/support/liveAlerts';
import { configureSupervisionExample, type AgentRow } from '../e2e/support/supervision';
import type { WallboardCredentials } from '../../harness/demo';
import { event } from '../e2e/support/triggerWorkflows';

const WEBHOOK_SECRET = 'wallboard-webhook-secret';
const LOGIN = { user: 'wallboard', password: 'wallboard-e2e-password' };
const KEY_SECRET = 'wallboard-e2e-key-secret';
/** The e2e n8n's GENERIC_TIMEZONE; the browser runs in UTC, so times on the page must be this zone's. */
const WORKFLOW_ZONE = 'America/Sao_Paulo';
/** The 200-agent screen, for a look after a run (test-output/ is not kept in git). */
const SCREENSHOT = path.resolve('test-output', 'wallboard-200-agents.png');
const AVAILABLE = 101;
const ON_A_CALL = 102;
const RINGING = 103;
const PAUSED = 104;
const NEAR_LIMIT = 105;
const OVER_LIMIT = 106;
const OFFLINE = 107;
/** An agent whose only event is saved minutes late (one of the 200 of the last test too). */
const SAVED_LATE = 108;
/** The over-limit agent's pause starts after the page is open and reaches its limit this much later. */
const LIMIT_SECONDS = 8;

jest.setTimeout(120_000);

describe('the supervisor wallboard in Chromium (examples/supervisor-wallboard.json)', () => {
	let api: N8nApi;
	let simulator: DialerSimulator;
	let credential: Credential;
	let wallboardCredentials: WallboardCredentials;
	let alerts: AlertDeployment;
	let wallboard: Workflow;
	let url: string;
	let dataUrl: string;
	let browser: Browser;
	let page: Page;
	let loggedOutAt: number;

	const tile = (agent: number) => page.locator(`.tile[data-agent="${agent}"]`);
	const total = (id: string) => page.locator(`#${id}`);
	const timeOfDay = (ms: number) =>
		DateTime.fromMillis(ms, { zone: WORKFLOW_ZONE }).toFormat('HH:mm');

	async function get(target: string, headers: Record<string, string> = {}) {
		const res = await request(target, { headers });
		return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
	}

	beforeAll(async () => {
		const executablePath = await ensureChromium();
		api = await connectN8n();
		simulator = await startSimulator();
		registerSecret(simulator.token);
		registerSecret(WEBHOOK_SECRET);
		registerSecret(LOGIN.password);
		registerSecret(KEY_SECRET);
		credential = await api.createCredential(
			'dialerApi',
			'Dialer API (wallboard)',
			simulatorCredential(simulator, WEBHOOK_SECRET),
		);
		wallboardCredentials = {
			login: await api.createCredential('httpBasicAuth', 'Wallboard login', LOGIN),
			key: await api.createCredential('jwtAuth', 'Wallboard key', {
				keyType: 'passphrase',
				secret: KEY_SECRET,
				algorithm: 'HS256',
			}),
		};
		alerts = await deployAlertExample(api, credential);
		simulator.webhooks.register({ url: alerts.url, secret: WEBHOOK_SECRET });
		wallboard = await api.createWorkflow(
			configureSupervisionExample(await readExample('supervisor-wallboard.json'), {
				credential,
				table: alerts.tableRef,
				outputFolder: alerts.outputFolder,
				wallboard: wallboardCredentials,
			}),
		);
		await api.activateWorkflow(wallboard.id);
		const webhookPath = (authentication: string) =>
			`${api.webhookBaseUrl}/webhook/${String(
				wallboard.nodes.find((node) => node.parameters.authentication === authentication)!
					.parameters.path,
			)}`;
		url = webhookPath('basicAuth');
		dataUrl = webhookPath('jwtAuth');
		for (let tries = 0; (await get(url)).status === 404; tries++) {
			if (tries > 100) throw new Error(`${url} still answers 404 after activation`);
			await sleep(200);
		}

		const now = nowSeconds();
		const { webhooks } = simulator;
		await webhooks.emit(event('agente.login', AVAILABLE, { t: now }));
		await webhooks.emit(event('agente.busy', ON_A_CALL, { t: now, udate: now - 95 }));
		await webhooks.emit(event('agente.ringing', RINGING, { t: now }));
		await webhooks.emit(event('agente.pause_in', PAUSED, { t: now, pausa_id: 3, udate: now }));
		// 500 s into a 600-s pause: past 80 % of it, the example's amber. Sent now, as the dialer
		// sends every event (a delivery 500 s late would read as the dialer's clock set back).
		await webhooks.emit({ ...pauseIn(NEAR_LIMIT, 2, now - 500, 600), t: now });
		const deadline = Date.now() + 30_000;
		while ((await alerts.table.rows()).length < 5) {
			if (Date.now() > deadline) throw new Error('the alerts workflow did not save five agents');
			await sleep(200);
		}
		// Logged out an hour ago: its row as the alerts saved it then.
		loggedOutAt = (now - 3600) * 1000;
		const loggedOut = DateTime.fromMillis(loggedOutAt, { zone: WORKFLOW_ZONE }).toISO()!;
		await alerts.table.insert([
			{
				agentId: OFFLINE,
				state: 'offline',
				lastEvent: 'agente.logout',
				lastEventAt: loggedOut,
				eventOrder: (now - 3600) * 10 + 7,
				since: loggedOut,
				pauseId: null,
				pauseStartedAt: null,
				pauseLimitAt: null,
				endsPause: 1,
				receivedAtMs: loggedOutAt,
			},
		]);

		browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
		const context = await browser.newContext({
			viewport: { width: 1920, height: 1080 },
			timezoneId: 'UTC',
		});
		// Nothing but n8n: the page must need no outside resource.
		await context.route(
			(target) => target.origin !== new URL(url).origin,
			(route) => route.abort(),
		);
		page = await context.newPage();
		const withLogin = new URL(url);
		[withLogin.username, withLogin.password] = [LOGIN.user, LOGIN.password];
		await page.goto(withLogin.href);
		// A mark that only this document carries: a reload would lose it.
		await page.evaluate('window.sameDocument = true');
	}, 180_000);

	afterAll(async () => {
		await browser?.close();
		if (wallboard) {
			await api.deactivateWorkflow(wallboard.id).catch(() => undefined);
			await api.deleteWorkflow(wallboard.id).catch(() => undefined);
		}
		await alerts?.remove();
		for (const made of [wallboardCredentials?.login, wallboardCredentials?.key, credential]) {
			if (made) await api.deleteCredential(made.id).catch(() => undefined);
		}
		await simulator?.close();
	});

	it('answers the page only with the login, and the data only with an unexpired key', async () => {
		const page = await get(url);
		expect(page.status).toBe(401);
		expect(page.headers['www-authenticate']).toMatch(/^Basic /);
		expect(page.body).not.toContain('<main');
		const wrongLogin = `Basic ${Buffer.from(`${LOGIN.user}:not-it`).toString('base64')}`;
		// A wrong password: n8n 2.x answers 401, 1.x 403.
		expect([401, 403]).toContain((await get(url, { authorization: wrongLogin })).status);
		const data = (authorization?: string) =>
			get(dataUrl, authorization ? { authorization } : {}).then((answer) => answer.status);
		const inAnHour = nowSeconds() + 3600;
		expect(await data()).toBe(401);
		expect(
			await data(`Basic ${Buffer.from(`${LOGIN.user}:${LOGIN.password}`).toString('base64')}`),
		).toBe(403);
		expect(await data(`Bearer ${signedKey('another secret', inAnHour)}`)).toBe(403);
		expect(await data(`Bearer ${signedKey(KEY_SECRET, nowSeconds() - 1)}`)).toBe(403);
		expect(await data(`Bearer ${signedKey(KEY_SECRET, inAnHour)}`)).toBe(200);
	});

	it("shows the workflow's time from the first paint, before any data arrive", async () => {
		const context = await browser.newContext({ timezoneId: 'UTC' });
		try {
			// The data never come: what shows is the page's own first paint.
			await context.route(
				(target) => target.href.startsWith(dataUrl),
				() => undefined,
			);
			await context.route(
				(target) => target.origin !== new URL(url).origin,
				(route) => route.abort(),
			);
			const first = await context.newPage();
			const withLogin = new URL(url);
			[withLogin.username, withLogin.password] = [LOGIN.user, LOGIN.password];
			await first.goto(withLogin.href);
			expect([timeOfDay(Date.now() - 60_000), timeOfDay(Date.now())]).toContain(
				await first.locator('#clock').textContent(),
			);
		} finally {
			await context.close();
		}
	});

	it("shows each agent's state, the totals, and times in the workflow's timezone", async () => {
		const states = Object.fromEntries(
			await Promise.all(
				[AVAILABLE, ON_A_CALL, RINGING, PAUSED, NEAR_LIMIT, OFFLINE].map(async (agent) => [
					agent,
					[
						await tile(agent).getAttribute('data-state'),
						await tile(agent).getAttribute('data-limit'),
					],
				]),
			),
		);
		expect(states).toEqual({
			[AVAILABLE]: ['online', ''],
			[ON_A_CALL]: ['busy', ''],
			[RINGING]: ['ringing', ''],
			[PAUSED]: ['paused', ''],
			[NEAR_LIMIT]: ['paused', 'near'],
			[OFFLINE]: ['offline', ''],
		});
		const totals = await Promise.all(
			['online', 'busy', 'ringing', 'paused', 'offline'].map((id) => total(id).textContent()),
		);
		expect(totals).toEqual(['1', '1', '1', '2', '1']);
		await expect(tile(NEAR_LIMIT).locator('.what').textContent()).resolves.toBe('Paused 2');
		// The call began 95 s before the event: the time counts from the call's start.
		const onCall = (await tile(ON_A_CALL).locator('.time').textContent())!.split(':').map(Number);
		expect(onCall[0] * 60 + onCall[1]).toBeGreaterThanOrEqual(95);
		expect(onCall[0] * 60 + onCall[1]).toBeLessThan(95 + 60);
		// An offline agent shows when it logged out, on the workflow's clock, not the browser's.
		expect(await tile(OFFLINE).locator('.time').textContent()).toBe(timeOfDay(loggedOutAt));
		expect([timeOfDay(Date.now() - 60_000), timeOfDay(Date.now())]).toContain(
			await page.locator('#clock').textContent(),
		);
	});

	it('counts the time in each state up every second', async () => {
		const before = await tile(RINGING).locator('.time').textContent();
		// Over 3 s: at least two of the page's once-a-second ticks, on a busy machine too.
		await sleep(3100);
		const after = await tile(RINGING).locator('.time').textContent();
		const seconds = (text: string | null) => {
			const [minutes, secs] = text!.split(':').map(Number);
			return minutes * 60 + secs;
		};
		expect(seconds(after) - seconds(before)).toBeGreaterThanOrEqual(2);
	});

	it('takes new events in and turns a pause red at its limit, without reloading', async () => {
		const start = nowSeconds();
		await simulator.webhooks.emit(pauseIn(OVER_LIMIT, 1, start, LIMIT_SECONDS));
		await simulator.webhooks.emit(event('agente.busy', AVAILABLE, { t: start, udate: start }));
		// The next refresh (every 5 s) brings both in.
		await tile(OVER_LIMIT).waitFor({ timeout: 20_000 });
		await page.waitForFunction(
			`document.querySelector('.tile[data-agent="${AVAILABLE}"]').dataset.state === 'busy'`,
			undefined,
			{ timeout: 20_000 },
		);
		await page.waitForFunction(
			`document.querySelector('.tile[data-agent="${OVER_LIMIT}"]').dataset.limit === 'over'`,
			undefined,
			{ timeout: 30_000, polling: 100 },
		);
		expect(Date.now()).toBeGreaterThanOrEqual((start + LIMIT_SECONDS) * 1000);
		expect(
			await page.evaluate(
				`getComputedStyle(document.querySelector('.tile[data-agent="${OVER_LIMIT}"]')).backgroundColor`,
			),
		).toBe('rgb(198, 40, 40)');
		expect(await page.locator('#overLimit').textContent()).toBe('1 over limit');
		expect(await page.evaluate('window.sameDocument')).toBe(true);
	});

	it("reads only the rows from its last reading on, and shows an agent's event saved after later ones", async () => {
		const key = { authorization: `Bearer ${signedKey(KEY_SECRET, nowSeconds() + 3600)}` };
		const read = async (since?: number) => {
			const target = since === undefined ? dataUrl : `${dataUrl}?since=${since}`;
			const answer = await get(target, key);
			expect(answer.status).toBe(200);
			return JSON.parse(answer.body) as {
				lastOrder: number;
				agents: Array<{ agentId: number; state: string }>;
			};
		};
		const everything = await read();
		expect(everything.agents.map((agent) => agent.agentId)).toEqual([
			AVAILABLE,
			ON_A_CALL,
			RINGING,
			PAUSED,
			NEAR_LIMIT,
			OVER_LIMIT,
			OFFLINE,
		]);
		const { lastOrder } = everything;
		expect(await read(lastOrder + 1)).toEqual({
			...everything,
			agents: [],
			lastOrder: lastOrder + 1,
			rows: 0,
			middleOrder: null,
			now: expect.any(String),
		});
		expect((await read(lastOrder)).agents.map((agent) => agent.agentId)).toEqual([AVAILABLE]);

		// Saved late: many old events of an agent shown (older than the page reads again), and the
		// paused agent's resume, up to 10 s before the newest event read, saved after it.
		const rows = await alerts.table.rows();
		const orderOf = (agent: number) => rows.find((row) => row.agentId === agent)!.eventOrder;
		await alerts.table.insert(
			Array.from({ length: 250 }, (_, index) => ({
				...agentRow(RINGING, 7, nowSeconds()),
				eventOrder: orderOf(RINGING) - 10 * (index + 1),
			})),
		);
		const lateOrder = Math.max(orderOf(PAUSED) + 1, lastOrder - 100);
		expect(lateOrder).toBeLessThan(lastOrder);
		await alerts.table.insert([
			{
				...agentRow(PAUSED, 1, nowSeconds()),
				state: 'online',
				lastEvent: 'agente.pause_out',
				endsPause: 1,
				eventOrder: lateOrder,
			},
		]);
		// The page's next readings start 30 s of the dialer's time before the newest event read.
		const asked = await page.waitForResponse((response) => response.url().startsWith(dataUrl), {
			timeout: 20_000,
		});
		expect(Number(new URL(asked.url()).searchParams.get('since'))).toBe(lastOrder - 300);
		await page.waitForFunction(
			`document.querySelector('.tile[data-agent="${PAUSED}"]').dataset.state === 'online'`,
			undefined,
			{ timeout: 20_000 },
		);
		expect(await tile(AVAILABLE).getAttribute('data-state')).toBe('busy');
		expect(await tile(RINGING).getAttribute('data-state')).toBe('ringing');
	});

	it('shows an event n8n saved minutes after it happened on its next refresh', async () => {
		// Once the page reads by its window (its first reading took the whole table), a row older
		// than anything it reads again by eventOrder: found by when it was saved.
		await page.waitForResponse(
			(response) =>
				response.url().startsWith(dataUrl) &&
				Number(new URL(response.url()).searchParams.get('since')) > 0,
			{ timeout: 20_000 },
		);
		const rows = await alerts.table.rows();
		const newestOrder = Math.max(...rows.map((row) => row.eventOrder));
		await alerts.table.insert([
			{ ...agentRow(SAVED_LATE, 1, nowSeconds()), state: 'busy', eventOrder: newestOrder - 3000 },
		]);
		await page.waitForFunction(
			`document.querySelector('.tile[data-agent="${SAVED_LATE}"]')?.dataset.state === 'busy'`,
			undefined,
			{ timeout: 20_000 },
		);
	});

	it('fits 200 agents on a 1920×1080 screen, each readable', async () => {
		const now = nowSeconds();
		await alerts.table.insert(
			Array.from({ length: 193 }, (_, index) => agentRow(108 + index, index, now)),
		);
		// More than one request of rows: the page reads the table anew 1000 rows at a time.
		const filler = agentRow(108, 0, now - 7200);
		await alerts.table.insert(
			Array.from({ length: 2200 }, (_, index) => ({
				...filler,
				eventOrder: filler.eventOrder - index,
			})),
		);
		const windows: Array<[number, number]> = [];
		page.on('request', (asked) => {
			if (!asked.url().startsWith(dataUrl)) return;
			const query = new URL(asked.url()).searchParams;
			windows.push([Number(query.get('since')), Number(query.get('before') ?? Infinity)]);
		});
		await page.reload();
		await page.waitForFunction("document.querySelectorAll('.tile').length === 200");
		// The whole table first, then narrower windows of eventOrder (more rows than one request
		// reads), from the first row to the last.
		expect(windows[0]).toEqual([0, Infinity]);
		expect(windows[1]).toEqual([0, expect.any(Number)]);
		expect(windows[1][1]).toBeLessThan(Infinity);
		expect(windows.at(-1)![1]).toBe(Infinity);
		const layout = (await page.evaluate(`(() => {
			const tiles = [...document.querySelectorAll('.tile')].map((tile) => {
				const box = tile.getBoundingClientRect();
				const time = tile.querySelector('.time');
				return {
					right: box.right,
					bottom: box.bottom,
					timePx: parseFloat(getComputedStyle(time).fontSize),
					clipped: time.scrollWidth > time.clientWidth || tile.scrollHeight > tile.clientHeight,
				};
			});
			return {
				scrolls: document.documentElement.scrollHeight > innerHeight,
				right: Math.max(...tiles.map((tile) => tile.right)),
				bottom: Math.max(...tiles.map((tile) => tile.bottom)),
				smallestTimePx: Math.min(...tiles.map((tile) => tile.timePx)),
				clipped: tiles.filter((tile) => tile.clipped).length,
			};
		})()`)) as Record<string, number | boolean>;
		expect(layout).toEqual({
			scrolls: false,
			right: expect.any(Number),
			bottom: expect.any(Number),
			smallestTimePx: expect.any(Number),
			clipped: 0,
		});
		expect(layout.right).toBeLessThanOrEqual(1920);
		expect(layout.bottom).toBeLessThanOrEqual(1080);
		// About 7 mm on a 55-inch screen: digits a room away can read.
		expect(layout.smallestTimePx).toBeGreaterThanOrEqual(24);
		await page.screenshot({ path: SCREENSHOT });
	});
});

/**
 * A plausible agent for the 200-agent screen: about half on a call, a fifth available, a few
 * ringing, paused (one in three of those near or over a 15-min limit) and offline.
 */
function agentRow(agentId: number, index: number, now: number): Omit<AgentRow, 'id' | 'createdAt'> {
	const states = ['busy', 'online', 'busy', 'busy', 'paused', 'busy', 'online', 'ringing', 'busy'];
	const state = index % 23 === 5 ? 'offline' : states[index % states.length];
	const secondsAgo = state === 'paused' ? [120, 780, 1000][index % 3] : (index * 97) % 1500;
	const at = (seconds: number) => DateTime.fromSeconds(seconds, { zone: WORKFLOW_ZONE }).toISO()!;
	const since = now - secondsAgo;
	const paused = state === 'paused';
	return {
		agentId,
		state,
		lastEvent: `agente.${{ online: 'online', busy: 'busy', ringing: 'ringing', paused: 'pause_in', offline: 'logout' }[state]}`,
		lastEventAt: at(since),
		eventOrder: since * 10 + 1,
		since: at(since),
		pauseId: paused ? '1' : null,
		pauseStartedAt: paused ? at(since) : null,
		pauseLimitAt: paused ? at(since + 900) : null,
		endsPause: paused || state === 'offline' ? 1 : 0,
		receivedAtMs: since * 1000,
	};
}

/** A key as the example's Page Key node signs it (HS256), with this secret and expiry. */
function signedKey(secret: string, exp: number): string {
	const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'wallboard', exp })}`;
	return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
