/**
 * The Dialer node inside a real n8n against the dialer simulator, for what only a whole n8n
 * shows: n8n's own Extract from File node reading the CSV file the node stored in n8n's binary
 * data, and the batch and team pickers loaded through n8n's REST API as the editor loads them.
 * Every operation's request and items, the errors, continue on fail and the header styles run in
 * n8n's engine in process: test/unit/engine/.
 */
import type { RecordedRequest } from '../../harness/simulator/types';
import { DialerRunner, type Json, type RunOptions } from './support/dialerRunner';

let dialer: DialerRunner;
const run = (parameters: Json, options?: RunOptions) => dialer.run(parameters, options);

function only(requests: RecordedRequest[], operation: string): RecordedRequest {
	expect(requests.map((r) => r.operation)).toEqual([operation]);
	const [sent] = requests;
	expect(sent.method).toBe('POST');
	expect(sent.path).toBe(`/${sim.pathSegment}/api/${operation}`);
	expect(sent.contentType).toBe('application/x-www-form-urlencoded');
	expect(sent.headers.authorization).toBe(TOKEN);
	return sent;
}

let sim: DialerRunner['sim'];
let TOKEN: string;

beforeAll(async () => {
	dialer = await DialerRunner.start({ timezone: 'America/Sao_Paulo' });
	sim = dialer.sim;
	TOKEN = dialer.token;
});

afterAll(async () => {
	await dialer?.close();
});

describe("n8n's own nodes read the node's files", () => {
	it('Report → Get Filled Forms by ficha IDs, as a CSV file that Extract from File reads', async () => {
		const fichas = sim.data.fichas.filter((f) => f.formId === sim.data.forms[0].id).slice(0, 4);
		const ids = `${fichas[0].id},${fichas[1].id}, ${fichas[2].id}-${fichas[2].id}`;
		const { items, requests } = await run(
			{
				resource: 'report',
				operation: 'getFilledForms',
				selectBy: 'fichaIds',
				fichaIds: ids,
				output: 'csvFile',
				binaryPropertyName: 'data',
				filters: {},
			},
			{
				after: [
					{
						name: 'Extract from File',
						type: 'n8n-nodes-base.extractFromFile',
						typeVersion: 1.1,
						parameters: {
							operation: 'csv',
							binaryPropertyName: 'data',
							options: { delimiter: ';' },
						},
					},
				],
			},
		);
		expect(only(requests, 'getFP1').fields).toEqual({
			fichaId: `${fichas[0].id},${fichas[1].id},${fichas[2].id}-${fichas[2].id}`,
			formato: 'csv',
		});
		expect(items).toHaveLength(3);
		const columns = Object.keys(items[0]);
		expect(columns.some((c) => c.endsWith('[F]'))).toBe(true);
		expect(columns.some((c) => c.endsWith('[P]'))).toBe(true);
	});
});

describe('pickers load batches and teams from the dialer, as the editor does', () => {
	async function search(
		methodName: string,
		filter?: string,
	): Promise<Array<{ name: string; value: string }>> {
		const { results } = await dialer.api.rest<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/rest/dynamic-node-parameters/resource-locator-results',
			{
				methodName,
				filter,
				path: 'parameters.batch',
				nodeTypeAndVersion: { name: 'n8n-nodes-dialer.dialer', version: 1 },
				currentNodeParameters: { resource: 'batch', operation: 'moveToQueue' },
				credentials: { dialerApi: { id: dialer.credential.id, name: dialer.credential.name } },
			},
		);
		return results;
	}

	it('lists every active batch by name with its ID as the value', async () => {
		const active = sim.data.batches.filter((b) => b.ativo);
		const results = await search('searchBatches');
		expect(results.map((r) => r.value).sort()).toEqual(active.map((b) => String(b.id)).sort());
		const first = active[0];
		expect(results).toContainEqual({
			name: `${first.descricao} (${first.id})`,
			value: String(first.id),
		});
	});

	it('narrows the team list to what the user types', async () => {
		const team = sim.data.teams[0];
		const typed = team.nome.slice(0, 4).toUpperCase();
		const results = await search('searchTeams', typed);
		expect(results.length).toBeGreaterThan(0);
		expect(results).toContainEqual({ name: `${team.nome} (${team.id})`, value: String(team.id) });
		for (const result of results) expect(result.name.toLowerCase()).toContain(typed.toLowerCase());
	});
});
