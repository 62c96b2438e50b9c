/**
 * The package as users install it: n8n must list every node and credential type that
 * package.json's "n8n" section declares, so this grows with the package by itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { N8nApi } from '../../harness/n8n/api';
import { connectN8n } from './setup/connection';

const root = path.resolve(__dirname, '..', '..');
const load = createRequire(__filename);
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};

/** Instantiates each class a built file exports, the way n8n's loader does. */
function exportedInstances(file: string): Array<Record<string, unknown>> {
	const exports = load(path.join(root, file)) as Record<string, new () => Record<string, unknown>>;
	return Object.values(exports)
		.filter((value) => typeof value === 'function')
		.map((Type) => new Type());
}

const declaredCredentialTypes = manifest.n8n.credentials.flatMap((file) =>
	exportedInstances(file).map((credential) => ({ file, name: String(credential.name) })),
);
const declaredNodeTypes = manifest.n8n.nodes.flatMap((file) =>
	exportedInstances(file).map((node) => ({
		file,
		// Node types are namespaced by the package name, as for any community package.
		name: `${manifest.name}.${(node.description as { name: string }).name}`,
	})),
);

describe('n8n loads the package', () => {
	let api: N8nApi;

	beforeAll(async () => {
		api = await connectN8n();
	});

	it.each(declaredCredentialTypes)(
		'the $name credential type is available ($file)',
		async ({ name }) => {
			expect(await api.credentialTypeNames()).toContain(name);
		},
	);

	it('the Dialer API credential type is available', async () => {
		expect(await api.credentialTypeNames()).toContain('dialerApi');
	});

	if (declaredNodeTypes.length > 0) {
		it.each(declaredNodeTypes)('the $name node type is available ($file)', async ({ name }) => {
			expect(await api.nodeTypeNames()).toContain(name);
		});
	}
});
