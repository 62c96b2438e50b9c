const { src, dest, parallel } = require('gulp');

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

exports['build:assets'] = parallel(copyIcons, copyCodex);
