/**
 * Every process-wide cache lives in nodes/shared/processCaches.ts, which says the cost each
 * avoids: no other file of nodes/ keeps a module-level Map or WeakMap, or a module-level `let`,
 * but the state and the caches listed below, each with the reason it is not there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CACHES = 'nodes/shared/processCaches.ts';

const elsewhere: Record<string, string> = {
	// Labels of one run's context, held weakly: not memory across runs.
	'nodes/shared/transport/errors.ts: callNames': 'per-run labels',
	// The Dialer Report Trigger's own, for its maintainers to move (see processCaches.ts).
	'nodes/DialerReportTrigger/clockCheck.ts: checks': 'report trigger',
	'nodes/DialerReportTrigger/overlappingPolls.ts: recentEmits': 'report trigger',
};

const files = (readdirSync(path.join(ROOT, 'nodes'), { recursive: true }) as string[])
	.filter((file) => file.endsWith('.ts'))
	.map((file) => path.posix.join('nodes', file.split(path.sep).join('/')));

/** `file: name` of each top-level `let`, and of each top-level `new Map` or `new WeakMap`. */
function moduleMemory(file: string): string[] {
	const text = readFileSync(path.join(ROOT, file), 'utf8');
	const declared = /^(?:export )?(?:let (\w+)|const (\w+)\s*(?::[^=]+)?=\s*new (?:Weak)?Map\b)/gm;
	return [...text.matchAll(declared)].map((match) => `${file}: ${match[1] ?? match[2]}`);
}

it('finds the caches it holds in processCaches.ts', () => {
	expect(moduleMemory(CACHES)).toEqual(
		[
			'credentialReadsByRun',
			'pollCredentialReads',
			'webhookSecretDigests',
			'allowedAddressLists',
			'steadyZoneOffsets',
		].map((name) => `${CACHES}: ${name}`),
	);
});

it('finds no other module-level Map, WeakMap or let in nodes/ but the ones it lists', () => {
	const found = files.filter((file) => file !== CACHES).flatMap(moduleMemory);
	expect(found.sort()).toEqual(Object.keys(elsewhere).sort());
});
