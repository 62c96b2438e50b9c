/**
 * Runs real-n8n test files in the order their project's `testMatch` lists them (test/setup/lanes.js
 * puts the timing-sensitive suites first). Unit tests, matched by globs, keep Jest's default order
 * (slowest first, which keeps every core busy).
 */
const Sequencer = require('@jest/test-sequencer').default;

const listedPosition = (test) =>
	test.context.config.testMatch.findIndex((entry) =>
		test.path.endsWith(entry.replace('<rootDir>', '')),
	);

class ListedOrder extends Sequencer {
	sort(tests) {
		if (tests.some((test) => listedPosition(test) === -1)) return super.sort(tests);
		return [...tests].sort((a, b) => listedPosition(a) - listedPosition(b));
	}
}

module.exports = ListedOrder;
