/**
 * What ships stays in files people can read whole (DEVELOPERS.md: no product file over 300
 * lines): a file that grows past it splits by job (CONTRIBUTING, Layout).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MAX_LINES = 300;

it(`no file of nodes/ or credentials/ is over ${MAX_LINES} lines`, () => {
	const files = ['nodes', 'credentials'].flatMap((dir) =>
		(readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
			.filter((file) => file.endsWith('.ts'))
			.map((file) => path.join(dir, file)),
	);
	const lines = (file: string) =>
		readFileSync(path.join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length;
	expect(files.length).toBeGreaterThan(10);
	expect(files.filter((file) => lines(file) > MAX_LINES)).toEqual([]);
});
