/** The demo's shift log line says something true of n8n's saving, never "saves each 0 ms". */
import {
	SUPERVISION_EXAMPLES,
	needsNoOutsideService,
	readExamples,
	savedLately,
} from '../../harness/demo';

describe("the demo's shift log line", () => {
	it('says n8n keeps up when the median event is saved within its second', () => {
		expect(savedLately(-400)).toBe(
			"n8n keeps up: events are in the agents' table within their second",
		);
		expect(savedLately(0)).toContain('keeps up');
	});

	it('says how late n8n saves when it falls behind', () => {
		expect(savedLately(1300)).toBe(
			'n8n saves events 1.3 s after their second (median; over-limit alerts wait for those saves)',
		);
	});

	it('says so when nothing is saved yet', () => {
		expect(savedLately(undefined)).toBe("no event saved in the agents' table yet");
	});
});

describe('the demo', () => {
	it('runs every supervision example against the simulator (no node it cannot run)', async () => {
		const examples = await readExamples();
		for (const file of SUPERVISION_EXAMPLES) {
			const example = examples.find((candidate) => candidate.file === file);
			expect({ file, runs: example && needsNoOutsideService(example.workflow) }).toEqual({
				file,
				runs: true,
			});
		}
	});
});
