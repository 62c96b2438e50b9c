/**
 * The supervision examples (examples/live-pause-alerts-*.json, examples/agent-board.json) in the
 * e2e run's n8n: the agents' data table, made through the editor's REST API as the "Data tables"
 * page does (n8n 1.123 has no public API for it), the example workflows configured as a user does
 * after importing them, and the files they write under n8n's allowed folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { Credential, N8nApi, WorkflowInput, WorkflowNode } from '../../../scripts/n8n/api';

const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';
const TRIGGER_TYPE = 'n8n-nodes-dialer.dialerTrigger';

/** The columns the examples' yellow notes ask for. */
export const AGENT_TABLE_COLUMNS = [
	{ name: 'agentId', type: 'number' },
	{ name: 'state', type: 'string' },
	{ name: 'lastEvent', type: 'string' },
	{ name: 'lastEventAt', type: 'string' },
	{ name: 'since', type: 'string' },
	{ name: 'pauseId', type: 'string' },
	{ name: 'pauseStartedAt', type: 'string' },
	{ name: 'pauseLimitAt', type: 'string' },
] as const;

export interface AgentRow {
	id: number;
	agentId: number;
	state: string;
	lastEvent: string;
	lastEventAt: string;
	since: string;
	pauseId: string | null;
	pauseStartedAt: string | null;
	pauseLimitAt: string | null;
}

/** A data table in the owner's personal project; n8n 1.123 and 2.41 answer the same REST calls. */
export class AgentTable {
	private constructor(
		private readonly api: N8nApi,
		private readonly projectId: string,
		readonly id: string,
		readonly name: string,
	) {}

	static async create(api: N8nApi): Promise<AgentTable> {
		const { id: projectId } = await api.rest<{ id: string }>('GET', '/rest/projects/personal');
		const name = `dialer_agents_${randomUUID().slice(0, 8)}`;
		const table = await api.rest<{ id: string }>(
			'POST',
			`/rest/projects/${projectId}/data-tables`,
			{ name, columns: AGENT_TABLE_COLUMNS },
		);
		return new AgentTable(api, projectId, table.id, name);
	}

	async rows(): Promise<AgentRow[]> {
		const page = await this.api.rest<{ count: number; data: AgentRow[] }>(
			'GET',
			`/rest/projects/${this.projectId}/data-tables/${this.id}/rows?skip=0&take=1000`,
		);
		return page.data;
	}

	async delete(): Promise<void> {
		await this.api.rest('DELETE', `/rest/projects/${this.projectId}/data-tables/${this.id}`);
	}
}

/**
 * A folder the examples may write to: n8n 2.x lets nodes write only under
 * N8N_RESTRICT_FILE_ACCESS_TO, by default ~/.n8n-files (the e2e n8n shares this HOME).
 */
export async function makeOutputFolder(): Promise<string> {
	const folder = path.join(os.homedir(), '.n8n-files', `dialer-e2e-${randomUUID().slice(0, 8)}`);
	await mkdir(folder, { recursive: true });
	return folder;
}

export function removeOutputFolder(folder: string): Promise<void> {
	return rm(folder, { recursive: true, force: true });
}

export async function readLines(file: string): Promise<string[]> {
	try {
		return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
}

/**
 * What a user does after importing an example: pick the credential and the data table, set the
 * output folder. Webhook IDs are made fresh so several copies can be active in one n8n.
 */
export function configureSupervisionExample(
	workflow: WorkflowInput,
	setup: { credential: Credential; table: AgentTable; outputFolder: string },
): WorkflowInput {
	const nodes = workflow.nodes.map((node): WorkflowNode => {
		const configured: WorkflowNode = structuredClone(node);
		if (configured.webhookId) configured.webhookId = randomUUID();
		if (node.type === TRIGGER_TYPE) {
			configured.credentials = {
				dialerApi: { id: setup.credential.id, name: setup.credential.name },
			};
		}
		if (node.type === DATA_TABLE_TYPE) {
			configured.parameters.dataTableId = {
				__rl: true,
				mode: 'list',
				value: setup.table.id,
				cachedResultName: setup.table.name,
			};
		}
		if (node.name === 'Settings') {
			const { assignments } = configured.parameters.assignments as {
				assignments: Array<{ name: string; value: unknown }>;
			};
			for (const assignment of assignments) {
				if (assignment.name === 'outputFolder') assignment.value = setup.outputFolder;
			}
		}
		return configured;
	});
	return { ...workflow, name: `${workflow.name} ${randomUUID().slice(0, 8)}`, nodes };
}
