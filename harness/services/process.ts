/**
 * A service process (database, queue) run as this project's own child on loopback: its own
 * process group, its data in a temp folder, stopped by PID with the n8n processes' exit hooks
 * (`trackGroup`) if the caller never gets to stop it.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

import { stopTracked, trackGroup } from '../n8n/instance';

export interface ServiceProcess {
	/** The process group; a new one after `restart`. */
	pid: number;
	/** The temp folder holding its data and log; removed on stop unless kept. */
	dir: string;
	logFile: string;
	stop(): Promise<void>;
	/**
	 * A restart as operators do it (fault tests): stops the process with its stop signal, keeping
	 * its data, leaves it down `downMs`, starts it again with the same arguments and waits until it
	 * answers. Times are epoch ms.
	 */
	restart(downMs: number): Promise<{ stoppedAt: number; startedAt: number; readyAt: number }>;
}

export interface SpawnServiceOptions {
	dir: string;
	logFile: string;
	keep: boolean;
	/** Run as this user (PostgreSQL refuses to run as root). */
	uid?: number;
	gid?: number;
	/** What `restart` sends the main process to stop it (default SIGTERM). */
	stopSignal?: NodeJS.Signals;
	/** Whether it answers again after `restart`. */
	ready?: () => Promise<boolean>;
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

export function spawnService(
	bin: string,
	args: string[],
	options: SpawnServiceOptions,
): ServiceProcess {
	const launch = (): number => {
		const logFd = openSync(options.logFile, 'a');
		const child = spawn(bin, args, {
			cwd: options.dir,
			detached: true,
			stdio: ['ignore', logFd, logFd],
			uid: options.uid,
			gid: options.gid,
		});
		closeSync(logFd);
		if (!child.pid) throw new Error(`${bin} did not start`);
		child.unref();
		trackGroup(child.pid, { userFolder: options.dir, keep: options.keep });
		return child.pid;
	};
	const service: ServiceProcess = {
		pid: launch(),
		dir: options.dir,
		logFile: options.logFile,
		stop: () => stopTracked(service.pid),
		restart: async (downMs) => {
			const stoppedAt = Date.now();
			process.kill(service.pid, options.stopSignal ?? 'SIGTERM');
			while (isAlive(service.pid)) await new Promise((resolve) => setTimeout(resolve, 50));
			// Its folder stays: the data survives as it does on a real host.
			await stopTracked(service.pid, true);
			await new Promise((resolve) =>
				setTimeout(resolve, Math.max(0, stoppedAt + downMs - Date.now())),
			);
			const startedAt = Date.now();
			service.pid = launch();
			if (options.ready) await waitUntil(`${bin} after restart`, options.ready);
			return { stoppedAt, startedAt, readyAt: Date.now() };
		},
	};
	return service;
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
