/**
 * README "Install", from a packed tarball: the README's commands run as written, in an empty home
 * folder, and n8n then lists the package's nodes. `npm ci`, the first command, is where this
 * test run itself started from, so it is the one line not repeated here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '../../harness/n8n/instance';
import { cleanNpmEnv, runtimePaths } from '../../harness/n8n/runtime';

const ROOT = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	n8n: { nodes: string[] };
};
const load = createRequire(__filename);
const TARBALL = `${manifest.name}-${manifest.version}.tgz`;

/** The bash blocks of the README's "Install" section, in order. */
function installBlocks(): string[][] {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const section = readme.slice(
		readme.indexOf('\n## Install\n'),
		readme.indexOf('\n## Credentials\n'),
	);
	return [...section.matchAll(/```bash\n([^]*?)```/g)].map((match) => match[1].trim().split('\n'));
}

/** `<package>.<node name>` of every node package.json declares, read from the built classes. */
function declaredNodeTypes(): string[] {
	return manifest.n8n.nodes.flatMap((file) =>
		Object.values(
			load(path.join(ROOT, file)) as Record<string, new () => { description: { name: string } }>,
		)
			.filter((value) => typeof value === 'function')
			.map((Type) => `${manifest.name}.${new Type().description.name}`),
	);
}

const [packCommands, installCommands, dockerCommands] = installBlocks();
let work: string;
let home: string;

/** Runs README lines with bash, stopping at the first that fails, as a user pasting them would notice. */
function bash(lines: string[], cwd: string): void {
	execFileSync('bash', ['-euo', 'pipefail', '-c', lines.join('\n')], {
		cwd,
		env: {
			...cleanNpmEnv(),
			HOME: home,
			// The machine's npm cache: the commands are the README's, the downloads need not repeat.
			npm_config_cache: path.join(process.env.HOME ?? '', '.npm'),
			npm_config_prefer_offline: 'true',
			npm_config_update_notifier: 'false',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
}

beforeAll(() => {
	work = mkdtempSync(path.join(tmpdir(), 'dialer-readme-install-'));
	home = path.join(work, 'home');
	mkdirSync(home);
});

afterAll(() => {
	rmSync(work, { recursive: true, force: true });
	rmSync(path.join(ROOT, TARBALL), { force: true });
});

describe('README "Install" from a packed tarball', () => {
	it(`names the tarball npm pack writes for this version (${TARBALL}) in every command`, () => {
		expect(packCommands).toEqual(['npm ci', 'npm run build', 'npm pack']);
		const named = [...installCommands, ...dockerCommands].join('\n').match(/\S+\.tgz/g);
		expect(named?.map((file) => path.basename(file))).toEqual(Array(4).fill(TARBALL));
	});

	it('the Docker commands run the same npm install in the same folder of the container', () => {
		const npmInstall = installCommands.find((line) => line.startsWith('npm install'));
		expect(dockerCommands.some((line) => line.endsWith(` n8n ${npmInstall}`))).toBe(true);
		expect(dockerCommands.join('\n')).toContain('-w /home/node/.n8n/nodes');
	});

	it('packs and installs as written, and n8n then lists the nodes', async () => {
		bash(packCommands.slice(1), ROOT);
		expect(existsSync(path.join(ROOT, TARBALL))).toBe(true);
		bash(installCommands, ROOT);
		expect(
			existsSync(path.join(home, '.n8n', 'nodes', 'node_modules', manifest.name, 'package.json')),
		).toBe(true);
		// n8n's peer is left out: the package resolves n8n-workflow from n8n itself.
		expect(existsSync(path.join(home, '.n8n', 'nodes', 'node_modules', 'n8n-workflow'))).toBe(
			false,
		);

		const rt = runtimePaths();
		const exported = path.join(work, 'nodes.json');
		execFileSync(rt.nodeBin, [rt.n8nBin, 'export:nodes', `--output=${exported}`], {
			cwd: work,
			env: {
				PATH: `${path.dirname(rt.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
				HOME: home,
				N8N_PORT: String(await freePort()),
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				N8N_DIAGNOSTICS_ENABLED: 'false',
				N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const nodeTypes = (JSON.parse(readFileSync(exported, 'utf8')) as Array<{ name: string }>).map(
			(node) => node.name,
		);
		for (const name of declaredNodeTypes()) expect(nodeTypes).toContain(name);
	});
});
