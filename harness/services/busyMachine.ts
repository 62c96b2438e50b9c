/**
 * A machine with other work on it: a process that keeps one core busy until stopped (by its PID),
 * as another service on the n8n host would.
 */
import { spawn } from 'node:child_process';

export function takeOneCore(): { stop: () => void } {
	const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
	const stop = () => {
		if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
	};
	process.once('exit', stop);
	return { stop };
}
