/**
 * Installs Debian packages the project's scripts need when they are missing (CI starts on a
 * fresh machine as root). Only installs: it never starts or enables the packages' services.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { run } from '../n8n/runtime';

const execFileAsync = promisify(execFile);
/** Waits for another apt/dpkg run (e.g. a parallel test run) instead of failing on its lock. */
const LOCK_TIMEOUT = ['-o', 'DPkg::Lock::Timeout=300'];

async function isInstalled(name: string): Promise<boolean> {
	try {
		const { stdout } = await execFileAsync('dpkg-query', ['-W', '-f=${db:Status-Status}', name]);
		return stdout.trim() === 'installed';
	} catch {
		return false;
	}
}

export async function ensureDebianPackages(names: string[]): Promise<void> {
	const missing: string[] = [];
	for (const name of names) if (!(await isInstalled(name))) missing.push(name);
	if (missing.length === 0) return;
	const command = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing.join(' ')}`;
	if (process.getuid?.() !== 0)
		throw new Error(`Debian packages missing: ${missing.join(', ')}. As root, run: ${command}`);
	process.stderr.write(`[services] installing ${missing.join(', ')} with apt-get\n`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await run('apt-get', [...LOCK_TIMEOUT, 'update'], { cwd: '/', env });
	await run('apt-get', [...LOCK_TIMEOUT, 'install', '-y', '--no-install-recommends', ...missing], {
		cwd: '/',
		env,
	});
}
