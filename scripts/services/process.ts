/**
 * A service process (database, queue) run as this project's own child on loopback: its own
 * process group, its data in a temp folder, stopped by PID with the n8n processes' exit hooks
 * (`trackGroup`) if the caller never gets to stop it.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

import { stopTracked, trackGroup } from '../n8n/instance';

export interface ServiceProcess {
	pid: number;
	/** The temp folder holding its data and log; removed on stop unless kept. */
	dir: string;
	logFile: string;
	stop(): Promise<void>;
}

export interface SpawnServiceOptions {
	dir: string;
	logFile: string;
	keep: boolean;
	/** Run as this user (PostgreSQL refuses to run as root). */
	uid?: number;
	gid?: number;
}

export function spawnService(
	bin: string,
	args: string[],
	options: SpawnServiceOptions,
): ServiceProcess {
	const logFd = openSync(options.logFile, 'a');
	const child = spawn(bin, args, {
		cwd: options.dir,
		detached: true,
		stdio: ['ignore', logFd, logFd],
		uid: options.uid,
		gid: options.gid,
	});
	closeSync(logFd);
	const pid = child.pid;
	if (!pid) throw new Error(`${bin} did not start`);
	child.unref();
	trackGroup(pid, { userFolder: options.dir, keep: options.keep });
	return { pid, dir: options.dir, logFile: options.logFile, stop: () => stopTracked(pid) };
}

/** Polls `probe` until it resolves true; fails with the log's tail when the time is up. */
export async function waitUntil(
	label: string,
	probe: () => Promise<boolean>,
	timeoutMs = 60000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await probe().catch(() => false)) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`${label} not ready within ${timeoutMs} ms`);
}
