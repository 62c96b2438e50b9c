/** The scripted shift: a plausible, consistent event stream per agent at roughly the chosen rate. */
import { startSimulator, type AgentEvent, type DialerSimulator } from '../../harness/simulator';
import { fakeClock } from '../support/clock';
import { callApi, startReceiver, type Receiver } from './helpers';

let sim: DialerSimulator;
let receiver: Receiver;

beforeAll(async () => {
	[sim, receiver] = await Promise.all([startSimulator({ seed: 7 }), startReceiver()]);
	sim.webhooks.register({ url: receiver.url, secret: 'turno' });
});
afterAll(() => Promise.all([sim?.close(), receiver?.close()]));

/** Which event may follow each state, and the state it leads to. */
const allowed: Record<string, Record<string, string[]>> = {
	offline: { 'agente.login': ['online', 'paused'] },
	online: {
		'agente.ringing': ['ringing'],
		'agente.pause_in': ['paused'],
		'agente.logout': ['offline'],
	},
	ringing: { 'agente.busy': ['busy'], 'agente.online': ['online'] },
	busy: { 'agente.online': ['online'], 'agente.pause_in': ['paused'] },
	paused: { 'agente.pause_out': ['online', 'busy'], 'agente.logout': ['offline'] },
};

function checkStream(initial: Map<number, string>, events: AgentEvent[]) {
	const states = new Map(initial);
	for (const event of events) {
		const from = states.get(event.usuario_id)!;
		expect({
			from,
			evento: event.evento,
			estado: allowed[from]?.[event.evento]?.includes(event.estado),
		}).toEqual({ from, evento: event.evento, estado: true });
		states.set(event.usuario_id, event.estado);
	}
	return states;
}

// The shift's clock (Date and its interval) moved by the test, not by the machine: counts are
// exact. Deliveries still go over real HTTP.
const fakeShiftClock = () => fakeClock({ intervals: true });
afterEach(() => jest.useRealTimers());

it('produces events at the rate, each a legal step from the agent state, ending in the live state', async () => {
	const initial = new Map(sim.data.agents.map((agent) => [agent.id, agent.estado as string]));
	fakeShiftClock();
	sim.shift.start({ eventsPerSecond: 200, durationMs: 1000 });
	expect(sim.shift.running).toBe(true);
	jest.advanceTimersByTime(250);
	expect(sim.shift.events).toHaveLength(50);
	jest.advanceTimersByTime(750);
	expect(sim.shift.running).toBe(false);
	await sim.shift.stop();
	const events = sim.shift.events;
	expect(events).toHaveLength(200);

	const final = checkStream(initial, events);
	for (const agent of sim.data.agents) expect(agent.estado).toBe(final.get(agent.id));
	// Every busy agent has a call on its extension, and only those and agents paused mid-call do.
	for (const agent of sim.data.agents) {
		const call = sim.data.activeCalls.find((candidate) => candidate.agentId === agent.id);
		if (agent.estado === 'busy') expect(call).toBeDefined();
		if (agent.estado !== 'busy' && agent.estado !== 'paused') expect(call).toBeUndefined();
	}
	expect(new Set(events.map((event) => event.evento)).size).toBe(7);

	expect(receiver.calls).toHaveLength(events.length);
	expect(receiver.calls.every((call) => call.headers['x-webhook-secret'] === 'turno')).toBe(true);
});

it('puts the contract fields on every payload: pause limits when configured, udate on busy', () => {
	expect(sim.shift.events).toHaveLength(200);
	for (const event of sim.shift.events) {
		expect(Number.isInteger(event.t) && Number.isInteger(event.usuario_id)).toBe(true);
		if (event.evento === 'agente.pause_in') {
			expect(event).toMatchObject({
				estado: 'paused',
				pausa_id: expect.any(Number),
				udate: expect.any(Number),
			});
			const pause = sim.data.pauses.find((candidate) => candidate.id === event.pausa_id)!;
			expect('durmax' in event).toBe(pause.durmax !== undefined);
		}
		if (event.evento === 'agente.busy') expect(event.udate).toEqual(expect.any(Number));
	}
	expect(
		sim.shift.events.some((event) => event.evento === 'agente.pause_in' && 'durmax' in event),
	).toBe(true);
});

it('continues from the states that logout and pauseout calls leave behind, and stops at maxEvents', async () => {
	const loggedIn = sim.data.agents.find((agent) => agent.estado !== 'offline')!;
	expect((await callApi(sim, 'logout', { user: loggedIn.login })).json().data.estado).toBe(
		'offline',
	);
	const paused = sim.data.agents.find((agent) => agent.estado === 'paused');
	if (paused)
		expect((await callApi(sim, 'pauseout', { user: paused.login })).json().status).toBe('success');

	const initial = new Map(sim.data.agents.map((agent) => [agent.id, agent.estado as string]));
	const before = sim.shift.events.length;
	fakeShiftClock();
	sim.shift.start({ eventsPerSecond: 500, maxEvents: 50 });
	jest.advanceTimersByTime(1000);
	expect(sim.shift.running).toBe(false);
	await sim.shift.stop();
	expect(sim.shift.events.length - before).toBe(50);
	checkStream(initial, sim.shift.events.slice(before));
});

it('refuses a second start while running and a non-positive rate', async () => {
	expect(() => sim.shift.start({ eventsPerSecond: 0 })).toThrow();
	sim.shift.start({ eventsPerSecond: 1, durationMs: 100 });
	expect(() => sim.shift.start({ eventsPerSecond: 1 })).toThrow(/already/);
	await sim.shift.stop();
	expect(sim.shift.running).toBe(false);
});
