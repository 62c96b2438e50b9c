/**
 * The supervision examples make their data table themselves on n8n 2.x (an n8n Trigger on
 * publishing → Data table "Create" reusing a table of that name) and name it By Name everywhere;
 * their notes give the exact 1.x steps. What n8n does with these settings is tried in the real
 * n8n by test/browser/supervision-setup.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
	AGENT_TABLE_COLUMNS,
	AGENT_TABLE_NAME,
	TABLE_SETUP_NODES,
} from '../../../harness/n8n/dataTables';

const EXAMPLES = path.join(__dirname, '../../../examples');
const SUPERVISION = [
	'live-pause-alerts-to-file.json',
	'live-pause-alerts-slack.json',
	'agent-board.json',
	'supervisor-wallboard.json',
];

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	retryOnFail?: boolean;
	waitBetweenTries?: number;
	parameters: Record<string, unknown>;
}
interface Example {
	nodes: Node[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const read = (file: string) =>
	JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Example;
const [PUBLISHED, CREATE] = TABLE_SETUP_NODES;

describe.each(SUPERVISION)('%s', (file) => {
	const example = read(file);
	const node = (name: string) => example.nodes.find((candidate) => candidate.name === name)!;
	const dataTables = example.nodes.filter(
		(candidate) => candidate.type === 'n8n-nodes-base.dataTable',
	);
	const note = String(
		example.nodes.find((candidate) => candidate.type === 'n8n-nodes-base.stickyNote')!.parameters
			.content,
	);

	it('makes the table when published, republished or n8n starts, then reuses it', () => {
		expect(node(PUBLISHED)).toMatchObject({
			type: 'n8n-nodes-base.n8nTrigger',
			typeVersion: 1,
			parameters: { events: ['activate', 'update', 'init'] },
		});
		expect(example.connections[PUBLISHED].main).toEqual([
			[expect.objectContaining({ node: CREATE })],
		]);
		// Version 1, which n8n 1.x knows (it shows a 1.1 node as "not installed"); 2.x's version 1
		// has the Table resource too. "Reuse Existing Tables" set: n8n leaves an option out of the
		// run unless it is in the parameters, whatever its default in the panel.
		expect(node(CREATE)).toMatchObject({
			type: 'n8n-nodes-base.dataTable',
			typeVersion: 1,
			retryOnFail: true,
			parameters: {
				resource: 'table',
				operation: 'create',
				tableName: AGENT_TABLE_NAME,
				columns: { column: AGENT_TABLE_COLUMNS.map(({ name, type }) => ({ name, type })) },
				options: { createIfNotExists: true },
			},
		});
	});

	it('names the table By Name in every other Data table node', () => {
		const rows = dataTables.filter((candidate) => candidate.name !== CREATE);
		expect(rows.length).toBeGreaterThan(0);
		for (const candidate of rows) {
			expect({
				node: candidate.name,
				version: candidate.typeVersion,
				table: candidate.parameters.dataTableId,
			}).toEqual({
				node: candidate.name,
				version: 1,
				table: { __rl: true, mode: 'name', value: AGENT_TABLE_NAME },
			});
		}
	});

	it("gives the 1.x steps: the nodes to delete, the table's columns with their types, the nodes to point at it", () => {
		const numbers = AGENT_TABLE_COLUMNS.filter(({ type }) => type === 'number').map(
			({ name }) => `\`${name}\``,
		);
		const strings = AGENT_TABLE_COLUMNS.filter(({ type }) => type === 'string').map(
			({ name }) => `\`${name}\``,
		);
		expect(note).toContain(`delete **${PUBLISHED}** and **${CREATE}**`);
		expect(note).toContain(`the number columns ${numbers.join(', ')}`);
		expect(note).toContain(`the string columns ${strings.join(', ')}`);
		expect(note).toMatch(/choose From list → `dialer_agents`/);
	});

	it('keeps its note short: about 10 lines, no dates or measured figures', () => {
		expect(note.split('\n').length).toBeLessThanOrEqual(12);
		expect(note).not.toMatch(/\b20\d\d-\d\d-\d\d\b|\d+ ?(ms|%)\b|\/s\b/);
	});
});

describe('the live alerts', () => {
	it.each(SUPERVISION.slice(0, 2))(
		'%s: saves an event that comes before the table is made, a second later',
		(file) => {
			const save = read(file).nodes.find((candidate) => candidate.name === 'Save the Event')!;
			expect(save).toMatchObject({ retryOnFail: true, waitBetweenTries: 1000 });
		},
	);
});
