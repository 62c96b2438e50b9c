/**
 * Debian's Chromium for the browser test: installed with apt-get (no recommended packages) when
 * missing and this runs as root (CI), otherwise a clear error. Never skipped: without a browser
 * the test must fail.
 *
 * CLI: `npx tsx harness/chromium.ts` makes sure it is installed and prints its path.
 */
import { existsSync } from 'node:fs';

import { ensureDebianPackages } from './services/debian';

export const CHROMIUM = '/usr/bin/chromium';

/** Chromium as these machines run it: no sandbox as root, no GPU, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-background-networking',
	'--disable-component-update',
];

export async function ensureChromium(): Promise<string> {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	await ensureDebianPackages(['chromium']);
	if (!existsSync(CHROMIUM))
		throw new Error(`apt-get installed chromium but ${CHROMIUM} does not exist`);
	return CHROMIUM;
}

if (require.main === module) {
	ensureChromium()
		.then((executable) => process.stdout.write(`${executable}\n`))
		.catch((error: Error) => {
			process.stderr.write(`[chromium] ${error.message}\n`);
			process.exitCode = 1;
		});
}
