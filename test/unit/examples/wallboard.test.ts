/**
 * The wallboard's data request (examples/supervisor-wallboard.json): what "Rows Since Last Read"
 * asks the table for and what "Newest State per Agent" answers from the rows it gives, both
 * evaluated from the file by n8n-workflow's own expression evaluator as n8n runs them. The page in
 * a browser runs in test/browser/wallboard.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { ExampleExpressions } from '../support/exampleExpressions';

interface Row {
	id: number;
	agentId: number;
	eventOrder: number;
	state: string;
	[field: string]: IDataObject[string];
}

const wallboard = new ExampleExpressions('supervisor-wallboard.json');
const nodeNamed = (name: string) => wallboard.node(name);
const READ = 'Rows Since Last Read';
const SAVED_LATE = 'Rows Saved Late';
const ANSWER = 'Newest State per Agent';
const REQUEST = 'Wallboard Data';

/** The page's request: its query string as the Webhook node gives it. */
const request = (since?: string, before?: string, savedSince?: string): IDataObject[] => [
	{
		query: {
			...(since === undefined ? {} : { since }),
			...(before === undefined ? {} : { before }),
			...(savedSince === undefined ? {} : { savedSince }),
		},
	},
];

/** An expression of the example evaluated by n8n-workflow in `node`, after these nodes ran. */
function evaluate(
	node: string,
	expression: string,
	input: IDataObject[],
	ran: Record<string, IDataObject[]>,
): unknown {
	return wallboard.evaluate(node, expression, input, ran);
}

/** The conditions a Data table node reads with, valued for the page's request. */
function conditionsOf(node: string, asked: IDataObject[]): unknown[] {
	const { conditions } = nodeNamed(node).parameters.filters as {
		conditions: Array<{ keyName: string; condition: string; keyValue: string }>;
	};
	return conditions.map(({ keyName, condition, keyValue }) => [
		keyName,
		condition,
		evaluate(node, keyValue, asked, { [REQUEST]: asked }),
	]);
}

/** The conditions "Rows Since Last Read" reads with, valued for the page's request. */
const readWith = (since?: string, before?: string) => conditionsOf(READ, request(since, before));

/** A Data table node's output: the rows, or one empty item for none (as n8n gives it). */
const output = (rows: Row[]): IDataObject[] =>
	rows.length ? rows.map((json) => ({ ...json })) : [{}];

/** One field of the answer, from the rows read in the window and those saved late. */
function field(name: string, rows: Row[], since?: string, savedLate: Row[] = []): unknown {
	const { assignments } = nodeNamed(ANSWER).parameters.assignments as {
		assignments: Array<{ name: string; value: string }>;
	};
	return evaluate(ANSWER, assignments.find((a) => a.name === name)!.value, output(savedLate), {
		[REQUEST]: request(since),
		[READ]: output(rows),
		[SAVED_LATE]: output(savedLate),
	});
}

const row = (
	id: number,
	agentId: number,
	eventOrder: number,
	state = 'online',
	fields: IDataObject = {},
): Row => ({ id, agentId, eventOrder, state, ...fields });

