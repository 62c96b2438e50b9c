/** The command line as scripts use it: one JSON line on stdout, then a clean stop on SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { lastDays, send } from './helpers';

const root = join(__dirname, '..', '..');
let child: ChildProcess | undefined;

afterAll(() => {
	// Whatever happened in the test, no simulator process outlives the suite.
	if (child?.pid && child.exitCode === null && child.signalCode === null)
		process.kill(child.pid, 'SIGKILL');
});

it('prints one JSON line with its addresses, serves the API and exits 0 on SIGTERM', async () => {
	const args = [
		'harness/simulator/cli.ts',
		'--port',
		'0',
		'--path-segment',
		'central',
		'--token',
		'cli-token',
		'--fichas',
		'20',
		'--calls',
		'20',
		'--envelope',
		'bare',
		'--row-order',
		'shuffled',
		'--late-writes-ms',
		'60000',
	];
	// node --import tsx runs in one process (the tsx binary would add a parent), so the PID is the simulator's.
	child = spawn(process.execPath, ['--import', 'tsx', ...args], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const stdoutLines: string[] = [];
	const lines = createInterface({ input: child.stdout! });
	lines.on('line', (line) => stdoutLines.push(line));
	let stderr = '';
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

	const [first] = (await Promise.race([
		once(lines, 'line'),
		once(child, 'exit').then(() => ['']),
	])) as string[];
	const started = JSON.parse(first);
	expect(started).toEqual({
		baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
		apiUrl: `${started.baseUrl}/central/api`,
		pathSegment: 'central',
		token: 'cli-token',
	});
	const answer = await send(`${started.apiUrl}/getTime`, 'cli-token');
	expect(answer.json().times.length).toBeGreaterThan(0);
	// Shuffled: the same history calls in other orders from one read to the next.
	const orders = new Set<string>();
	for (let read = 0; read < 4; read++) {
		const history = await send(`${started.apiUrl}/getRQ4`, 'cli-token', lastDays(60));
		orders.add(JSON.stringify(history.json().map((row: { protocolo: string }) => row.protocolo)));
	}
	expect(orders.size).toBeGreaterThan(1);

	const exited = once(child, 'exit');
	process.kill(child.pid!, 'SIGTERM');
	const [code] = await exited;
	expect(code).toBe(0);
	expect(stdoutLines).toHaveLength(1);
	expect(stderr).toContain('SIGTERM');
}, 20_000);
