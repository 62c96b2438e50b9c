/**
 * The examples that write files default to a folder that works as pasted once it exists:
 * `.n8n-files`, which n8n resolves from its working folder (the home folder in n8n's Docker image,
 * and for `npx n8n` started there), i.e. `~/.n8n-files`, the one folder n8n 2.x lets nodes write to
 * by default. Every file they write goes into that folder, and each note says how to create it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const EXAMPLES = path.join(__dirname, '../../../examples');
const DEFAULT_FOLDER = '.n8n-files';
const FOLDER_EXPRESSION = "={{ $('Settings').first().json.outputFolder }}/";

interface Node {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}

const examples = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file,
		nodes: (JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as { nodes: Node[] }).nodes,
	}))
	.map(({ file, nodes }) => {
		const settings = nodes.find((node) => node.name === 'Settings');
		const { assignments = [] } = (settings?.parameters.assignments ?? {}) as {
			assignments?: Array<{ name: string; value: unknown }>;
		};
		const folder = assignments.find((assignment) => assignment.name === 'outputFolder')?.value;
		const writes = nodes.filter(
			(node) =>
				node.type === 'n8n-nodes-base.readWriteFile' && node.parameters.operation === 'write',
		);
		const note = nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote');
		return { file, folder, writes, note: String(note?.parameters.content ?? '') };
	})
	.filter(({ writes }) => writes.length > 0);

describe.each(examples)('$file', ({ folder, writes, note }) => {
	it(`defaults Settings → outputFolder to ${DEFAULT_FOLDER}`, () => {
		expect(folder).toBe(DEFAULT_FOLDER);
	});

	it('writes every file into that folder', () => {
		for (const write of writes)
			expect(String(write.parameters.fileName).startsWith(FOLDER_EXPRESSION)).toBe(true);
	});

	it('says in its note how to create the folder', () => {
		expect(note).toContain('mkdir -p ~/.n8n-files');
		expect(note).toContain('docker exec n8n mkdir -p /home/node/.n8n-files');
	});
});
