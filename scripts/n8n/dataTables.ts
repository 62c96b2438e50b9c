/**
 * The agents' data table that the supervision examples (examples/live-pause-alerts-*.json,
 * examples/agent-board.json) read and write, made through the editor's REST API as the "Data
 * tables" page does (n8n 1.123 has no public API for data tables). Shared by the demo and the tests.
 */
import { randomUUID } from 'node:crypto';

import type { N8nApi } from './api';

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

	/** Without a name, a fresh one (dialer_agents_<8 hex>) so several tables can live in one n8n. */
	static async create(
		api: N8nApi,
		name = `dialer_agents_${randomUUID().slice(0, 8)}`,
	): Promise<AgentTable> {
		const { id: projectId } = await api.rest<{ id: string }>('GET', '/rest/projects/personal');
		const table = await api.rest<{ id: string }>(
			'POST',
			`/rest/projects/${projectId}/data-tables`,
			{ name, columns: AGENT_TABLE_COLUMNS },
		);
		return new AgentTable(api, projectId, table.id, name);
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
