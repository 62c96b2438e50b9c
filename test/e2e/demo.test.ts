/**
 * The README's main command, `npm run demo`, run as a user runs it (a child process with its own
 * n8n and simulator): `--check` proves the examples import and those that need no outside service
 * work, the live over-limit alert among them, and Ctrl-C leaves no process behind. The run's global setup has
 * already built dist/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import { readExamples, needsNoOutsideService, type DemoSummary } from '../../harness/demo';

const ROOT = path.resolve(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

jest.setTimeout(300_000);

interface DemoRun {
	child: ChildProcess;
	stdout: string;
	stderr: string;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The demo in its own process group, as in a terminal, so a signal to the group reaches it the way Ctrl-C does. */
function startDemo(args: string[]): DemoRun {
	const child = spawn(TSX, ['harness/demo.ts', '--skip-build', ...args], {
		cwd: ROOT,
		detached: true,
	});
	const run: DemoRun = {
		child,
		stdout: '',
		stderr: '',
		exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
	};
	child.stdout?.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
	return run;
}

function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

function n8nPid(stderr: string): number {
	const match = /n8n pid (\d+)/.exec(stderr);
	if (!match) throw new Error(`the demo did not log its n8n pid:\n${stderr}`);
	return Number(match[1]);
}

describe('npm run demo', () => {
	it('--check imports every example, shows a live over-limit alert and gets executions from the simulated shift', async () => {
		const run = startDemo(['--check']);
		const { code } = await run.exited;
		expect({ code, stderr: code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
		const summary = JSON.parse(run.stdout.trim().split('\n').pop()!) as DemoSummary;
		console.log(
			`demo --check: ${JSON.stringify(summary.timings)}; live alert ${JSON.stringify(summary.liveAlert)}`,
		);
		const examples = await readExamples();
		expect(summary).toMatchObject({
			check: 'passed',
			examples: examples.length,
			active: examples.filter(({ workflow }) => needsNoOutsideService(workflow)).length,
		});
		// The demo itself checked that the alert names that agent and no other; here, its order:
		// after the pause's maximum and before the agent came back.
		expect(summary.liveAlert.agentId).not.toBe(summary.liveAlert.inTimeAgentId);
		expect(summary.liveAlert.alertAfterLimitMs).toBeGreaterThanOrEqual(0);
		expect(summary.liveAlert.pauseOutAfterAlertMs).toBeGreaterThan(0);
		// The scripted pauses (two pause_in, two pause_out) plus what the shift started.
		expect(summary.executions).toBeGreaterThanOrEqual(4 + 5);
		expect(groupAlive(summary.n8nPid)).toBe(false);
	});

	it('Ctrl-C stops n8n, its task runner and the demo itself', async () => {
		const run = startDemo([]);
		await waitFor(
			() => run.stdout.includes('Press Ctrl-C') || run.child.exitCode !== null,
			180_000,
			'the demo banner',
		);
		// Its own names, not the e2e run's.
		expect(run.stdout).toContain('Log in as    demo-owner@example.com');
		// The setting bursts need, on the demo's n8n and in front of whoever starts it.
		expect(run.stdout).toContain('n8n setting  N8N_EXPRESSION_ENGINE=legacy');
		expect(run.stderr).toMatch(/user folder \/tmp\/n8n-dialer-demo-/);
		const n8n = n8nPid(run.stderr);
		expect(groupAlive(n8n)).toBe(true);

		process.kill(-run.child.pid!, 'SIGINT');
		await run.exited;
		await waitFor(
			() => !groupAlive(n8n) && !groupAlive(run.child.pid!),
			20_000,
			'every demo process to end',
		);
		// One last line, printed once everything had stopped.
		const lines = run.stderr.trim().split('\n');
		expect(lines.at(-1)).toMatch(/^\[demo\] stopped: /);
		expect(lines.filter((line) => line.startsWith('[demo] stopped'))).toHaveLength(1);
	});
});
