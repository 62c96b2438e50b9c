/**
 * A throw-away PostgreSQL cluster on 127.0.0.1 (`initdb` + `postgres`, not the system service),
 * with a password user and one database. As root it runs as the `postgres` user the Debian
 * package creates, since PostgreSQL refuses to run as root.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort } from '../n8n/instance';
import { spawnService, waitUntil, type ServiceProcess } from './process';

export const POSTGRES_PACKAGE = 'postgresql';
const HOST = '127.0.0.1';
const execFileAsync = promisify(execFile);

export interface PostgresServer extends ServiceProcess {
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
}

/** The newest server version the Debian packages installed (/usr/lib/postgresql/<major>/bin). */
async function binDir(): Promise<string> {
	const root = '/usr/lib/postgresql';
	const versions = (await readdir(root).catch(() => []))
		.filter((v) => /^\d+$/.test(v))
		.sort((a, b) => +b - +a);
	if (versions.length === 0)
		throw new Error(`no PostgreSQL server under ${root}: install the ${POSTGRES_PACKAGE} package`);
	return path.join(root, versions[0], 'bin');
}

/** Root runs the cluster as `postgres`; anyone else as themselves. */
async function clusterOwner(): Promise<{ uid: number; gid: number } | undefined> {
	if (process.getuid?.() !== 0) return undefined;
	const id = async (flag: string) =>
		Number((await execFileAsync('id', [flag, 'postgres'])).stdout.trim());
	return { uid: await id('-u'), gid: await id('-g') };
}

export async function startPostgres(options: { keep?: boolean } = {}): Promise<PostgresServer> {
	const bin = await binDir();
	const owner = await clusterOwner();
	const dir = await mkdtemp(path.join(os.tmpdir(), 'n8n-dialer-postgres-'));
	const dataDir = path.join(dir, 'data');
	const passwordFile = path.join(dir, 'password');
	const user = 'n8n';
	const password = randomBytes(12).toString('hex');
	const database = 'n8n';
	await writeFile(passwordFile, password, { mode: 0o600 });
	if (owner) {
		await chown(dir, owner.uid, owner.gid);
		await chown(passwordFile, owner.uid, owner.gid);
		await chmod(dir, 0o700);
	}
	const asOwner = { ...owner, cwd: dir };
	let server: ServiceProcess | undefined;
	try {
		await execFileAsync(
			path.join(bin, 'initdb'),
			[
				'-D',
				dataDir,
				'-U',
				user,
				`--pwfile=${passwordFile}`,
				'--auth-local=trust',
				'--auth-host=scram-sha-256',
				'-E',
				'UTF8',
				'--no-sync',
			],
			asOwner,
		);
		const port = await freePort();
		const logFile = path.join(dir, 'postgres.log');
		const isReady = path.join(bin, 'pg_isready');
		const ready = async () => {
			await execFileAsync(isReady, ['-h', HOST, '-p', String(port), '-U', user, '-d', 'postgres']);
			return true;
		};
		server = spawnService(
			path.join(bin, 'postgres'),
			// Socket in its own folder (not /var/run/postgresql); fsync off: the data is thrown away.
			[
				'-D',
				dataDir,
				'-h',
				HOST,
				'-p',
				String(port),
				'-k',
				dir,
				'-c',
				'fsync=off',
				'-c',
				'max_connections=200',
			],
			// SIGINT is PostgreSQL's fast shutdown (`pg_ctl stop`'s default): SIGTERM would wait
			// for n8n to close its connections.
			{ dir, logFile, keep: options.keep ?? false, ...owner, stopSignal: 'SIGINT', ready },
		);
		await waitUntil(`PostgreSQL on port ${port} (log ${logFile})`, ready);
		await execFileAsync(
			path.join(bin, 'createdb'),
			['-h', HOST, '-p', String(port), '-U', user, database],
			{
				env: { ...process.env, PGPASSWORD: password },
			},
		);
		return Object.assign(server, { host: HOST, port, user, password, database });
	} catch (error) {
		if (server) await server.stop();
		else if (!options.keep) await rm(dir, { recursive: true, force: true });
		throw error;
	}
}
