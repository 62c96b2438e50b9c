/**
 * The real-n8n part of `npm test`: the lanes of test/setup/lanes.js at once, each lane's jest
 * projects one after the other (each with its own n8n). Output lines carry their lane's name.
 * Exits non-zero when any project fails; every lane runs to its end, so one run shows every
 * failure. `npm run test:all` sets DIALER_TEST_ALL=1 for the whole matrix.
 */
import { concurrently } from 'concurrently';

import { lanes } from '../test/setup/lanes';

// Files before --selectProjects, which takes every later word as a project name.
const jest = ([project, files]: [string, string[]]) =>
	`npx jest ${files.join(' ')} --selectProjects ${project} --runInBand`;

const { result } = concurrently(
	Object.entries(lanes).map(([name, projects]) => ({
		name,
		command: projects.map(jest).join(' && '),
	})),
	{ prefix: '{time} {name}', timestampFormat: 'HH:mm:ss' },
);

result.then(
	() => process.exit(0),
	() => process.exit(1),
);
