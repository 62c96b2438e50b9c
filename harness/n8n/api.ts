/**
 * A small client for one running n8n: credentials, workflows and executions through the public
 * API (X-N8N-API-KEY) on n8n 2.x or the editor's REST endpoints (session cookie) on 1.x, behind
 * the same methods; plus the editor's calls for what the public API lacks: testing a credential
 * and listing loaded node and credential types.
 */
import { randomUUID } from 'node:crypto';
import { parse as parseFlatted } from 'flatted';
import { request } from 'undici';

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	disabled?: boolean;
}

/** A node for createWebhookWorkflow: positions are filled in when missing. */
export type NodeSpec = Omit<WorkflowNode, 'position'> & { position?: [number, number] };

export type WorkflowConnections = Record<
	string,
	{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
>;

export interface WorkflowInput {
	name: string;
	nodes: WorkflowNode[];
	connections: WorkflowConnections;
	settings?: Record<string, unknown>;
}

export interface Workflow extends WorkflowInput {
	id: string;
	active: boolean;
}

export interface Credential {
	id: string;
	name: string;
	type: string;
}

export interface Execution {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
	mode: string;
	startedAt: string;
	stoppedAt: string | null;
	data?: unknown;
}

/** What the editor's credential "Test" button shows: OK, or Error with the message. */
export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface CredentialInput {
	type: string;
	name: string;
	data: Record<string, unknown>;
}

/**
 * Whether an execution has ended. One a Wait node parked in the database until its time has a
 * stoppedAt too, and its status "waiting" until it is resumed and ends.
 */
export function hasFinished(execution: Execution): boolean {
	return Boolean(execution.stoppedAt) && execution.status !== 'waiting';
}

/** The items a node gave in an execution's first run, from its first output (`[]` if it did not run). */
export function nodeOutput(execution: Execution, nodeName: string): Array<Record<string, unknown>> {
	const data = execution.data as {
		resultData: {
			runData: Record<
				string,
				Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }> | undefined
			>;
		};
	};
	return data.resultData.runData[nodeName]?.[0]?.data.main[0].map((item) => item.json) ?? [];
}

export interface HttpResult<T = unknown> {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: T;
}

export interface WebhookWorkflow {
	workflow: Workflow;
	/** Production URL, e.g. http://127.0.0.1:5678/webhook/<uuid>. */
	url: string;
	/** POSTs one JSON body; the answer is the last node's items (responseData allEntries). */
	post<T = unknown>(body: unknown): Promise<HttpResult<T>>;
	remove(): Promise<void>;
}

export class N8nApiError extends Error {
	constructor(
		readonly method: string,
		readonly path: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(
			`${method} ${path} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`,
		);
	}
}

/** What the editor shows when n8n 2.x could not publish a workflow: each trigger's refusal. */
export class PublicationError extends Error {
	constructor(
		readonly workflowId: string,
		readonly triggerMessages: string[],
	) {
		super(`n8n did not publish workflow ${workflowId}: ${triggerMessages.join('; ')}`);
	}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(body: { text(): Promise<string> }): Promise<unknown> {
	const text = await body.text();
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return text;
	}
}

/**
 * n8n's Webhook node for POSTs on `path` (also its webhookId), answering when the last node is
 * done unless `parameters` say otherwise (they add to or replace the defaults).
 */
export function webhookNode(path: string, parameters: Record<string, unknown> = {}): WorkflowNode {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: path,
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			options: {},
			...parameters,
		},
	};
}

/**
 * A production webhook answers 404 for a moment after activation (a queue-mode webhook processor
 * longer); any other answer to an empty POST (a trigger's 401 for a missing secret) means it is
 * served.
 */
export async function waitUntilServed(
	url: string,
	headers: Record<string, string> = {},
	timeoutMs = 20_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await request(url, {
			method: 'POST',
			headers: { ...headers, 'content-type': 'application/json' },
			body: '{}',
		});
		await res.body.dump();
		if (res.statusCode !== 404) return;
		if (Date.now() > deadline) throw new Error(`${url} still answers 404 after activation`);
		await sleep(200);
	}
}

