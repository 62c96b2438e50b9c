import { DateTime } from 'luxon';

import { checkPayload, type AgentEventPayload } from '../../../nodes/DialerTrigger/events';
import { buildEventItem } from '../../../nodes/DialerTrigger/output';

const receivedAt = DateTime.fromISO('2025-11-22T08:26:41.250Z');
const login: AgentEventPayload = {
	estado: 'online',
	t: 1763800000,
	evento: 'agente.login',
	usuario_id: 42,
};

/** An agente.pause_in event of agent 42, with the pause fields a case sets. */
function pauseIn(fields: Partial<AgentEventPayload>): AgentEventPayload {
	return { estado: 'paused', t: 1763800000, evento: 'agente.pause_in', usuario_id: 42, ...fields };
}

describe('the item a workflow receives', () => {
	it('adds readable fields and keeps every original field unchanged', () => {
		expect(buildEventItem(login, 'UTC', receivedAt)).toEqual({
			event: 'agente.login',
			state: 'online',
			agentId: 42,
			eventTime: '2025-11-22T08:26:40.000Z',
			receivedAt: '2025-11-22T08:26:41.250Z',
			eventOrder: 17638000001,
			dialerClockOffsetSeconds: 0,
			n8nClock: { eventTime: '2025-11-22T08:26:40.000Z' },
			...login,
		});
	});

	it('shows times in the workflow timezone (São Paulo)', () => {
		const item = buildEventItem(login, 'America/Sao_Paulo', receivedAt);
		expect(item.eventTime).toBe('2025-11-22T05:26:40.000-03:00');
		expect(item.receivedAt).toBe('2025-11-22T05:26:41.250-03:00');
	});

	it('shows times in the workflow timezone (Kolkata, half-hour offset)', () => {
		const item = buildEventItem(login, 'Asia/Kolkata', receivedAt);
		expect(item.eventTime).toBe('2025-11-22T13:56:40.000+05:30');
		expect(item.receivedAt).toBe('2025-11-22T13:56:41.250+05:30');
	});

	it('describes a pause: its ID, start and duration limits', () => {
		const pause = pauseIn({
			pausa_id: 3,
			udate: 1763799700,
			durmax: 900,
			durmin: 60,
		});
		const item = buildEventItem(pause, 'America/Sao_Paulo', receivedAt);
		expect(item).toMatchObject({
			pauseId: 3,
			pauseStartedAt: '2025-11-22T05:21:40.000-03:00',
			maxDurationSeconds: 900,
			minDurationSeconds: 60,
			maxDurationReachedAt: '2025-11-22T05:36:40.000-03:00',
			minDurationReachedAt: '2025-11-22T05:22:40.000-03:00',
			pausa_id: 3,
			durmin: 60,
		});
	});

	it('gives a pause without configured limits null limits, so workflows can test for them', () => {
		const pause = pauseIn({
			pausa_id: 'lunch',
			udate: 1763799700,
		});
		expect(buildEventItem(pause, 'UTC', receivedAt)).toMatchObject({
			pauseId: 'lunch',
			maxDurationSeconds: null,
			minDurationSeconds: null,
			maxDurationReachedAt: null,
			minDurationReachedAt: null,
		});
		expect(buildEventItem({ ...pause, pausa_id: undefined }, 'UTC', receivedAt)).toMatchObject({
			pauseId: null,
		});
	});

	it('says when a pause reaches its limits in the workflow timezone (Kolkata), also for numbers sent as text', () => {
		const check = checkPayload({
			...pauseIn({ pausa_id: '1', durmin: 300 }),
			t: '1763800000',
			usuario_id: '42',
			udate: '1763799700',
			durmax: ' 900 ',
		});
		if (!check.valid) throw new Error(check.reason);
		expect(buildEventItem(check.payload, 'Asia/Kolkata', receivedAt)).toMatchObject({
			agentId: 42,
			eventTime: '2025-11-22T13:56:40.000+05:30',
			pauseId: 1,
			maxDurationSeconds: 900,
			maxDurationReachedAt: '2025-11-22T14:06:40.000+05:30',
			minDurationReachedAt: '2025-11-22T13:56:40.000+05:30',
		});
	});

	it.each([0, -1, -900])('treats a limit of %j as no limit (no moment to wait for)', (limit) => {
		const pause = pauseIn({ pausa_id: 1, udate: 1763799700, durmax: limit, durmin: limit });
		expect(buildEventItem(pause, 'UTC', receivedAt)).toMatchObject({
			pauseStartedAt: '2025-11-22T08:21:40.000Z',
			maxDurationSeconds: null,
			minDurationSeconds: null,
			maxDurationReachedAt: null,
			minDurationReachedAt: null,
			durmax: limit,
		});
	});

	it('keeps a limit of 0 apart from a positive one in the same pause', () => {
		const pause = pauseIn({ pausa_id: 1, udate: 1763799700, durmax: 0, durmin: 60 });
		expect(buildEventItem(pause, 'UTC', receivedAt)).toMatchObject({
			maxDurationReachedAt: null,
			minDurationReachedAt: '2025-11-22T08:22:40.000Z',
		});
	});

	it('starts a pause sent without udate at its event time t, and says so on the item', () => {
		const pause = pauseIn({ pausa_id: 1, durmax: 900, durmin: 300 });
		expect(buildEventItem(pause, 'UTC', receivedAt)).toMatchObject({
			pauseStartedAt: '2025-11-22T08:26:40.000Z',
			maxDurationSeconds: 900,
			maxDurationReachedAt: '2025-11-22T08:41:40.000Z',
			minDurationReachedAt: '2025-11-22T08:31:40.000Z',
			warnings: [
				'The dialer sent no udate (the start of the pause or call): the event time t is used instead',
			],
		});
		expect(buildEventItem(pauseIn({ udate: 1763799700 }), 'UTC', receivedAt)).not.toHaveProperty(
			'warnings',
		);
	});

	it("gives every time on n8n's clock too, moved by the dialer's measured clock offset", () => {
		const pause = pauseIn({ pausa_id: 1, udate: 1763799700, durmax: 900 });
		const item = buildEventItem(pause, 'UTC', receivedAt, {
			offsetSeconds: 6,
			orderShiftSeconds: 0,
		});
		expect(item).toMatchObject({
			eventTime: '2025-11-22T08:26:40.000Z',
			maxDurationReachedAt: '2025-11-22T08:36:40.000Z',
			dialerClockOffsetSeconds: 6,
			n8nClock: {
				eventTime: '2025-11-22T08:26:46.000Z',
				pauseStartedAt: '2025-11-22T08:21:46.000Z',
				maxDurationReachedAt: '2025-11-22T08:36:46.000Z',
				minDurationReachedAt: null,
				// Received 1.25 s into the pause_in's second, the maximum 600 s later, then 5 s.
				maxDurationSettledAt: '2025-11-22T08:36:46.250Z',
			},
		});
	});

	it('passes a clock warning on to the item', () => {
		const item = buildEventItem(login, 'UTC', receivedAt, {
			offsetSeconds: -10_800,
			orderShiftSeconds: -10_800,
			warning: 'skewed',
		});
		expect(item.warnings).toEqual(['skewed']);
		expect(item.n8nClock).toEqual({ eventTime: '2025-11-22T05:26:40.000Z' });
	});

	it('gives a busy agent the time the call started', () => {
		const busy: AgentEventPayload = {
			estado: 'busy',
			t: 1763800000,
			evento: 'agente.busy',
			usuario_id: 42,
			udate: 1763799700,
		};
		expect(buildEventItem(busy, 'Asia/Kolkata', receivedAt).callStartedAt).toBe(
			'2025-11-22T13:51:40.000+05:30',
		);
	});

	it('adds pause fields only to pauses', () => {
		expect(Object.keys(buildEventItem(login, 'UTC', receivedAt))).not.toContain('pauseId');
	});

	it('never alters a field the server sent, even one named like a readable field', () => {
		const clash: AgentEventPayload = { ...login, event: 'server value', agentId: 'x' };
		const item = buildEventItem(clash, 'UTC', receivedAt);
		expect(item.event).toBe('server value');
		expect(item.agentId).toBe('x');
	});

	describe("eventOrder: a number that sorts an agent's events as they happened", () => {
		const at = (t: number, evento: string, shift = 0) =>
			buildEventItem({ ...login, t, evento }, 'UTC', receivedAt, {
				offsetSeconds: shift,
				orderShiftSeconds: shift,
			}).eventOrder as number;

		it('orders a second as an agent lives it, logging out last', () => {
			const second = [
				'agente.logout',
				'agente.busy',
				'agente.ringing',
				'agente.pause_out',
				'agente.pause_in',
				'agente.online',
				'agente.login',
			].map((evento) => at(1763800000, evento));
			expect([...second].sort((a, b) => a - b)).toEqual([...second].reverse());
			expect(at(1763800000, 'agente.logout')).toBeLessThan(at(1763800001, 'agente.login'));
		});

		it('puts the maximum below every event of its second, and after every earlier one', () => {
			const pause = buildEventItem(
				pauseIn({ pausa_id: 1, udate: 1763799700, durmax: 900 }),
				'UTC',
				receivedAt,
			);
			const limit = pause.maxDurationReachedOrder as number;
			expect(at(1763800600, 'agente.login')).toBeGreaterThan(limit);
			expect(at(1763800599, 'agente.logout')).toBeLessThan(limit);
			expect(pause.eventOrder).toBeLessThan(limit);
			const noLimit = buildEventItem(pauseIn({ udate: 1763799700 }), 'UTC', receivedAt);
			expect(noLimit.maxDurationReachedOrder).toBeNull();
			expect(at(1763800000, 'agente.online')).not.toBeNull();
			expect(buildEventItem(login, 'UTC', receivedAt)).not.toHaveProperty(
				'maxDurationReachedOrder',
			);
		});

		it('stays in order across a dialer clock set back an hour', () => {
			// Paused at 10:00 on the dialer's clock, which then goes back to 9:00 (DST ends).
			const before = at(1763800000, 'agente.pause_in');
			const after = at(1763800000 + 60 - 3600, 'agente.pause_out', 3600);
			expect(after).toBeGreaterThan(before);
			expect(after - before).toBe(60 * 10 + 1);
		});
	});
});
