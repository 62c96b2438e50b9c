import { RefusalCounter } from '../../../nodes/DialerTrigger/refusals';

describe("counting refused deliveries in n8n's log", () => {
	let clock: number;
	const counter = () => new RefusalCounter(60_000, () => clock);

	beforeEach(() => {
		clock = 0;
	});

	it('logs the first refusal at once, then one summary per minute however many follow', () => {
		const refusals = counter();
		const trigger = 'Dialer Trigger "Agent Events" (workflow 7)';
		expect(refusals.count(trigger, 'address')).toBe(
			'Dialer Trigger "Agent Events" (workflow 7) refused a delivery from an address not in ' +
				'Allowed Addresses; further refusals are counted and logged at most every 60 s',
		);
		const lines: string[] = [];
		for (let i = 0; i < 1000; i++) {
			clock += 60;
			const line = refusals.count(trigger, i % 4 === 0 ? 'stale' : 'secret');
			if (line) lines.push(line);
		}
		expect(lines).toEqual([
			'Dialer Trigger "Agent Events" (workflow 7) refused 1000 deliveries in the last 60 s: ' +
				'250 with an event time outside Max Event Age or Max Event Time Ahead, 750 without the ' +
				'right X-Webhook-Secret',
		]);
	});

	it('keeps triggers apart', () => {
		const refusals = counter();
		expect(refusals.count('A', 'secret')).toMatch(/^A refused a delivery/);
		expect(refusals.count('B', 'noSecret')).toMatch(/^B refused a delivery while the credential/);
		expect(refusals.count('A', 'secret')).toBeUndefined();
	});
});
