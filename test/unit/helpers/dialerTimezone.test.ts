/**
 * The credential's Dialer Timezone: which zone periods are sent in and row times are read in, for
 * the action node and the Report Trigger alike.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import { dialerTimezone, zoneOrFallback } from '../../../nodes/shared/dialerTimezone';
import { ParameterError } from '../../../nodes/shared/parameters';
import { router } from '../../../nodes/Dialer/actions/router';
import { fakeExecuteFunctions, runNode, TEST_CREDENTIALS } from '../support/executeFunctions';
import { TEST_ZONES } from '../support/zones';
import { propertyRuns } from '../support/propertyRuns';

describe('Dialer Timezone in the credential', () => {
	it('empty or missing means the workflow timezone, so nothing changes for those who set it', () => {
		for (const empty of [undefined, null, '', '   ']) {
			expect(zoneOrFallback(empty, 'America/New_York')).toBe('America/New_York');
		}
	});

	it('takes any IANA zone, trimmed', () => {
		expect(zoneOrFallback(' America/Sao_Paulo ', 'UTC')).toBe('America/Sao_Paulo');
		expect(zoneOrFallback('utc', 'Asia/Tokyo')).toBe('utc');
		for (const zone of [...TEST_ZONES, ...Intl.supportedValuesOf('timeZone')]) {
			expect(zoneOrFallback(zone, 'UTC')).toBe(zone);
		}
	});

	it('refuses what is not an IANA zone, naming the field and the fix', () => {
		for (const wrong of ['Sao Paulo', 'GMT-3', '-03:00', 'BRT', 42]) {
			expect(() => zoneOrFallback(wrong, 'UTC')).toThrow(ParameterError);
			expect(() => zoneOrFallback(wrong, 'UTC')).toThrow(
				/^Dialer Timezone \(credential\): .* is not an IANA timezone$/,
			);
		}
		try {
			zoneOrFallback('Sao Paulo', 'UTC');
		} catch (error) {
			expect((error as ParameterError).fix).toMatch(/Dialer API credential.*America\/Sao_Paulo/);
		}
	});

	it('is read from the credential once per run', async () => {
		const getCredentials = jest.fn(async () => ({ dialerTimezone: 'Asia/Tokyo' }));
		const context = { getCredentials, getTimezone: () => 'UTC' };
		expect(await dialerTimezone(context)).toBe('Asia/Tokyo');
		expect(await dialerTimezone(context)).toBe('Asia/Tokyo');
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});
});

describe('report periods on the dialer clock', () => {
	const history = {
		resource: 'report',
		operation: 'getCallHistory',
		entityType: 'RS',
		extensionOrAgent: '1001',
		returnAll: true,
		filters: {},
	};
	const answer = [{ body: { data: { chamadas: [] } } }];

	async function sent(period: Record<string, unknown>, dialerZone: string, workflowZone: string) {
		const { form } = await runNode({
			parameters: { ...history, ...period },
			credentials: { ...TEST_CREDENTIALS, dialerTimezone: dialerZone },
			timezone: workflowZone,
			responses: answer,
		});
		return [form.de, form.ate];
	}

	it('Yesterday is the day before today on the dialer calendar, whatever the workflow zone', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(...TEST_ZONES),
				fc.constantFrom(...TEST_ZONES),
				async (dialerZone, workflowZone) => {
					const before = DateTime.now().setZone(dialerZone);
					const [de, ate] = await sent({ period: 'yesterday' }, dialerZone, workflowZone);
					const after = DateTime.now().setZone(dialerZone);
					// A run across the dialer's midnight may see either day.
					const days = [before, after].map((now) => now.minus({ days: 1 }).toFormat('yyyyMMdd'));
					expect(days).toContain(de.slice(0, 8));
					expect([de.slice(8), ate]).toEqual(['000000', `${de.slice(0, 8)}235959`]);
				},
			),
			{ numRuns: propertyRuns(60) },
		);
	});

	it('a custom time without an offset is the dialer clock; with one, that moment on it', async () => {
		const custom = { period: 'custom', start: '2026-03-08T02:30:00', end: '2026-11-21T08:00:00Z' };
		expect(await sent(custom, 'Asia/Tokyo', 'Pacific/Honolulu')).toEqual([
			'20260308023000',
			'20261121170000',
		]);
		// 02:30 on 8 March 2026 does not exist in New York: the clock jumped to 03:30.
		expect(await sent(custom, 'America/New_York', 'UTC')).toEqual([
			'20260308033000',
			'20261121030000',
		]);
	});

	it('the credential left empty keeps the workflow timezone', async () => {
		const custom = { period: 'custom', start: '2026-11-21T08:00:00Z', end: '2026-11-21T09:00:00Z' };
		expect(await sent(custom, '', 'America/Sao_Paulo')).toEqual([
			'20261121050000',
			'20261121060000',
		]);
	});

	it('a wrong Dialer Timezone fails the item before any request', async () => {
		const { context, sent } = fakeExecuteFunctions({
			parameters: { ...history, period: 'yesterday' },
			credentials: { ...TEST_CREDENTIALS, dialerTimezone: 'Brasília' },
			responses: answer,
		});
		await expect(router.call(context)).rejects.toThrow(
			/Dialer Timezone \(credential\): "Brasília" is not an IANA timezone/,
		);
		expect(sent).toEqual([]);
	});
});
