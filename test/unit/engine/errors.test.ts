/**
 * What users see when a run of the Dialer node fails, in n8n's engine in this process
 * (support/inProcessN8n.ts) against the dialer simulator: the error that stops the workflow is a
 * NodeApiError titled with the operation users chose, with the HTTP status and a hint, and never
 * the token; bad input is named before any request; with continue on fail every other item goes
 * on, each failing one carrying its error, in input order. The faults of the connection itself
 * (a reset, a timeout, a redirect, a refused port, a wrong credential, TLS) go through each n8n
 * line's HTTP client and stay in test/e2e/dialer-faults.test.ts, which runs on n8n 1.x too.
 */
import type { Fault } from '../../../harness/simulator/types';
import { InProcessN8n, type InProcessRun, type Json } from '../support/inProcessN8n';

let n8n: InProcessN8n;
const listTeams = { resource: 'team', operation: 'getMany', returnAll: true, filters: {} };

beforeAll(async () => {
	n8n = await InProcessN8n.start();
});

afterAll(async () => {
	await n8n?.close();
});

afterEach(() => n8n.sim.faults.clear());

/** The run stopped with this error, and n8n's record of it holds no token. */
function stoppedWith(run: InProcessRun, message: RegExp): NonNullable<InProcessRun['error']> {
	expect(run.status).toBe('error');
	expect(run.error?.message).toMatch(message);
	expect(JSON.stringify(run.execution)).not.toContain(n8n.token);
	return run.error!;
}

describe('a failed call stops the workflow with a NodeApiError titled with the operation', () => {
	it.each<[string, Fault, RegExp, RegExp]>([
		[
			'a 5xx with a JSON body',
			{ kind: 'status', status: 500 },
			/^Team → Get Many failed \(HTTP 500\): Erro interno do servidor$/,
			/Retry later.*\(API operation: getTime\)/,
		],
		[
			'a 503',
			{ kind: 'status', status: 503 },
			/^Team → Get Many failed \(HTTP 503\)/,
			/Retry later/,
		],
		[
			'a 4xx',
			{ kind: 'status', status: 400 },
			/^Team → Get Many failed \(HTTP 400\)/,
			/Check the parameters/,
		],
		[
			'an HTML error page, without its markup',
			{ kind: 'html', status: 502 },
			/^Team → Get Many failed \(HTTP 502\): (?!.*<)/,
			/Retry later/,
		],
		[
			'a 200 whose body reports failure',
			{ kind: 'errorBody' },
			/^Team → Get Many failed \(HTTP 200\): Falha temporária/,
			/refused the request/,
		],
		[
			'an empty body',
			{ kind: 'empty' },
			/^Team → Get Many failed \(HTTP 200\): empty answer instead of JSON/,
			/unexpected page/,
		],
	])('%s', async (_name, fault, message, hint) => {
		n8n.sim.faults.add({ ...fault, operation: 'getTime' });
		const error = stoppedWith(await n8n.run(listTeams), message);
		expect(error).toMatchObject({ name: 'NodeApiError', node: { name: 'Dialer' } });
		expect(error.description).toMatch(hint);
		// n8n shows the status beside the message, from the error's httpCode.
		const status = /HTTP (\d+)/.exec(error.message)![1];
		expect((error as { httpCode?: string }).httpCode).toBe(status);
	});

	it('an unknown queue, answered as failure by the dialer, names the operation', async () => {
		stoppedWith(
			await n8n.run({
				resource: 'batch',
				operation: 'moveToQueue',
				batch: { __rl: true, mode: 'id', value: String(n8n.sim.data.batches[0].id) },
				queue: 'Fila que não existe',
			}),
			/^Batch → Move to Queue failed/,
		);
	});
});

describe('bad input', () => {
	it('fails before any request, naming the parameter and the fix', async () => {
		const run = await n8n.run({
			resource: 'report',
			operation: 'getFilledForms',
			selectBy: 'fichaIds',
			fichaIds: '10,,12',
			output: 'items',
			returnAll: true,
			filters: {},
		});
		const error = stoppedWith(run, /Ficha IDs: contains an empty entry/);
		expect(error.name).toBe('NodeOperationError');
		expect(error.description).toMatch(/Use IDs separated by commas/);
		expect(run.requests).toHaveLength(0);
	});
});

describe('continue on fail', () => {
	it('keeps every other item and records the error on the failing ones, in input order', async () => {
		const audios = n8n.sim.data.audios.filter((a) => a.ativo).slice(0, 3);
		const input = [
			{ id: String(audios[0].id) },
			{ id: 'not-a-number' },
			{ id: String(audios[1].id) },
			{ id: String(audios[0].id) },
			{ id: String(audios[2].id) },
		];
		const { status, output, items, requests } = await n8n.run(
			{ resource: 'audio', operation: 'deactivate', audioId: '={{ $json.id }}' },
			{ items: input, continueOnFail: true },
		);
		expect(status).toBe('success');
		expect(requests).toHaveLength(4);
		expect(items).toHaveLength(5);
		expect(items[0]).toEqual({ success: true, id: audios[0].id });
		expect(items[1].error).toMatch(/Audio ID: "not-a-number" is not an ID/);
		expect(items[2]).toEqual({ success: true, id: audios[1].id });
		// The same audio twice: the dialer refuses the second deactivation.
		expect(items[3].error).toMatch(/Audio → Deactivate failed \(HTTP 200\)/);
		expect(items[4]).toEqual({ success: true, id: audios[2].id });
		// Each output item is paired with the input item it came from.
		expect(output.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
	});

	it('over 500 items, keeps every item that could succeed and records the error on each failing one', async () => {
		const extensions = n8n.sim.data.extensions.map((extension) => extension.numero);
		// Every 10th item asks the server about a malformed extension (the server refuses it);
		// every 25th has none at all (the node refuses it before sending).
		const input: Json[] = Array.from({ length: 500 }, (_, i) => ({
			extension: i % 25 === 7 ? '' : i % 10 === 3 ? `x${i}` : extensions[i % extensions.length],
		}));
		const { status, items, requests } = await n8n.run(
			{
				resource: 'call',
				operation: 'getActive',
				extension: '={{ $json.extension }}',
				options: { parallelRequests: 8 },
			},
			{ items: input, continueOnFail: true },
		);
		expect(status).toBe('success');
		expect(items).toHaveLength(500);
		const refusedLocally = input.filter((item) => item.extension === '').length;
		expect(requests).toHaveLength(500 - refusedLocally);
		items.forEach((item, i) => {
			const extension = input[i].extension as string;
			if (extension === '') expect(item.error).toMatch(/Extension: is empty/);
			else if (extension.startsWith('x'))
				expect(item.error).toMatch(/Call → Get Active failed \(HTTP 400\)/);
			else expect(item).toMatchObject({ extension, active: expect.any(Boolean) });
		});
		// The simulator answers in this process too: 430 requests took 5 to 9 s on 2 busy cores.
	}, 60_000);
});