/** Chains nodes one after another on their first main output. */
export function linearConnections(names: string[]): WorkflowConnections {
	const connections: WorkflowConnections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

export class N8nApi {
	private cookie?: string;

	private apiKey?: string;

	/** `webhookBaseUrl`: where production webhooks are served, when not by `baseUrl` (queue mode's webhook processor). */
	constructor(
		readonly baseUrl: string,
		readonly webhookBaseUrl = baseUrl,
	) {}

	private store: WorkflowStore = new PublicApiStore(this);

	/**
	 * Logs in; with the public API (`workflowApi`, default 'public') it uses the given API key or
	 * creates one with every scope the instance offers.
	 */
	static async connect(options: {
		baseUrl: string;
		email: string;
		password: string;
		apiKey?: string;
		webhookBaseUrl?: string;
		workflowApi?: 'public' | 'editor';
	}): Promise<N8nApi> {
		const api = new N8nApi(options.baseUrl, options.webhookBaseUrl);
		await api.login(options.email, options.password);
		if (options.workflowApi === 'editor') api.store = new EditorApiStore(api);
		else api.apiKey = options.apiKey || (await api.createApiKey('e2e'));
		return api;
	}

	/** n8n 1.x has no owner from the environment: the first visitor sets it up, once. */
	static async setUpOwner(
		baseUrl: string,
		owner: { email: string; firstName: string; lastName: string; password: string },
	): Promise<void> {
		const res = await new N8nApi(baseUrl).send('POST', '/rest/owner/setup', {}, owner);
		if (res.status !== 200)
			throw new N8nApiError('POST', '/rest/owner/setup', res.status, res.body);
	}

	/** Which of n8n's APIs manages credentials, workflows and executions for this client. */
	get workflowApi(): WorkflowStore['kind'] {
		return this.store.kind;
	}

	/** The API key, or '' when this client manages workflows through the editor's endpoints. */
	get keyIfAny(): string {
		return this.apiKey ?? '';
	}

	get key(): string {
		if (!this.apiKey) throw new Error('no API key: call connect() or createApiKey() first');
		return this.apiKey;
	}

	async login(email: string, password: string): Promise<void> {
		const res = await request(`${this.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: email, password }),
		});
		const body = await readBody(res.body);
		if (res.statusCode !== 200) throw new N8nApiError('POST', '/rest/login', res.statusCode, body);
		const setCookie = [res.headers['set-cookie'] ?? []].flat();
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (!auth) throw new Error('login answered 200 without an n8n-auth cookie');
		this.cookie = auth.split(';')[0];
	}

	async createApiKey(label: string): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/rest/api-keys/scopes');
		const created = await this.rest<{ rawApiKey: string }>('POST', '/rest/api-keys', {
			label: `${label}-${randomUUID().slice(0, 8)}`,
			expiresAt: null,
			scopes,
		});
		this.apiKey = created.rawApiKey;
		return created.rawApiKey;
	}

	/** Internal REST as the logged-in owner; unwraps n8n's `{ data }` envelope. */
	async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.cookie) throw new Error('not logged in');
		const res = await this.send(method, path, { cookie: this.cookie }, body);
		if (res.status >= 300) throw new N8nApiError(method, path, res.status, res.body);
		return (res.body as { data: T }).data;
	}

	/** Public API under /api/v1 with the API key. */
	async public<T>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await this.send(method, `/api/v1${path}`, { 'x-n8n-api-key': this.key }, body);
		if (res.status >= 300) throw new N8nApiError(method, `/api/v1${path}`, res.status, res.body);
		return res.body as T;
	}

	async send<T = unknown>(
		method: string,
		path: string,
		headers: Record<string, string> = {},
		body?: unknown,
	): Promise<HttpResult<T>> {
		const res = await request(`${this.baseUrl}${path}`, {
			method: method as 'GET',
			headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: res.statusCode, headers: res.headers, body: (await readBody(res.body)) as T };
	}

	// Credentials

	createCredential(type: string, name: string, data: Record<string, unknown>): Promise<Credential> {
		return this.store.createCredential({ type, name, data });
	}

	/** Replaces a saved credential's name and fields, as saving the editor's form does. */
	updateCredential(id: string, credential: CredentialInput): Promise<Credential> {
		return this.store.updateCredential(id, credential);
	}

	deleteCredential(id: string): Promise<void> {
		return this.store.deleteCredential(id);
	}

	/**
	 * What the editor's credential "Test" button does in n8n 2.41: it tests a saved credential,
	 * posting the form's values (secrets still redacted) with the credential id to
	 * POST /rest/credentials/test; CredentialsService.testWithCredentials puts the stored
	 * secrets back (unredact) and runs the credential type's `test` request.
	 */
	async testCredential(id: string): Promise<CredentialTestResult> {
		const form = await this.rest<Credential & { data: Record<string, unknown> }>(
			'GET',
			`/rest/credentials/${id}?includeData=true`,
		);
		return this.rest<CredentialTestResult>('POST', '/rest/credentials/test', {
			credentials: { id: form.id, name: form.name, type: form.type, data: form.data },
		});
	}

	/** Saves `data` as a throw-away credential, tests it like the editor, deletes it. */
	async testCredentialData(
		type: string,
		data: Record<string, unknown>,
	): Promise<CredentialTestResult> {
		const credential = await this.createCredential(type, `test ${randomUUID().slice(0, 8)}`, data);
		try {
			return await this.testCredential(credential.id);
		} finally {
			await this.deleteCredential(credential.id);
		}
	}

	// Loaded types, as the editor fetches them at start-up

	async nodeTypeNames(): Promise<string[]> {
		const res = await this.send<Array<{ name: string }>>('GET', '/types/nodes.json', {
			cookie: this.cookie ?? '',
		});
		if (res.status !== 200) throw new N8nApiError('GET', '/types/nodes.json', res.status, res.body);
		return res.body.map((t) => t.name);
	}

	async credentialTypeNames(): Promise<string[]> {
		const res = await this.send<Array<{ name: string }>>('GET', '/types/credentials.json', {
			cookie: this.cookie ?? '',
		});
		if (res.status !== 200)
			throw new N8nApiError('GET', '/types/credentials.json', res.status, res.body);
		return res.body.map((t) => t.name);
	}

	// Workflows and executions

	createWorkflow(workflow: WorkflowInput): Promise<Workflow> {
		return this.store.createWorkflow({ ...workflow, settings: workflow.settings ?? {} });
	}

	/** Replaces the workflow's name, nodes, connections and settings (its static data stays). */
	updateWorkflow(id: string, workflow: WorkflowInput): Promise<Workflow> {
		return this.store.updateWorkflow(id, { ...workflow, settings: workflow.settings ?? {} });
	}

	activateWorkflow(id: string): Promise<Workflow> {
		return this.store.setActive(id, true);
	}

	/**
	 * n8n 2.x publishes in the background: POST …/activate answers 200 at once, the triggers are
	 * registered afterwards, and a trigger that refuses (its checkExists throws) is tried 5 times
	 * over about 15 s before the editor shows its message (GET …/publication-status, which the
	 * editor reads, then says "failed"). Resolves once the publication is applied; throws
	 * PublicationError with those messages when a trigger refused. n8n 1.x refuses in the
	 * activation request itself (400), so there is nothing to wait for.
	 */
	async awaitPublication(id: string, timeoutMs = 60_000): Promise<void> {
		if (this.store.kind === 'editor') return;
		for (const deadline = Date.now() + timeoutMs; ; await sleep(200)) {
			const { status, triggers } = await this.rest<{
				status: string;
				triggers: Array<{ status: string; errorMessage: string | null }>;
			}>('GET', `/rest/workflows/${id}/publication-status`);
			if (status === 'failed' || status === 'partial') {
				const failed = triggers.filter((trigger) => trigger.status === 'failed');
				throw new PublicationError(
					id,
					failed.map((trigger) => trigger.errorMessage ?? ''),
				);
			}
			if (status !== 'in_progress') return;
			if (Date.now() > deadline)
				throw new Error(`workflow ${id} was still being published after ${timeoutMs} ms`);
		}
	}

	deactivateWorkflow(id: string): Promise<Workflow> {
		return this.store.setActive(id, false);
	}

	/** Retries 409: right after deactivation n8n answers "still being unpublished" for a moment. */
	async deleteWorkflow(id: string, timeoutMs = 10000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			try {
				await this.store.deleteWorkflow(id);
				return;
			} catch (error) {
				if (!(error instanceof N8nApiError && error.status === 409) || Date.now() > deadline)
					throw error;
				await sleep(200);
			}
		}
	}

	listExecutions(workflowId: string, includeData = false): Promise<Execution[]> {
		return this.store.listExecutions(workflowId, includeData);
	}

	getExecution(id: string, includeData = true): Promise<Execution> {
		return this.store.getExecution(id, includeData);
	}

	/** How many of a workflow's executions have `status` (`running`, `waiting`, …): the editor's count. */
	async executionCount(workflowId: string, status: string): Promise<number> {
		const filter = JSON.stringify({ workflowId, status: [status] });
		const query = new URLSearchParams({ filter, limit: '1' });
		return (await this.rest<{ count: number }>('GET', `/rest/executions?${query}`)).count;
	}

	/**
	 * The editor's "Execute workflow" / "Fetch Test Event" from one trigger, through its REST
	 * API; the execution once it has ended. n8n 1.x runs the copy the editor sends (so it is
	 * sent), 2.x the saved workflow.
	 */
	async runManually(
		workflowId: string,
		triggerName: string,
		timeoutMs = 30000,
	): Promise<Execution> {
		const workflowData = await this.rest<unknown>('GET', `/rest/workflows/${workflowId}`);
		const started = await this.rest<{ executionId?: string }>(
			'POST',
			`/rest/workflows/${workflowId}/run`,
			{ workflowData, triggerToStartFrom: { name: triggerName } },
		);
		if (!started.executionId)
			throw new Error(`n8n started no manual run: ${JSON.stringify(started)}`);
		for (const deadline = Date.now() + timeoutMs; ; await sleep(200)) {
			const execution = await this.getExecution(started.executionId, true);
			if (execution.stoppedAt) return execution;
			if (Date.now() > deadline)
				throw new Error(`the manual run did not end within ${timeoutMs} ms`);
		}
	}

	/** Polls until the workflow has at least `count` finished executions (any outcome, not waiting). */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 30000,
	): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const done = (await this.listExecutions(workflowId, true)).filter(hasFinished);
			if (done.length >= count) return done;
			if (Date.now() > deadline) {
				throw new Error(
					`workflow ${workflowId}: ${done.length} of ${count} executions after ${timeoutMs} ms`,
				);
			}
			await sleep(250);
		}
	}

	// Webhook-driven runs: one HTTP POST = one synchronous workflow run

	/**
	 * Creates and activates `Webhook (POST) → nodes…`, answering with the last node's items.
	 * Nodes are chained in order unless `connections` (between the given nodes) is passed.
	 */
	async createWebhookWorkflow(
		nodes: NodeSpec[],
		options: {
			name?: string;
			connections?: WorkflowConnections;
			settings?: Record<string, unknown>;
		} = {},
	): Promise<WebhookWorkflow> {
		const path = randomUUID();
		const webhook = webhookNode(path, { responseData: 'allEntries' });
		if (nodes.length === 0)
			throw new Error('createWebhookWorkflow needs at least one node after the webhook');
		const placed = nodes.map((n, i): WorkflowNode => ({
			...n,
			position: n.position ?? [(i + 1) * 220, 0],
		}));
		const connections = {
			...linearConnections([webhook.name, placed[0].name]),
			...(options.connections ?? linearConnections(placed.map((n) => n.name))),
		};
		const workflow = await this.createWorkflow({
			name: options.name ?? `e2e ${path.slice(0, 8)}`,
			nodes: [webhook, ...placed],
			connections,
			settings: options.settings,
		});
		await this.activateWorkflow(workflow.id);
		const url = `${this.webhookBaseUrl}/webhook/${path}`;
		return {
			workflow,
			url,
			post: <T>(body: unknown) => this.postWebhook<T>(url, body),
			remove: async () => {
				await this.deactivateWorkflow(workflow.id);
				await this.deleteWorkflow(workflow.id);
			},
		};
	}

	/** One-shot: create, activate, POST `input`, delete; returns n8n's answer. */
	async runWebhookWorkflow<T = unknown>(
		nodes: NodeSpec[],
		input: unknown,
		options: Parameters<N8nApi['createWebhookWorkflow']>[1] = {},
	): Promise<HttpResult<T>> {
		const hook = await this.createWebhookWorkflow(nodes, options);
		try {
			return await hook.post<T>(input);
		} finally {
			await hook.remove();
		}
	}

	/** A production webhook can answer 404 for a moment right after activation: retry that only. */
	private async postWebhook<T>(
		url: string,
		body: unknown,
		timeoutMs = 10000,
	): Promise<HttpResult<T>> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await request(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			const parsed = {
				status: res.statusCode,
				headers: res.headers,
				body: (await readBody(res.body)) as T,
			};
			if (parsed.status !== 404 || Date.now() > deadline) return parsed;
			await sleep(200);
		}
	}
}

/** Credentials, workflows and executions: the same operations on either of n8n's APIs. */
interface WorkflowStore {
	readonly kind: 'public' | 'editor';
	createCredential(credential: CredentialInput): Promise<Credential>;
	updateCredential(id: string, credential: CredentialInput): Promise<Credential>;
	deleteCredential(id: string): Promise<void>;
	createWorkflow(workflow: WorkflowInput): Promise<Workflow>;
	updateWorkflow(id: string, workflow: WorkflowInput): Promise<Workflow>;
	setActive(id: string, active: boolean): Promise<Workflow>;
	deleteWorkflow(id: string): Promise<void>;
	listExecutions(workflowId: string, includeData: boolean): Promise<Execution[]>;
	getExecution(id: string, includeData: boolean): Promise<Execution>;
}

/** n8n 2.x: the public API under /api/v1 with the API key. */
class PublicApiStore implements WorkflowStore {
	readonly kind = 'public';

	constructor(private readonly api: N8nApi) {}

	createCredential(credential: CredentialInput): Promise<Credential> {
		return this.api.public<Credential>('POST', '/credentials', credential);
	}

	updateCredential(id: string, credential: CredentialInput): Promise<Credential> {
		return this.api.public<Credential>('PATCH', `/credentials/${id}`, credential);
	}

	async deleteCredential(id: string): Promise<void> {
		await this.api.public('DELETE', `/credentials/${id}`);
	}

	createWorkflow(workflow: WorkflowInput): Promise<Workflow> {
		return this.api.public<Workflow>('POST', '/workflows', workflow);
	}

	updateWorkflow(id: string, workflow: WorkflowInput): Promise<Workflow> {
		return this.api.public<Workflow>('PUT', `/workflows/${id}`, workflow);
	}

	setActive(id: string, active: boolean): Promise<Workflow> {
		return this.api.public<Workflow>(
			'POST',
			`/workflows/${id}/${active ? 'activate' : 'deactivate'}`,
		);
	}

	async deleteWorkflow(id: string): Promise<void> {
		await this.api.public('DELETE', `/workflows/${id}`);
	}

	async listExecutions(workflowId: string, includeData: boolean): Promise<Execution[]> {
		const executions: Execution[] = [];
		let cursor: string | undefined;
		do {
			const query = new URLSearchParams({
				workflowId,
				includeData: String(includeData),
				limit: '250',
			});
			if (cursor) query.set('cursor', cursor);
			const page = await this.api.public<{ data: Execution[]; nextCursor: string | null }>(
				'GET',
				`/executions?${query}`,
			);
			executions.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		return executions;
	}

	getExecution(id: string, includeData: boolean): Promise<Execution> {
		return this.api.public<Execution>('GET', `/executions/${id}?includeData=${includeData}`);
	}
}

/** Every execution status n8n 1.x knows (n8n-workflow's ExecutionStatusList). */
const EXECUTION_STATUSES = [
	'canceled',
	'crashed',
	'error',
	'new',
	'running',
	'success',
	'unknown',
	'waiting',
];

/**
 * n8n 1.x: the editor's REST endpoints with the login cookie. Its public API refuses credentials
 * ("request.body.data does not match allOf schema") and, on SQLite, workflows ("Transaction is not
 * started yet"). Activation goes with the workflow's current versionId; an execution's `data` is
 * stored and served as a `flatted` string.
 */
class EditorApiStore implements WorkflowStore {
	readonly kind = 'editor';

	constructor(private readonly api: N8nApi) {}

	createCredential(credential: CredentialInput): Promise<Credential> {
		return this.api.rest<Credential>('POST', '/rest/credentials', credential);
	}

	updateCredential(id: string, credential: CredentialInput): Promise<Credential> {
		return this.api.rest<Credential>('PATCH', `/rest/credentials/${id}`, credential);
	}

	async deleteCredential(id: string): Promise<void> {
		await this.api.rest('DELETE', `/rest/credentials/${id}`);
	}

	createWorkflow(workflow: WorkflowInput): Promise<Workflow> {
		return this.api.rest<Workflow>('POST', '/rest/workflows', { ...workflow, active: false });
	}

	async updateWorkflow(id: string, workflow: WorkflowInput): Promise<Workflow> {
		const { versionId } = await this.api.rest<{ versionId: string }>(
			'GET',
			`/rest/workflows/${id}`,
		);
		return this.api.rest<Workflow>('PATCH', `/rest/workflows/${id}`, { ...workflow, versionId });
	}

	async setActive(id: string, active: boolean): Promise<Workflow> {
		const { versionId } = await this.api.rest<{ versionId: string }>(
			'GET',
			`/rest/workflows/${id}`,
		);
		return this.api.rest<Workflow>('PATCH', `/rest/workflows/${id}`, { active, versionId });
	}

	/** 1.x deletes only archived workflows (archiving also deactivates). */
	async deleteWorkflow(id: string): Promise<void> {
		await this.api.rest('POST', `/rest/workflows/${id}/archive`);
		await this.api.rest('DELETE', `/rest/workflows/${id}`);
	}

	async listExecutions(workflowId: string, includeData: boolean): Promise<Execution[]> {
		// Pages of at most 100. Naming every status makes 1.x order by id (without a status filter
		// its first page is the newest by start time, which `lastId` cannot continue).
		const filter = JSON.stringify({ workflowId, status: EXECUTION_STATUSES });
		const executions = new Map<string, Execution>();
		for (let lastId: string | undefined; ;) {
			const query = new URLSearchParams({ filter, limit: '100' });
			if (lastId) query.set('lastId', lastId);
			const page = await this.api.rest<{ results: Execution[] }>(
				'GET',
				`/rest/executions?${query}`,
			);
			if (page.results.length === 0) break;
			for (const execution of page.results) executions.set(execution.id, execution);
			lastId = String(Math.min(...page.results.map((execution) => Number(execution.id))));
		}
		const all = [...executions.values()];
		if (!includeData) return all;
		return Promise.all(all.map((execution) => this.getExecution(execution.id, true)));
	}

	async getExecution(id: string, includeData: boolean): Promise<Execution> {
		const execution = await this.api.rest<Execution & { data?: string }>(
			'GET',
			`/rest/executions/${id}`,
		);
		const { data, ...summary } = execution;
		return includeData && data ? { ...summary, data: parseFlatted(data) as unknown } : summary;
	}
}
