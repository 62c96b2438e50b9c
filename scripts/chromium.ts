/**
 * Debian's Chromium for the browser test: installed with apt-get when missing and this runs as
 * root (CI), otherwise a clear error. Never skipped: without a browser the test must fail.
 *
 * CLI: `npx tsx scripts/chromium.ts` makes sure it is installed and prints its path.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** Chromium as these machines run it: no sandbox as root, no GPU, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-background-networking',
	'--disable-component-update',
];

function aptGet(args: string[]): void {
	process.stderr.write(`[chromium] apt-get ${args.join(' ')}\n`);
	const result = spawnSync('apt-get', args, {
		stdio: ['ignore', 2, 2],
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
	if (result.status !== 0) {
		throw new Error(
			`apt-get ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`,
		);
	}
}

export function ensureChromium(): string {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${CHROMIUM} is missing and this is not root: run \`sudo apt-get install chromium\``,
		);
	}
	aptGet(['update']);
	aptGet(['install', '-y', 'chromium']);
	if (!existsSync(CHROMIUM))
		throw new Error(`apt-get installed chromium but ${CHROMIUM} does not exist`);
	return CHROMIUM;
}

if (require.main === module) {
	try {
		process.stdout.write(`${ensureChromium()}\n`);
	} catch (error) {
		process.stderr.write(`[chromium] ${(error as Error).message}\n`);
		process.exitCode = 1;
	}
}
