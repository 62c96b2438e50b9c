/**
 * `npm test` runs the real-n8n suites listed in test/setup/lanes.js: a suite missing there would
 * never run in CI. Every e2e and browser suite runs on the newest n8n line, every queue-mode suite
 * in the whole matrix, each exactly once per project.
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
	it('include every e2e and browser suite on the newest n8n in the whole matrix, once, split over the lanes', async () => {
		const { e2e, lanes } = await lanesWith(true);
		expect([...e2e].sort()).toEqual([...suitesIn('test/e2e'), ...suitesIn('test/browser')].sort());
		expect(laneFiles(lanes, 'e2e')).toEqual([...e2e].sort());
		expect(once(e2e)).toBe(true);
	});

	it('run every queue-mode suite and every 1.x suite listed in the whole matrix (npm run test:all)', async () => {
		const all = await lanesWith(true);
		expect([...all.queueMode].sort()).toEqual(suitesIn('test/queue-mode'));
		expect(laneFiles(all.lanes, 'queue')).toEqual([...all.queueMode].sort());
		expect(laneFiles(all.lanes, 'e2e-n8n1')).toEqual([...all.n8n1].sort());
		expect(once(all.n8n1) && once(all.queueMode)).toBe(true);
	});

	it('run on 1.x and in queue mode a part of the whole matrix by default, on the newest line all but the demo', async () => {
		const some = await lanesWith(false);
		const all = await lanesWith(true);
		expect(some.n8n1.length).toBeLessThan(all.n8n1.length);
		expect(some.queueMode.length).toBeLessThan(all.queueMode.length);
		expect(all.n8n1).toEqual(expect.arrayContaining(some.n8n1));
		// On the newest line only the demo waits for the whole matrix.
		expect(all.e2e.filter((suite) => !some.e2e.includes(suite))).toEqual(['test/e2e/demo.test.ts']);
	});
});
