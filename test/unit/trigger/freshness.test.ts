import { freshnessProblem, limitSeconds } from '../../../nodes/DialerTrigger/freshness';

const NOW = 1_763_800_000;
const both = { maxAgeSeconds: 300, maxAheadSeconds: 60 };

describe('refusing stale or future event times', () => {
	it('passes any event time when both limits are off (the default)', () => {
		const off = { maxAgeSeconds: 0, maxAheadSeconds: 0 };
		expect(freshnessProblem(0, NOW, off)).toBeUndefined();
		expect(freshnessProblem(NOW + 86_400, NOW, off)).toBeUndefined();
	});

	it('passes an event exactly at either limit, refuses one a second beyond', () => {
		expect(freshnessProblem(NOW - 300, NOW, both)).toBeUndefined();
		expect(freshnessProblem(NOW + 60, NOW, both)).toBeUndefined();
		expect(freshnessProblem(NOW - 301, NOW, both)).toBe(
			"Stale delivery: its event time t is 301 s before n8n's clock, and this workflow refuses " +
				'events older than 300 s (Max Event Age)',
		);
		expect(freshnessProblem(NOW + 61, NOW, both)).toBe(
			"Delivery from the future: its event time t is 61 s after n8n's clock, and this workflow " +
				'refuses events more than 60 s ahead (Max Event Time Ahead)',
		);
	});

	it("counts whole seconds: t has no fraction, n8n's clock has", () => {
		expect(freshnessProblem(NOW - 300, NOW + 0.999, both)).toBeUndefined();
		expect(freshnessProblem(NOW - 300, NOW + 1, both)).toMatch(/^Stale/);
	});

	it('applies each limit on its own', () => {
		expect(freshnessProblem(0, NOW, { maxAgeSeconds: 0, maxAheadSeconds: 60 })).toBeUndefined();
		expect(
			freshnessProblem(NOW + 3600, NOW, { maxAgeSeconds: 300, maxAheadSeconds: 0 }),
		).toBeUndefined();
	});

	it.each([
		[300, 300],
		[0, 0],
		[-5, 0],
		[undefined, 0],
		['300', 300],
		[' 60 ', 60],
		['', 0],
		['five minutes', 0],
		[Number.NaN, 0],
		[Infinity, 0],
	])('reads the option %j as a limit of %j seconds (0: off)', (value, seconds) => {
		expect(limitSeconds(value)).toBe(seconds);
	});
});
