/**
 * Where Read/Write Files from Disk can write in a real n8n laid out as n8n's Docker image is
 * (HOME, N8N_USER_FOLDER and the working folder one and the same folder, as /home/node), with
 * n8n's default file-access settings: the examples' default output folder (`.n8n-files`, read
 * from their Settings nodes) before and after `~/.n8n-files` exists, and the values it replaced.
 *
 * CLI: `npx tsx harness/n8n/file-access.ts [version]` (e.g. `1.123.81`; default the newest 2.x;
 * `npm run build` first). Prints one line per path, n8n's answer or error, then the files that
 * landed in `~/.n8n-files`. Starts one n8n on 127.0.0.1 and stops it, its folder (every file
 * written included) removed, before it exits.
 */
import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { N8nApi } from './api';
import {
	freePort,
	installPackage,
	n8nEnv,
	newOwner,
	packProject,
	PROJECT_ROOT,
	provisionOwner,
	spawnN8n,
	waitForReady,
} from './instance';
import { ensureRuntime } from './runtime';

/** The output folder the examples that write files default to (their Settings node). */
async function examplesDefaultFolder(): Promise<string> {
	const file = path.join(PROJECT_ROOT, 'examples', 'filled-forms-to-disk.json');
	const { nodes } = JSON.parse(await readFile(file, 'utf8')) as {
		nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
	};
	const { assignments } = nodes.find((node) => node.name === 'Settings')?.parameters
		.assignments as { assignments: Array<{ name: string; value: string }> };
	return assignments.find((assignment) => assignment.name === 'outputFolder')!.value;
}

/** Writes one small file to `fileName` through a webhook workflow; n8n's answer or error. */
async function tryWrite(api: N8nApi, fileName: string): Promise<string> {
	const hook = await api.createWebhookWorkflow([
		{
			name: 'Make File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			parameters: { operation: 'toJson', options: {} },
		},
		{
			name: 'Write',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1,
			onError: 'continueRegularOutput',
			parameters: { operation: 'write', fileName, dataPropertyName: 'data', options: {} },
		},
	]);
	try {
		const { body } = await hook.post<Array<Record<string, unknown>>>({ probe: true });
		const item = Array.isArray(body) ? body[0] : undefined;
		return item?.error ? `error: ${String(item.error)}` : `written: ${String(item?.fileName)}`;
	} finally {
		await hook.remove();
	}
}

async function main(version?: string): Promise<void> {
	const rt = await ensureRuntime({ version });
	const home = await mkdtemp(path.join(os.tmpdir(), 'n8n-dialer-file-access-'));
	await installPackage(home, await packProject(home, false));
	const [port, brokerPort] = [await freePort(), await freePort()];
	const owner = newOwner('files');
	const env = n8nEnv(rt, { userFolder: home, port, brokerPort, owner }, { HOME: home });
	const n8n = await spawnN8n(rt, { command: 'start', userFolder: home, env });
	const folder = await examplesDefaultFolder();
	try {
		const baseUrl = `http://127.0.0.1:${port}`;
		await waitForReady(baseUrl, n8n.child, n8n.logFile, ['/rest/settings']);
		const api = await provisionOwner(rt, baseUrl, owner);
		const report = async (label: string, fileName: string) =>
			console.log(`${label.padEnd(44)} ${fileName.padEnd(44)} ${await tryWrite(api, fileName)}`);
		console.log(`n8n ${rt.n8nVersion}, HOME = user folder = working folder = ${home}`);
		await report("examples' default, ~/.n8n-files missing", `${folder}/a.csv`);
		await report('the old default (n8n Docker path)', '/home/node/.n8n-files/dialer/b.csv');
		await mkdir(path.join(home, '.n8n-files'));
		await report("examples' default, ~/.n8n-files created", `${folder}/c.csv`);
		await report('a subfolder not created', `${folder}/dialer/d.csv`);
		await report('"~" written out', '~/.n8n-files/e.csv');
		await report('$env.HOME', '={{ $env.HOME }}/.n8n-files/f.csv');
		await report('outside ~/.n8n-files', path.join(home, 'g.csv'));
		const landed = await readdir(path.join(home, '.n8n-files'));
		console.log(`in ${path.join(home, '.n8n-files')}: ${landed.join(', ') || 'nothing'}`);
	} finally {
		await n8n.stop();
	}
}

main(process.argv[2]).catch((error: Error) => {
	console.error(error.stack ?? error.message);
	process.exitCode = 1;
});
