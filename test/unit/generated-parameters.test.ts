/**
 * Generated parameter values are either sent in the API's exact form or rejected before any
 * request: the dialer never receives a malformed date, range, ID list or number. Each property has
 * a twin over valid values only, which must all be sent as they were meant: a node refusing
 * everything fails it.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { NodeOperationError } from 'n8n-workflow';

import { router } from '../../nodes/Dialer/actions/router';
import { fakeExecuteFunctions } from './support/executeFunctions';
import { propertyRuns } from './support/propertyRuns';

const RUNS = propertyRuns(300);

/** Runs the node once; returns the form sent, or undefined when it refused before sending. */
async function sentForm(
	parameters: Record<string, unknown>,
	timezone = 'UTC',
): Promise<Record<string, string> | undefined> {
	const { context, sent } = fakeExecuteFunctions({
		parameters,
		timezone,
		responses: [{ body: { data: [] } }],
	});
	try {
		await router.call(context);
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(sent).toHaveLength(0);
		return undefined;
	}
	expect(sent).toHaveLength(1);
	return sent[0].form;
}

/** Inbound Calls over a custom period from `start` to `end`, as the node sends it. */
const sentRange = (start: unknown, end: unknown, zone: string) =>
	sentForm(
		{
			resource: 'report',
			operation: 'getInboundCalls',
			period: 'custom',
			start,
			end,
			returnAll: true,
			filters: {},
		},
		zone,
	);

/** Queue → Create with these numbers and everything else valid. */
const queueCreate = (maxOverdial: unknown, channels: unknown, queueSize: unknown) => ({
	resource: 'queue',
	operation: 'create',
	description: 'Fila',
	queueOperation: '1',
	dialingType: 'PRE',
	overdial: false,
	maxOverdial,
	channels,
	dialerChannel: '1',
	addLocalAreaCode: false,
	carrier: '15',
	additionalFields: { queueSize },
});

const validApiDateTime = (value: string) =>
	/^\d{14}$/.test(value) && DateTime.fromFormat(value, 'yyyyMMddHHmmss', { zone: 'UTC' }).isValid;

/** Dates as users and expressions produce them, well-formed or not. */
const dateLike = fc.oneof(
	fc
		.date({ min: new Date('1000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
		.map((d) => d.toISOString()),
	fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
	fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19)),
	fc.date({ noInvalidDate: false }),
	fc.stringMatching(/^\d{14}$/),
	fc.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/),
	fc.string(),
	fc.integer(),
	fc.constant(''),
	fc.constant(null),
);

