/**
 * How long the Dialer Trigger's secret check takes for the right secret and for secrets differing
 * in their first or their last byte: a measurement, not a check (the unit tests assert the calls it
 * makes to node:crypto are the same whatever the header holds). Medians per call over rounds of
 * calls, the variants' order rotated every round so none always runs first.
 *
 *   npx tsx harness/bench/probes/secretCheckTime.ts [--rounds 200] [--calls 1000]
 */
import { parseArgs } from 'node:util';

import { digestSecret, headerMatchesSecrets } from '../../../nodes/DialerTrigger/verification';
import { summarize } from '../lib/stats';

const { values } = parseArgs({
	options: {
		rounds: { type: 'string', default: '200' },
		calls: { type: 'string', default: '1000' },
	},
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);

const SECRET = 'k7#Pq9-long-shared-secret-0123456789abcdefghijklmnopqrstuvwxyzAB';
const expected = [digestSecret(SECRET) as Buffer];
const variants = {
	'right secret': SECRET,
	'first byte differs': `X${SECRET.slice(1)}`,
	'last byte differs': `${SECRET.slice(0, -1)}X`,
};
const names = Object.keys(variants) as Array<keyof typeof variants>;
const perCallNs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));

for (let round = 0; round < rounds; round++) {
	for (let i = 0; i < names.length; i++) {
		const name = names[(round + i) % names.length];
		const header = variants[name];
		const started = process.hrtime.bigint();
		for (let call = 0; call < calls; call++) headerMatchesSecrets(header, expected);
		perCallNs[name].push(Number(process.hrtime.bigint() - started) / calls);
	}
}

const summaries = Object.fromEntries(names.map((name) => [name, summarize(perCallNs[name])]));
console.log(
	[
		`secret check, median per call over ${rounds} rounds of ${calls} calls (${SECRET.length}-character secret):`,
		...names.map((name) => {
			const { median, min, max } = summaries[name];
			return `${name.padEnd(20)} ${median.toFixed(0).padStart(6)} ns  (min ${min.toFixed(0)}, max ${max.toFixed(0)})`;
		}),
		`last-byte / first-byte median ratio: ${(summaries['last byte differs'].median / summaries['first byte differs'].median).toFixed(3)}`,
	].join('\n'),
);
