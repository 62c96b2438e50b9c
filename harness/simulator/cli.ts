/**
 * Command line: starts the simulator and prints ONE JSON line with its addresses on stdout
 * (scripts parse it); everything else goes to stderr. Stops cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startSimulator } from './index';
import type { EnvelopeMode, FichaSaves, PermissionMode, RecordingLinks, RowOrder } from './types';

const { values } = parseArgs({
	options: {
		host: { type: 'string' },
		port: { type: 'string' },
		'path-segment': { type: 'string' },
		token: { type: 'string' },
		tls: { type: 'boolean' },
		seed: { type: 'string' },
		fichas: { type: 'string' },
		calls: { type: 'string' },
		'permission-mode': { type: 'string' },
		envelope: { type: 'string' },
		'ids-as-strings': { type: 'boolean' },
		timezone: { type: 'string' },
		webhook: { type: 'string', multiple: true },
		'webhook-secret': { type: 'string' },
		'shift-rate': { type: 'string' },
		'recording-links': { type: 'string' },
		'row-order': { type: 'string' },
		'late-writes-ms': { type: 'string' },
		'ficha-saves': { type: 'string' },
	},
	strict: true,
});

function number(name: string, text: string | undefined): number | undefined {
	if (text === undefined) return undefined;
	const value = Number(text);
	if (!Number.isFinite(value) || value < 0)
		throw new Error(`--${name} must be a non-negative number, got ${text}`);
	return value;
}

function oneOf<T extends string>(
	name: string,
	text: string | undefined,
	allowed: readonly T[],
): T | undefined {
	if (text === undefined) return undefined;
	if (!allowed.includes(text as T))
		throw new Error(`--${name} must be one of ${allowed.join(', ')}`);
	return text as T;
}

async function main() {
	const simulator = await startSimulator({
		host: values.host,
		port: number('port', values.port),
		pathSegment: values['path-segment'],
		token: values.token,
		tls: values.tls,
		seed: number('seed', values.seed),
		fichas: number('fichas', values.fichas),
		calls: number('calls', values.calls),
		permissionMode: oneOf<PermissionMode>('permission-mode', values['permission-mode'], [
			'off',
			'team',
			'operation',
		]),
		envelope: oneOf<EnvelopeMode>('envelope', values.envelope, ['data', 'bare']),
		idsAsStrings: values['ids-as-strings'],
		timezone: values.timezone,
		recordingLinks: oneOf<RecordingLinks>('recording-links', values['recording-links'], [
			'absolute',
			'relative',
			'storage',
		]),
		rowOrder: oneOf<RowOrder>('row-order', values['row-order'], ['written', 'shuffled']),
		lateWritesMs: number('late-writes-ms', values['late-writes-ms']),
		fichaSaves: oneOf<FichaSaves>('ficha-saves', values['ficha-saves'], [
			'fixed',
			'redated',
			'filteredBySave',
		]),
	});
	for (const url of values.webhook ?? [])
		simulator.webhooks.register({ url, secret: values['webhook-secret'] });
	const shiftRate = number('shift-rate', values['shift-rate']);
	if (shiftRate) simulator.shift.start({ eventsPerSecond: shiftRate });

	const { baseUrl, apiUrl, pathSegment, token } = simulator;
	process.stdout.write(`${JSON.stringify({ baseUrl, apiUrl, pathSegment, token })}\n`);
	console.error(`dialer simulator listening on ${apiUrl} (control API: ${baseUrl}/__simulator/)`);

	const stop = (signal: string) => {
		console.error(`${signal} received, stopping`);
		simulator.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
