/**
 * The supervision examples (examples/live-pause-alerts-*.json, examples/agent-board.json) in the
 * e2e run's n8n: the example workflows configured as a user does after importing them (agents'
 * table from harness/n8n/dataTables.ts), and the files they write under n8n's allowed folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { configureExample, type WallboardCredentials } from '../../../harness/demo';
import type { Credential, WorkflowInput } from '../../../harness/n8n/api';
import type { DataTableRef } from '../../../harness/n8n/dataTables';

export {
	AGENT_TABLE_COLUMNS,
	AgentTable,
	exampleTable,
	type AgentRow,
} from '../../../harness/n8n/dataTables';

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
 * What a user does after importing an example (the demo's configuration: credential, data table,
 * output folder, the wallboard's login), with fresh webhook IDs and name so several copies can be
 * active in one n8n.
 */
export function configureSupervisionExample(
	workflow: WorkflowInput,
	setup: {
		credential: Credential;
		/** By name (made when published, 2.x) or an AgentTable made by hand (1.x). */
		table: DataTableRef;
		outputFolder: string;
		wallboard?: WallboardCredentials;
	},
): WorkflowInput {
	const configured = configureExample(
		workflow,
		setup.credential,
		setup.outputFolder,
		setup.table,
		setup.wallboard,
	);
	return {
		...configured,
		name: `${workflow.name} ${randomUUID().slice(0, 8)}`,
		nodes: configured.nodes.map((node) =>
			node.webhookId ? { ...node, webhookId: randomUUID() } : node,
		),
	};
}
