/**
 * The real-n8n part of `npm test`: the lanes of test/setup/lanes.js at once, each lane's jest
 * runs one after the other (each with its own n8n, running as many suites at once as listed).
 * The package is built and packed once, and every n8n of the run installs that tarball: otherwise
 * each would rebuild dist/ and pack it, at once, and a test that runs the README's build would
 * rewrite dist/ under another's pack.
 * Output lines carry their lane's name.
 * Exits non-zero when any project fails; every lane runs to its end, so one run shows every
 * failure. `npm run test:all` sets DIALER_TEST_ALL=1 for the whole matrix.
 *
 * `--prepare` only installs what the lanes' n8n need (each n8n version, Redis and PostgreSQL for
 * queue mode): `npm test` runs it beside the checks and unit tests, which leave the network and
 * much of the disk idle, so a clean machine's first real-n8n suite does not wait minutes for it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { concurrently } from 'concurrently';

import { lanes } from '../test/setup/lanes';
import { PACKED_TARBALL_ENV, packProject } from '../harness/n8n/instance';
import { ensureRuntime, N8N_VERSION, newestOfLine } from '../harness/n8n/runtime';
import { ensureDebianPackages } from '../harness/services/debian';
import { ensurePostgresBinaries } from '../harness/services/postgresBinaries';
import { REDIS_PACKAGE } from '../harness/services/redis';

// Files before --selectProjects, which takes every later word as a project name.
const jest = ([project, files, atOnce]: [string, string[], number]) =>
	`npx jest ${files.join(' ')} --selectProjects ${project} ${atOnce > 1 ? `--maxWorkers=${atOnce}` : '--runInBand'}`;

/** The n8n version each jest project of lanes.js starts (jest.config.js's `globals.n8nVersion`). */
const PROJECT_VERSIONS: Record<string, string | undefined> = {
	e2e: N8N_VERSION,
	'e2e-n8n1': newestOfLine(1),
	queue: N8N_VERSION,
};

async function prepare(): Promise<number> {
	const projects = new Set(
		Object.values(lanes)
			.flat()
			.map(([project]) => project),
	);
	const versions = new Set([...projects].map((project) => PROJECT_VERSIONS[project]));
	// In turn: the installs share the network and the disk.
	for (const version of versions) await ensureRuntime({ version });
	if (projects.has('queue')) {
		await ensureDebianPackages([REDIS_PACKAGE]);
		await ensurePostgresBinaries();
	}
	return 0;
}

async function main(): Promise<number> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'n8n-dialer-packed-'));
	try {
		const tarball = await packProject(folder, true);
		const { result } = concurrently(
			Object.entries(lanes).map(([name, projects]) => ({
				name,
				// Each project runs even when one before it failed; the lane fails if any did.
				command: `failed=0; ${projects.map((project) => `${jest(project)} || failed=1; `).join('')}exit $failed`,
				env: { [PACKED_TARBALL_ENV]: tarball },
			})),
			{ prefix: '{time} {name}', timestampFormat: 'HH:mm:ss' },
		);
		return await result.then(
			() => 0,
			() => 1,
		);
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

(process.argv.includes('--prepare') ? prepare() : main()).then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(error);
		process.exit(1);
	},
);