describe('generated parameter values', () => {
	it('custom report ranges are sent as two valid 14-digit dates in order, or refused', async () => {
		await fc.assert(
			fc.asyncProperty(
				dateLike,
				dateLike,
				fc.constantFrom('UTC', 'America/Sao_Paulo', 'Asia/Kolkata', 'America/Santiago'),
				async (start, end, zone) => {
					const form = await sentRange(start, end, zone);
					if (form === undefined) return;
					expect(validApiDateTime(form.de)).toBe(true);
					expect(validApiDateTime(form.ate)).toBe(true);
					expect(form.de <= form.ate).toBe(true);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('ficha ID lists are sent well-formed, or refused', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.string(), fc.stringMatching(/^[\d ,-]{0,24}$/)),
				async (fichaIds) => {
					const form = await sentForm({
						resource: 'report',
						operation: 'getFilledForms',
						selectBy: 'fichaIds',
						fichaIds,
						output: 'items',
						returnAll: true,
						filters: {},
					});
					if (form === undefined) return;
					expect(form.fichaId).toMatch(/^[1-9]\d*(-[1-9]\d*)?(,[1-9]\d*(-[1-9]\d*)?)*$/);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('queue numbers are sent as whole numbers within their bounds, or refused', async () => {
		const numberLike = fc.oneof(
			fc.integer({ min: -5, max: 500 }),
			fc.double(),
			fc.stringMatching(/^-?\d{0,4}(\.\d)?$/),
			fc.constant(Number.NaN),
			fc.constant(null),
		);
		await fc.assert(
			fc.asyncProperty(
				numberLike,
				numberLike,
				numberLike,
				async (maxOverdial, channels, queueSize) => {
					const form = await sentForm(queueCreate(maxOverdial, channels, queueSize));
					if (form === undefined) return;
					expect(form.max_overdial).toMatch(/^\d+$/);
					expect(Number(form.num_canais)).toBeGreaterThanOrEqual(1);
					expect(form.num_canais).toMatch(/^\d+$/);
					expect(Number(form.tamanho_fila)).toBeGreaterThanOrEqual(1);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('audio IDs are sent as positive whole numbers, or refused', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.string(), fc.integer(), fc.double(), fc.stringMatching(/^ ?0*\d{1,6} ?$/)),
				async (audioId) => {
					const form = await sentForm({ resource: 'audio', operation: 'deactivate', audioId });
					if (form === undefined) return;
					expect(form.id).toMatch(/^[1-9]\d*$/);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('limits are whole numbers of at least 1, or refused', async () => {
		await fc.assert(
			fc.asyncProperty(fc.oneof(fc.integer({ min: -3, max: 100 }), fc.double()), async (limit) => {
				const { context } = fakeExecuteFunctions({
					parameters: {
						resource: 'batch',
						operation: 'getMany',
						returnAll: false,
						limit,
						filters: {},
					},
					responses: [
						{ body: { data: { lotes: Array.from({ length: 60 }, (_, id) => ({ id })) } } },
					],
				});
				const outcome = await router.call(context).then(
					([items]) => items.length,
					(error: unknown) => error,
				);
				if (typeof outcome === 'number') expect(outcome).toBe(Math.min(60, limit));
				else expect(outcome).toBeInstanceOf(NodeOperationError);
			}),
			{ numRuns: RUNS },
		);
	});

	describe('valid values are sent as meant', () => {
		it('a whole-number limit of at least 1 returns that many items, at most all', async () => {
			await fc.assert(
				fc.asyncProperty(fc.integer({ min: 1, max: 100 }), async (limit) => {
					const { context } = fakeExecuteFunctions({
						parameters: {
							resource: 'batch',
							operation: 'getMany',
							returnAll: false,
							limit,
							filters: {},
						},
						responses: [
							{ body: { data: { lotes: Array.from({ length: 60 }, (_, id) => ({ id })) } } },
						],
					});
					const [items] = await router.call(context);
					expect(items).toHaveLength(Math.min(60, limit));
				}),
				{ numRuns: RUNS },
			);
		});

		const wallClock = fc
			.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
			.map((date) => date.toISOString().slice(0, 19));
		const digits = (text: string) => text.replace(/\D/g, '');

		it('a custom range of two wall-clock times in order is sent as those times, in any zone', async () => {
			await fc.assert(
				fc.asyncProperty(
					wallClock,
					wallClock,
					fc.constantFrom('UTC', 'America/Sao_Paulo', 'Asia/Kolkata', 'Pacific/Auckland'),
					async (one, other, zone) => {
						const [start, end] = [one, other].sort();
						// A time in the hour skipped when clocks go forward names no instant.
						const exists = [start, end].every(
							(text) => DateTime.fromISO(text, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss") === text,
						);
						fc.pre(exists);
						const form = await sentRange(start, end, zone);
						expect(form).toEqual({ de: digits(start), ate: digits(end) });
					},
				),
				{ numRuns: RUNS },
			);
		});

		it('a ficha ID list of numbers and ranges is sent without its spaces', async () => {
			const id = fc.integer({ min: 1, max: 99_999 });
			const part = fc.oneof(
				id.map(String),
				fc.tuple(id, id).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
			);
			await fc.assert(
				fc.asyncProperty(
					fc.array(part, { minLength: 1, maxLength: 6 }),
					fc.boolean(),
					async (parts, spaced) => {
						const form = await sentForm({
							resource: 'report',
							operation: 'getFilledForms',
							selectBy: 'fichaIds',
							fichaIds: parts.join(spaced ? ', ' : ','),
							output: 'items',
							returnAll: true,
							filters: {},
						});
						expect(form?.fichaId).toBe(parts.join(','));
					},
				),
				{ numRuns: RUNS },
			);
		});

		it('queue numbers within their bounds are sent as given', async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.integer({ min: 0, max: 500 }),
					fc.integer({ min: 1, max: 500 }),
					fc.integer({ min: 1, max: 500 }),
					async (maxOverdial, channels, queueSize) => {
						const form = await sentForm(queueCreate(maxOverdial, channels, queueSize));
						expect(form).toMatchObject({
							max_overdial: String(maxOverdial),
							num_canais: String(channels),
							tamanho_fila: String(queueSize),
						});
					},
				),
				{ numRuns: RUNS },
			);
		});

		it('an audio ID, as a number or as text, is sent as that whole number', async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.integer({ min: 1, max: 2 ** 31 }),
					fc.boolean(),
					async (audioId, asText) => {
						const form = await sentForm({
							resource: 'audio',
							operation: 'deactivate',
							audioId: asText ? String(audioId) : audioId,
						});
						expect(form).toEqual({ id: String(audioId) });
					},
				),
				{ numRuns: RUNS },
			);
		});
	});
});
