/** The demo's shift log line says something true of n8n's saving, never "saves each 0 ms". */
import { savedLately } from '../../scripts/demo';

describe("the demo's shift log line", () => {
	it('says n8n keeps up when the median event is saved within its second', () => {
		expect(savedLately(-400)).toBe(
			"n8n keeps up: events are in the agents' table within their second",
		);
		expect(savedLately(0)).toContain('keeps up');
	});

	it('says how late, against the live alerts’ allowance, when n8n falls behind', () => {
		expect(savedLately(1300)).toBe(
			'n8n saves events 1.3 s after their second (median; the live alerts allow 2 s)',
		);
	});

	it('says so when nothing is saved yet', () => {
		expect(savedLately(undefined)).toBe("no event saved in the agents' table yet");
	});
});
