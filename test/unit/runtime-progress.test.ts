/**
 * The first run of the demo or the tests installs n8n for minutes: each long step shows how long
 * it has run and what it has done every 10 s, instead of one silent line.
 */
import { step, type N8nRuntime } from '../../harness/n8n/runtime';

const rt = { n8nVersion: '2.41.1' } as N8nRuntime;

describe('a long install step', () => {
	let written: string[];
	let isTTY: boolean | undefined;

	beforeEach(() => {
		jest.useFakeTimers();
		written = [];
		isTTY = process.stderr.isTTY;
		jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
			written.push(String(chunk));
			return true;
		});
	});

	afterEach(() => {
		jest.useRealTimers();
		jest.restoreAllMocks();
		process.stderr.isTTY = isTTY as true;
	});

	async function run(progress?: () => Promise<string>): Promise<void> {
		let finish!: () => void;
		const running = step(
			rt,
			'installing n8n',
			() => new Promise<void>((r) => (finish = r)),
			progress,
		);
		await jest.advanceTimersByTimeAsync(25_000);
		finish();
		await running;
	}

	it('writes a line with its time and progress every 10 s to a log', async () => {
		process.stderr.isTTY = false as true;
		let packages = 0;
		await run(async () => `${(packages += 700)} packages in place`);
		expect(written).toEqual([
			'[n8n 2.41.1] installing n8n …\n',
			'[n8n 2.41.1] installing n8n … 10 s, 700 packages in place\n',
			'[n8n 2.41.1] installing n8n … 20 s, 1400 packages in place\n',
			'[n8n 2.41.1] installing n8n … done in 25 s\n',
		]);
	});

	it('rewrites its one line on a terminal, the time alone without progress', async () => {
		process.stderr.isTTY = true;
		await run();
		expect(written.join('')).toBe(
			'[n8n 2.41.1] installing n8n …' +
				'\r\x1b[K[n8n 2.41.1] installing n8n … 10 s' +
				'\r\x1b[K[n8n 2.41.1] installing n8n … 20 s' +
				'\r\x1b[K[n8n 2.41.1] installing n8n … done in 25 s\n',
		);
	});
});
