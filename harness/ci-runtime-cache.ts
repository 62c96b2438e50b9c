/**
 * The GitHub Actions cache entry for the n8n runtimes, derived from harness/n8n/runtime.ts so it
 * cannot drift from what the tests install: one directory per n8n version and per Node major,
 * and a key naming them plus a hash of their install recipe (a new override is a new key).
 *
 * CLI: `npx tsx harness/ci-runtime-cache.ts >> "$GITHUB_OUTPUT"` writes `key=` and `paths=`.
 */
import { createHash } from 'node:crypto';

import { N8N_VERSIONS, runtimePaths } from './n8n/runtime';

export function runtimeCache(): { key: string; paths: string[] } {
	const versions = Object.keys(N8N_VERSIONS).sort();
	const runtimes = versions.map((version) => runtimePaths(version));
	const paths = [...new Set(runtimes.flatMap((rt) => [rt.nodePrefix, rt.n8nDir]))];
	const recipe = createHash('sha256')
		.update(JSON.stringify(versions.map((version) => [version, N8N_VERSIONS[version]])))
		.digest('hex')
		.slice(0, 12);
	const names = versions.map((version) => `n8n-${version}-node${N8N_VERSIONS[version].node}`);
	return {
		key: `n8n-runtimes-${process.platform}-${process.arch}-${names.join('-')}-${recipe}`,
		paths,
	};
}

if (require.main === module) {
	const { key, paths } = runtimeCache();
	process.stdout.write(`key=${key}\npaths<<EOF\n${paths.join('\n')}\nEOF\n`);
}
