/**
 * The supervision examples (examples/live-pause-alerts-*.json, examples/agent-board.json) in the
 * e2e run's n8n: the example workflows configured as a user does after importing them (agents'
 * table from scripts/n8n/dataTables.ts), and the files they write under n8n's allowed folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { Credential, WorkflowInput, WorkflowNode } from '../../../scripts/n8n/api';
import type { AgentTable } from '../../../scripts/n8n/dataTables';

export { AGENT_TABLE_COLUMNS, AgentTable, type AgentRow } from '../../../scripts/n8n/dataTables';

const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';
const TRIGGER_TYPE = 'n8n-nodes-dialer.dialerTrigger';

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
