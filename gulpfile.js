const { existsSync, readdirSync, rmdirSync, rmSync, statSync } = require('node:fs');
const path = require('node:path');
const { src, dest, parallel, series } = require('gulp');

// tsc only emits JavaScript; icons and codex files are copied beside the compiled nodes.
function copyIcons() {
	return src(['icons/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

/** The source a dist/ file is built or copied from, or undefined for a file no build produces. */
function sourceOf(distFile) {
	const compiled = distFile.match(/^(.*)\.(?:js|d\.ts)$/);
	if (compiled) return `${compiled[1]}.ts`;
	if (/\.(?:svg|node\.json)$/.test(distFile)) return distFile;
	return undefined;
}

/**
 * tsc never deletes, so a moved or removed source (or a setting such as source maps switched off)
 * would leave old files in dist/ for npm to publish. Removes them after the build instead of
 * emptying dist/ first, so nothing reading dist/ meanwhile finds it half-built.
 */
function removeStaleOutputs(done) {
	const entries = readdirSync('dist', { recursive: true }).sort().reverse();
	for (const entry of entries) {
		const file = path.join('dist', entry);
		if (statSync(file).isDirectory()) {
			if (readdirSync(file).length === 0) rmdirSync(file);
			continue;
		}
		const source = sourceOf(entry);
		if (!source || !existsSync(source)) rmSync(file);
	}
	done();
}

exports['build:assets'] = series(parallel(copyIcons, copyCodex), removeStaleOutputs);
