/**
 * A throw-away PostgreSQL cluster on 127.0.0.1 (`initdb` + `postgres`, not the system service),
 * with a password user; n8n's tables go in the cluster's own `postgres` database. The server is
 * PostgreSQL 17 from npm, or Debian's (./postgresBinaries.ts). As root it runs as the `postgres`
 * user (created when missing), since PostgreSQL refuses to run as root.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort } from '../n8n/instance';
import { ensurePostgresBinaries } from './postgresBinaries';
import { spawnService, waitUntil, type ServiceProcess } from './process';

const HOST = '127.0.0.1';
const execFileAsync = promisify(execFile);

export interface PostgresServer extends ServiceProcess {
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
	/** `postgres --version`, e.g. `postgres (PostgreSQL) 17.10`. */
	version: string;
}

/** Root runs the cluster as `postgres` (a system user made here if no package made it). */
async function clusterOwner(): Promise<{ uid: number; gid: number } | undefined> {
	if (process.getuid?.() !== 0) return undefined;
	const id = async (flag: string) =>
		Number((await execFileAsync('id', [flag, 'postgres'])).stdout.trim());
	await id('-u').catch(() =>
		execFileAsync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']),
	);
	return { uid: await id('-u'), gid: await id('-g') };
}

/**
 * Whether the server takes connections: it answers a startup message with an authentication
 * request ('R'), and with an error ('E') while it is still starting or shutting down.
 */
export function acceptsConnections(port: number, user: string, database: string): Promise<boolean> {
	const params = Buffer.from(`user\0${user}\0database\0${database}\0\0`);
	const startup = Buffer.alloc(8 + params.length);
	startup.writeInt32BE(startup.length, 0);
	startup.writeInt32BE(196608, 4); // protocol 3.0
	params.copy(startup, 8);
	return new Promise((resolve) => {
		const socket = connect({ host: HOST, port }, () => socket.write(startup));
		const done = (ready: boolean) => {
			socket.destroy();
			resolve(ready);
		};
		socket.setTimeout(2000, () => done(false));
		socket.once('data', (answer) => done(answer[0] === 0x52));
		socket.once('error', () => done(false));
		socket.once('close', () => done(false));
	});
}

export async function startPostgres(options: { keep?: boolean } = {}): Promise<PostgresServer> {
	const { bin, version } = await ensurePostgresBinaries();
	const owner = await clusterOwner();
	const dir = await mkdtemp(path.join(os.tmpdir(), 'n8n-dialer-postgres-'));
	const dataDir = path.join(dir, 'data');
	const passwordFile = path.join(dir, 'password');
	const user = 'n8n';
	const password = randomBytes(12).toString('hex');
	const database = 'postgres';
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
		const ready = () => acceptsConnections(port, user, database);
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
		return Object.assign(server, { host: HOST, port, user, password, database, version });
	} catch (error) {
		if (server) await server.stop();
		else if (!options.keep) await rm(dir, { recursive: true, force: true });
		throw error;
	}
}
