/**
 * The agents' data table that the supervision examples (examples/live-pause-alerts-*.json,
 * examples/agent-board.json, examples/supervisor-wallboard.json) read and write. On n8n 2.x each
 * example makes it itself when published (n8n Trigger → Data table "Create", reusing a table of
 * that name) and names it By Name everywhere; n8n 1.x has neither, so there it is made through
 * the editor's REST API as the "Data tables" page does and picked by ID, as the notes' 1.x steps
 * say. Shared by the demo and the tests.
 */
import { randomUUID } from 'node:crypto';

import type { N8nApi, WorkflowInput, WorkflowNode } from './api';
import { sleep } from './dialer';

/** The name the examples give the table. */
export const AGENT_TABLE_NAME = 'dialer_agents';
/** The examples' nodes that make the table when published (n8n 2.x); the 1.x steps delete them. */
export const TABLE_SETUP_NODES = ['When Published', 'Create or Reuse the Table'];
const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';

/** Whether this n8n's Data table node creates tables and names them By Name (2.x; 1.x: no). */
export function workflowsCreateTables(n8nVersion: string): boolean {
	return Number(n8nVersion.split('.')[0]) >= 2;
}

/**
 * A fresh table name for a test's own copy of the examples. n8n's By Name (and Create's reuse)
 * finds a table whose name *contains* the one asked for (SQL LIKE, newest first), so no test name
 * contains another's, nor `dialer_agents`.
 */
export function freshTableName(): string {
	return `agents_${randomUUID().slice(0, 8)}`;
}

/** An n8n data table, as the supervision examples' Data table nodes refer to it. */
export interface DataTableRef {
	name: string;
	/** Made by hand and picked by ID (n8n 1.x, the note's steps); without it, named By Name. */
	id?: string;
}

/**
 * The example pointed at `table`: By Name, its own Create step making that name (2.x); or, for a
 * table made by hand (`id`, n8n 1.x), as the note's 1.x steps say: the Create step deleted and
 * the table picked from the list in every Data table node.
 */
export function pointAtTable(workflow: WorkflowInput, table: DataTableRef): WorkflowInput {
	const byHand = table.id !== undefined;
	const nodes = workflow.nodes
		.filter((node) => !(byHand && TABLE_SETUP_NODES.includes(node.name)))
		.map((node): WorkflowNode => {
			if (node.type !== DATA_TABLE_TYPE) return node;
			if (node.parameters.resource === 'table')
				return { ...node, parameters: { ...node.parameters, tableName: table.name } };
			const dataTableId = byHand
				? { __rl: true, mode: 'list', value: table.id, cachedResultName: table.name }
				: { __rl: true, mode: 'name', value: table.name };
			return { ...node, parameters: { ...node.parameters, dataTableId } };
		});
	const connections = Object.fromEntries(
		Object.entries(workflow.connections).filter(
			([from]) => !(byHand && TABLE_SETUP_NODES.includes(from)),
		),
	);
	return { ...workflow, nodes, connections };
}

/** The columns the examples' yellow notes ask for. */
export const AGENT_TABLE_COLUMNS = [
	{ name: 'agentId', type: 'number' },
	{ name: 'state', type: 'string' },
	{ name: 'lastEvent', type: 'string' },
	{ name: 'lastEventAt', type: 'string' },
	{ name: 'eventOrder', type: 'number' },
	{ name: 'since', type: 'string' },
	{ name: 'pauseId', type: 'string' },
	{ name: 'pauseStartedAt', type: 'string' },
	{ name: 'pauseLimitAt', type: 'string' },
	{ name: 'endsPause', type: 'number' },
	{ name: 'receivedAtMs', type: 'number' },
	{ name: 'receivedBy', type: 'string' },
	{ name: 'receiptNumber', type: 'number' },
] as const;

/** The most rows n8n 1.123 returns for one request (2.41: 250). */
const ROWS_PER_PAGE = 50;

export interface AgentRow {
	id: number;
	agentId: number;
	state: string;
	lastEvent: string;
	lastEventAt: string;
	eventOrder: number;
	since: string;
	pauseId: string | null;
	pauseStartedAt: string | null;
	pauseLimitAt: string | null;
	endsPause: number;
	receivedAtMs: number;
	receivedBy?: string | null;
	receiptNumber?: number | null;
	/** When n8n saved the row (a column of every data table). */
	createdAt: string;
}

/** A data table in the owner's personal project; n8n 1.123 and 2.41 answer the same REST calls. */
export class AgentTable {
	private constructor(
		private readonly api: N8nApi,
		private readonly projectId: string,
		readonly id: string,
		readonly name: string,
	) {}

