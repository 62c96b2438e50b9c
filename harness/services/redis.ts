/** A throw-away Redis on 127.0.0.1: no persistence, data and log in its own temp folder. */
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort } from '../n8n/instance';
import { spawnService, waitUntil, type ServiceProcess } from './process';

export const REDIS_PACKAGE = 'redis-server';
const REDIS_BIN = '/usr/bin/redis-server';
const HOST = '127.0.0.1';

export interface RedisServer extends ServiceProcess {
	host: string;
	port: number;
}

/** One inline PING, so readiness needs no redis-cli. */
function ping(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, HOST);
		socket.setTimeout(1000);
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (data) => {
			socket.destroy();
			resolve(data.toString().startsWith('+PONG'));
		});
		socket.once('timeout', () => socket.destroy());
		socket.once('error', () => resolve(false));
		socket.once('close', () => resolve(false));
	});
}

const PERSISTENCE: Record<NonNullable<RedisOptions['persistence']>, string[]> = {
	none: ['--save', '', '--appendonly', 'no'],
	snapshot: ['--appendonly', 'no'],
	aof: ['--appendonly', 'yes', '--appendfsync', 'everysec'],
};

export interface RedisOptions {
	keep?: boolean;
	/**
	 * `none` (default): the queue lives in memory only, and a restart empties it. `snapshot`:
	 * Redis's own default (no configuration file), a snapshot written at shutdown and read at start.
	 * `aof`: every write also appended to a file (fsync each second), so a crash keeps the queue too.
	 */
	persistence?: 'none' | 'snapshot' | 'aof';
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
	const dir = await mkdtemp(path.join(os.tmpdir(), 'n8n-dialer-redis-'));
	const port = await freePort();
	const logFile = path.join(dir, 'redis.log');
	const server = spawnService(
		REDIS_BIN,
		[
			'--bind',
			HOST,
			'--port',
			String(port),
			'--dir',
			dir,
			...PERSISTENCE[options.persistence ?? 'none'],
			'--logfile',
			logFile,
		],
		{ dir, logFile, keep: options.keep ?? false, ready: () => ping(port) },
	);
	try {
		await waitUntil(`Redis on port ${port} (log ${logFile})`, () => ping(port));
	} catch (error) {
		await server.stop();
		throw error;
	}
	return Object.assign(server, { host: HOST, port });
}