describe("the wallboard's data", () => {
	it("reads the rows of the page's window by the table's own eventOrder column, 1000 at most", () => {
		expect(nodeNamed(READ).parameters.limit).toBe(1000);
		expect(readWith('17701234561', '17701239000')).toEqual([
			['eventOrder', 'gte', 17701234561],
			['eventOrder', 'lt', 17701239000],
		]);
	});

	it('reads from the first row without a since, and to the last without a before', () => {
		for (const since of [undefined, '', 'abc', '-5'])
			expect(readWith(since)).toEqual([
				['eventOrder', 'gte', 0],
				['eventOrder', 'lt', Number.MAX_SAFE_INTEGER],
			]);
		expect(readWith('10', '0')[1]).toEqual(['eventOrder', 'lt', Number.MAX_SAFE_INTEGER]);
	});

	it("lists each agent's newest row by the dialer's time, not by when it was saved", () => {
		const rows = [row(1, 7, 100, 'busy'), row(2, 7, 90, 'paused'), row(3, 5, 80)];
		expect(field('agents', rows)).toEqual([
			expect.objectContaining({ agentId: 5, eventOrder: 80, state: 'online' }),
			expect.objectContaining({ agentId: 7, eventOrder: 100, state: 'busy' }),
		]);
	});

	it('also reads every row saved since the time the page asks, older than its window', () => {
		const savedSince = '2026-12-02T10:00:00.000Z';
		const [since, older] = conditionsOf(
			SAVED_LATE,
			request('5000', undefined, savedSince),
		) as Array<[string, string, unknown]>;
		expect([since[0], since[1], Date.parse(String(since[2]))]).toEqual([
			'createdAt',
			'gte',
			Date.parse(savedSince),
		]);
		expect(older).toEqual(['eventOrder', 'lt', 5000]);
		// A first reading asks for no time: the window is the whole table, nothing more is read.
		const [first] = conditionsOf(SAVED_LATE, request('0')) as Array<[string, string, unknown]>;
		expect(Date.parse(String(first[2]))).toBeGreaterThan(Date.now());
		expect(nodeNamed(SAVED_LATE)).toMatchObject({ executeOnce: true, alwaysOutputData: true });
	});

	it('lists an agent whose newest row was saved late beside those of the window', () => {
		const window = [row(1, 7, 5100, 'busy')];
		const savedLate = [row(2, 5, 4000, 'paused'), row(3, 7, 4100, 'online')];
		expect(field('agents', window, '5000', savedLate)).toEqual([
			expect.objectContaining({ agentId: 5, eventOrder: 4000, state: 'paused' }),
			expect.objectContaining({ agentId: 7, eventOrder: 5100, state: 'busy' }),
		]);
		expect(field('lastOrder', window, '5000', savedLate)).toBe(5100);
	});

	it("gives each agent's newest row that began or ended a pause, so a call inside a pause shows as one", () => {
		const pause = { lastEvent: 'agente.pause_in', endsPause: 1, pauseId: '2' };
		const rows = [
			row(1, 7, 100, 'paused', pause),
			row(2, 7, 120, 'busy', { lastEvent: 'agente.busy', endsPause: 0 }),
			row(3, 5, 80, 'online', { lastEvent: 'agente.online', endsPause: 0 }),
		];
		expect(field('agents', rows)).toEqual([
			expect.objectContaining({ agentId: 5, state: 'online', edge: null }),
			expect.objectContaining({
				agentId: 7,
				eventOrder: 120,
				state: 'busy',
				edge: expect.objectContaining({
					eventOrder: 100,
					lastEvent: 'agente.pause_in',
					pauseId: '2',
				}),
			}),
		]);
	});

	it('answers the highest eventOrder read, or the since asked when nothing is new', () => {
		const rows = [row(41, 1, 1002), row(43, 2, 1011), row(42, 3, 1005)];
		expect(field('lastOrder', rows, '1000')).toBe(1011);
		expect(field('lastOrder', [], '1000')).toBe(1000);
		expect(field('lastOrder', [], 'abc')).toBe(0);
		expect(field('agents', [], '1000')).toEqual([]);
	});

	it('says when the window was full (1000 rows, the most one request reads) so the page asks a narrower one', () => {
		const rows = (count: number) => Array.from({ length: count }, (_, i) => row(i + 1, i % 30, i));
		expect(field('more', rows(1000))).toBe(true);
		expect(field('more', rows(999))).toBe(false);
		expect(field('more', [])).toBe(false);
		expect(field('rows', rows(999))).toBe(999);
		expect(field('rows', [])).toBe(0);
	});

	it('answers the middle eventOrder of the rows read, in whatever order n8n gave them', () => {
		const rows = [row(1, 1, 50), row(2, 2, 10), row(3, 3, 40), row(4, 4, 20), row(5, 5, 30)];
		expect(field('middleOrder', rows)).toBe(30);
		expect(field('middleOrder', [])).toBeNull();
	});

	it('takes in 200,000 rows at once without overflowing the stack', () => {
		const rows = Array.from({ length: 200_000 }, (_, i) => row(i + 1, i % 300, 1000 + i));
		expect(field('lastOrder', rows)).toBe(200_999);
		expect((field('agents', rows) as unknown[]).length).toBe(300);
		expect(field('middleOrder', rows)).toBe(101_000);
	});
});