	/** By hand, as the 1.x note says. Without a name, a fresh one (`freshTableName`). */
	static async create(api: N8nApi, name = freshTableName()): Promise<AgentTable> {
		const { id: projectId } = await api.rest<{ id: string }>('GET', '/rest/projects/personal');
		const table = await api.rest<{ id: string }>(
			'POST',
			`/rest/projects/${projectId}/data-tables`,
			{ name, columns: AGENT_TABLE_COLUMNS },
		);
		return new AgentTable(api, projectId, table.id, name);
	}

	/**
	 * The table of exactly this name, once there is one: what a published example made (it makes
	 * the table in an execution of its own, right after publishing).
	 */
	static async named(api: N8nApi, name: string, timeoutMs = 30_000): Promise<AgentTable> {
		const { id: projectId } = await api.rest<{ id: string }>('GET', '/rest/projects/personal');
		const filter = encodeURIComponent(JSON.stringify({ name }));
		for (const deadline = Date.now() + timeoutMs; ; await sleep(200)) {
			const { data } = await api.rest<{ data: Array<{ id: string; name: string }> }>(
				'GET',
				`/rest/projects/${projectId}/data-tables?filter=${filter}&take=100`,
			);
			const found = data.find((table) => table.name === name);
			if (found) return new AgentTable(api, projectId, found.id, name);
			if (Date.now() > deadline) throw new Error(`no data table "${name}" after ${timeoutMs} ms`);
		}
	}

	/** Every row, in pages: n8n cuts a larger `take` down without saying (1.123 to 50, 2.41 to 250). */
	async rows(): Promise<AgentRow[]> {
		const rows: AgentRow[] = [];
		for (;;) {
			const page = await this.api.rest<{ count: number; data: AgentRow[] }>(
				'GET',
				`/rest/projects/${this.projectId}/data-tables/${this.id}/rows?skip=${rows.length}&take=${ROWS_PER_PAGE}`,
			);
			rows.push(...page.data);
			if (page.data.length === 0 || rows.length >= page.count) return rows;
		}
	}

	/** How many rows the table holds. */
	async count(): Promise<number> {
		const page = await this.api.rest<{ count: number }>(
			'GET',
			`/rest/projects/${this.projectId}/data-tables/${this.id}/rows?skip=0&take=1`,
		);
		return page.count;
	}

	/** The rows n8n saved last, newest first. */
	async newest(count = ROWS_PER_PAGE): Promise<AgentRow[]> {
		const page = await this.api.rest<{ data: AgentRow[] }>(
			'GET',
			`/rest/projects/${this.projectId}/data-tables/${this.id}/rows?skip=0&take=${count}&sortBy=createdAt:desc`,
		);
		return page.data;
	}

	/** Each agent's row with the highest eventOrder: its latest event, as the agent board shows it. */
	async latestByAgent(): Promise<Map<number, AgentRow>> {
		const latest = new Map<number, AgentRow>();
		for (const row of await this.rows()) {
			const known = latest.get(row.agentId);
			if (!known || row.eventOrder > known.eventOrder) latest.set(row.agentId, row);
		}
		return latest;
	}

	/** Adds rows as they are, as the "Data tables" page's import does (a test's many agents at once). */
	async insert(rows: Array<Omit<AgentRow, 'id' | 'createdAt'>>): Promise<void> {
		await this.api.rest('POST', `/rest/projects/${this.projectId}/data-tables/${this.id}/insert`, {
			data: rows,
			returnType: 'count',
		});
	}

	async delete(): Promise<void> {
		await this.api.rest('DELETE', `/rest/projects/${this.projectId}/data-tables/${this.id}`);
	}
}

/** A test's or the demo's table for its copy of the supervision examples. */
export interface ExampleTable {
	/** What `pointAtTable` (and `configureExample`) point the examples at. */
	ref: DataTableRef;
	/** n8n 1.x: the table made by hand, as the note's 1.x steps say (2.x: none). */
	byHand?: AgentTable;
	/** The table, once the published example made it (2.x), or the one made by hand (1.x). */
	made(): Promise<AgentTable>;
	/** Deletes the table if there is one (none when the example was never published). */
	remove(): Promise<void>;
}

/**
 * The table as the examples' notes set it up on this n8n: on 2.x a name the example makes when
 * published (nothing made here); on 1.x made here by hand and picked by ID, the note's 1.x steps.
 */
export async function exampleTable(api: N8nApi, name = freshTableName()): Promise<ExampleTable> {
	const { versionCli } = await api.rest<{ versionCli: string }>('GET', '/rest/settings');
	if (workflowsCreateTables(versionCli)) {
		let table: Promise<AgentTable> | undefined;
		return {
			ref: { name },
			made: () => (table ??= AgentTable.named(api, name)),
			remove: async () => {
				const found = await AgentTable.named(api, name, 0).catch(() => undefined);
				await found?.delete();
			},
		};
	}
	const table = await AgentTable.create(api, name);
	return { ref: table, byHand: table, made: async () => table, remove: () => table.delete() };
}
