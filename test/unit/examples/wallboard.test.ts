/**
 * The wallboard's data request (examples/supervisor-wallboard.json, "Newest State per Agent"): its
 * expressions, taken from the file, over the rows "Rows Since Last Read" gives. The page in a
 * browser runs in test/browser/wallboard.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DateTime } from 'luxon';

interface Row {
	id: number;
	agentId: number;
	eventOrder: number;
	state: string;
}

const { nodes } = JSON.parse(
	readFileSync(path.resolve(__dirname, '../../../examples/supervisor-wallboard.json'), 'utf8'),
) as { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
const assignments = (
	nodes.find((node) => node.name === 'Newest State per Agent')!.parameters.assignments as {
		assignments: Array<{ name: string; value: string }>;
	}
).assignments;

/** One field of the answer, computed as n8n would from the rows read and the request's afterId. */
function field(name: string, rows: Row[], afterId?: string): unknown {
	const source = /^=\{\{([\s\S]*)\}\}$/.exec(assignments.find((a) => a.name === name)!.value)![1];
	const nodeOutput: Record<string, Array<{ json: object }>> = {
		'Rows Since Last Read': rows.length ? rows.map((json) => ({ json })) : [{ json: {} }],
		'Wallboard Data': [{ json: { query: afterId === undefined ? {} : { afterId } } }],
	};
	const $ = (node: string) => ({
		all: () => nodeOutput[node],
		first: () => nodeOutput[node][0],
	});
	return new Function('$', '$now', `return (${source});`)($, DateTime.now());
}

const row = (id: number, agentId: number, eventOrder: number, state = 'online'): Row => ({
	id,
	agentId,
	eventOrder,
	state,
});

describe("the wallboard's data", () => {
	it("lists each agent's newest row by the dialer's time, not by when it was saved", () => {
		const rows = [row(1, 7, 100, 'busy'), row(2, 7, 90, 'paused'), row(3, 5, 80)];
		expect(field('agents', rows)).toEqual([
			expect.objectContaining({ agentId: 5, eventOrder: 80, state: 'online' }),
			expect.objectContaining({ agentId: 7, eventOrder: 100, state: 'busy' }),
		]);
	});

	it('answers the highest row id read, or the afterId asked when nothing is new', () => {
		expect(field('lastId', [row(41, 1, 10), row(43, 2, 10), row(42, 3, 10)], '40')).toBe(43);
		expect(field('lastId', [], '40')).toBe(40);
		expect(field('agents', [], '40')).toEqual([]);
	});

	it('says when the reading was full (1000 rows, the most one request reads) so the page asks again at once', () => {
		const rows = (count: number) => Array.from({ length: count }, (_, i) => row(i + 1, i % 30, i));
		expect(field('more', rows(1000))).toBe(true);
		expect(field('more', rows(999))).toBe(false);
		expect(field('more', [])).toBe(false);
	});

	it('reads a missing or malformed afterId as 0', () => {
		for (const afterId of [undefined, '', 'abc', '-5'])
			expect(field('lastId', [], afterId)).toBe(0);
		expect(field('lastId', [], '12.7')).toBe(12);
	});

	it('takes in 200,000 rows at once without overflowing the stack', () => {
		const rows = Array.from({ length: 200_000 }, (_, i) => row(i + 1, i % 300, 1000 + i));
		expect(field('lastId', rows)).toBe(200_000);
		expect((field('agents', rows) as unknown[]).length).toBe(300);
	});
});
