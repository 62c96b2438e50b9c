import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { router } from '../../../nodes/Dialer/actions/router';
import { fakeExecuteFunctions, runNode } from '../support/executeFunctions';

describe('choosing the operation', () => {
	it.each([
		['report', 'getRE2'],
		['reports', 'getInboundCalls'],
		['report', 'constructor'],
		['toString', 'getInboundCalls'],
	])(
		'refuses resource "%s" with operation "%s", naming both, before sending',
		async (resource, operation) => {
			const { context, sent } = fakeExecuteFunctions({
				parameters: { resource, operation, returnAll: true, filters: {} },
			});
			const error = await router.call(context).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as NodeOperationError).message).toBe(
				`The operation "${operation}" of resource "${resource}" is not supported`,
			);
			expect(sent).toHaveLength(0);
		},
	);
});

describe('many items and continue on fail', () => {
	const items = Array.from({ length: 5 }, (_, i) => ({
		json: { audio: i === 2 ? 'x' : String(i + 1) },
	}));
	const parameters = {
		resource: 'audio',
		operation: 'deactivate',
		audioId: (i: number) => items[i].json.audio,
	};

	it('keeps every other item and records the error on the failing one', async () => {
		const { items: output, sent } = await runNode({
			items,
			continueOnFail: true,
			parameters,
			responses: [
				{ body: { data: { id: 1 } } },
				{ body: { data: { id: 2 } } },
				{ status: 500, body: { message: 'boom' } },
				{ body: { data: { id: 5 } } },
			],
		});
		expect(output).toHaveLength(5);
		expect(output.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		expect(output[2].json.error).toMatch(/Audio ID: "x" is not an ID/);
		expect(output[3].json.error).toBe('Audio → Deactivate failed (HTTP 500): boom');
		expect(output[3].json.description).toMatch(/Retry later.*\(API operation: desativarAudio\)$/);
		expect(output[4].json).toEqual({ success: true, id: 5 });
		expect(sent).toHaveLength(4);
	});

	it('stops at the first failure without continue on fail, pointing at the item', async () => {
		const { context } = fakeExecuteFunctions({
			items,
			parameters,
			responses: [{ body: { data: { id: 1 } } }],
		});
		const error = (await router
			.call(context)
			.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.context.itemIndex).toBe(2);
	});

	it('sends items one after the other by default, and up to Parallel Requests at once when set', async () => {
		const many = Array.from({ length: 12 }, (_, i) => ({ json: { audio: String(i + 1) } }));
		const audioId = (i: number) => many[i].json.audio;
		// Later items answer sooner, so order would break if output followed completion.
		const responses = many.map((_, i) => ({
			body: { data: { id: i + 1 } },
			delayTurns: 24 - 2 * i,
		}));

		const sequential = fakeExecuteFunctions({
			items: many,
			parameters: { resource: 'audio', operation: 'deactivate', audioId },
			responses,
		});
		const [inOrder] = await router.call(sequential.context);
		expect(sequential.load.maxInFlight).toBe(1);
		expect(inOrder.map((item) => item.json.id)).toEqual(many.map((_, i) => i + 1));

		const parallel = fakeExecuteFunctions({
			items: many,
			parameters: {
				resource: 'audio',
				operation: 'deactivate',
				audioId,
				options: { parallelRequests: 4 },
			},
			responses,
		});
		const [output] = await router.call(parallel.context);
		expect(parallel.load.maxInFlight).toBe(4);
		expect(output.map((item) => item.json.id)).toEqual(many.map((_, i) => i + 1));
		expect(output.map((item) => item.pairedItem)).toEqual(many.map((_, item) => ({ item })));
	});

	it('stops taking new items after a failure when running in parallel, and reports the first failing item', async () => {
		const many = Array.from({ length: 20 }, (_, i) => ({
			json: { audio: i === 5 || i === 3 ? 'bad' : String(i + 1) },
		}));
		const { context, sent } = fakeExecuteFunctions({
			items: many,
			parameters: {
				resource: 'audio',
				operation: 'deactivate',
				audioId: (i: number) => many[i].json.audio,
				options: { parallelRequests: 3 },
			},
			responses: [{ body: { data: { id: 1 } }, delayTurns: 5 }],
		});
		const error = (await router
			.call(context)
			.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error.context.itemIndex).toBe(3);
		expect(sent.length).toBeLessThan(many.length - 2);
	});

	it('uses Options → Timeout for its requests, and the operation default without it', async () => {
		const withOption = fakeExecuteFunctions({
			parameters: {
				resource: 'audio',
				operation: 'deactivate',
				audioId: '1',
				options: { timeout: 1500 },
			},
		});
		await router.call(withOption.context);
		expect(withOption.sent[0].options.timeout).toBe(1500);
		const report = fakeExecuteFunctions({
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				period: 'today',
				returnAll: true,
				filters: {},
			},
			responses: [{ body: { data: { resultado: [] } } }],
		});
		await router.call(report.context);
		expect(report.sent[0].options.timeout).toBe(300_000);
	});

	// n8n does not convert an expression's text to a number for a collection's option.
	it.each(['1500', ' 1500 '])(
		'uses an Options → Timeout an expression gives as %p',
		async (timeout) => {
			const { context, sent } = fakeExecuteFunctions({
				parameters: {
					resource: 'audio',
					operation: 'deactivate',
					audioId: '1',
					options: { timeout },
				},
			});
			await router.call(context);
			expect(sent[0].options.timeout).toBe(1500);
		},
	);

	// Node's timers take at most 2^31 - 1 ms; a longer one fires at once (and AbortSignal.timeout
	// refuses one past 2^32 - 1), so the request would fail at its first wait.
	it('waits for a report when Options → Timeout is longer than timers take (9999999999 ms)', async () => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: {
				resource: 'report',
				operation: 'getInboundCalls',
				period: 'today',
				returnAll: true,
				filters: {},
				options: { timeout: 9_999_999_999 },
			},
			responses: [{ body: { data: { resultado: [] } } }],
		});
		await expect(router.call(context)).resolves.toEqual([[]]);
		expect(sent.map((request) => request.options.timeout)).toEqual([2_147_483_647]);
	});

	it('keeps server errors as NodeApiError with the HTTP status', async () => {
		const { context } = fakeExecuteFunctions({
			parameters: { ...parameters, audioId: '9' },
			responses: [{ status: 503, body: '' }],
		});
		const error = (await router.call(context).catch((caught: unknown) => caught)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('503');
		expect(error.message).toBe('Audio → Deactivate failed (HTTP 503): empty answer');
		expect(error.description).toMatch(/\(API operation: desativarAudio\)$/);
	});
});
