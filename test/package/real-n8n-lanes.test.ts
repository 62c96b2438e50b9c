/**
 * `npm test` runs the real-n8n suites listed in test/setup/lanes.js: a suite missing there would
 * never run. The whole matrix (`npm run test:all`) runs every e2e and browser suite on the newest n8n
 * line and every queue-mode suite, each exactly once per project; `npm test` runs a part of it.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

const suitesIn = (folder: string) =>
	readdirSync(path.join(ROOT, folder))
		.filter((file) => file.endsWith('.test.ts'))
		.map((file) => `${folder}/${file}`)
		.sort();

/** lanes.js as `npm test` (or, with DIALER_TEST_ALL=1, `npm run test:all`) reads it. */
async function lanesWith(all: boolean) {
	const saved = process.env.DIALER_TEST_ALL;
	process.env.DIALER_TEST_ALL = all ? '1' : '';
	try {
		let loaded: typeof import('../setup/lanes') | undefined;
		await jest.isolateModulesAsync(async () => {
			loaded = await import('../setup/lanes');
		});
		return loaded!;
	} finally {
		process.env.DIALER_TEST_ALL = saved;
	}
}

const once = (files: string[]) => [...new Set(files)].length === files.length;
const laneFiles = (lanes: Awaited<ReturnType<typeof lanesWith>>['lanes'], project: string) =>
	Object.values(lanes)
		.flat()
		.filter(([name]) => name === project)
		.flatMap(([, files]) => files)
		.sort();

describe('the real-n8n suites npm test runs', () => {
	it('include in the whole matrix every e2e and browser suite on the newest n8n, every queue-mode suite and every 1.x suite, once each, split over the lanes', async () => {
		const { suites, lanes } = await lanesWith(true);
		expect([...suites.e2e].sort()).toEqual(
			[...suitesIn('test/e2e'), ...suitesIn('test/browser')].sort(),
		);
		expect(laneFiles(lanes, 'e2e')).toEqual([...suites.e2e].sort());
		expect([...suites.queueMode].sort()).toEqual(suitesIn('test/queue-mode'));
		expect(laneFiles(lanes, 'queue')).toEqual([...suites.queueMode].sort());
		expect(laneFiles(lanes, 'e2e-n8n1')).toEqual([...suites.n8n1].sort());
		expect(once(suites.e2e) && once(suites.n8n1) && once(suites.queueMode)).toBe(true);
	});

	it('run by default a part of the matrix: on the newest line and in queue mode, each suite at most once', async () => {
		const { lanes } = await lanesWith(false);
		const { suites } = await lanesWith(true);
		const e2e = laneFiles(lanes, 'e2e');
		const queue = laneFiles(lanes, 'queue');
		expect(e2e.length).toBeGreaterThan(0);
		expect(queue.length).toBeGreaterThan(0);
		expect(once(e2e) && once(queue)).toBe(true);
		expect(suites.e2e).toEqual(expect.arrayContaining(e2e));
		expect(suites.queueMode).toEqual(expect.arrayContaining(queue));
		expect(e2e).not.toContain('test/e2e/demo.test.ts');
	});
});
