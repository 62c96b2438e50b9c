/** Section soak on the page: each setting and rate against the goals, and memory over time. */
import type { SoakPoint, SoakResult } from '../scenarios/soak';
import { mb, ms, verdict } from './format';

const env = (settings: Record<string, string>) =>
	Object.entries(settings)
		.map(([name, value]) => `\`${name}=${value}\``)
		.join(', ') || 'none';

const percentiles = ({ p50, p99, max }: SoakPoint['savedAfterSecondMs']) =>
	`${ms(p50)} / ${ms(p99)} / ${ms(max)}`;

/** RSS every minute of the shift, from the 5-s samples. */
const memoryByMinute = (point: SoakPoint) =>
	point.samples
		.filter(
			(sample, i) =>
				i === 0 || Math.floor(sample.atS / 60) > Math.floor(point.samples[i - 1].atS / 60),
		)
		.map((sample) => (Number.isFinite(sample.rssMb) ? Math.round(sample.rssMb) : '–'))
		.join(' → ');

const perMinute = (value: number) =>
	Number.isFinite(value) ? `${value.toFixed(1)} MB/min` : 'not measured (too short)';

const count = (value: number) => (Number.isFinite(value) ? String(value) : '–');

const stoppedWhen = (point: SoakPoint) =>
	point.stoppedAtS! > point.minutes * 60
		? `n8n stopped ${point.stoppedAtS! - point.minutes * 60} s after the shift`
		: `shift and n8n stopped at ${point.stoppedAtS} s`;

export function soakSection(result: SoakResult, machine: 'quiet' | 'busy' = 'quiet'): string[] {
	const { goals } = result;
	const extra = Object.entries(result.env).map(([name, value]) => `\`${name}=${value}\``);
	return [
		machine === 'quiet'
			? `## 7. Shift soak: the supervision examples at ${result.rates.join(', ')} events/s`
			: `## 8. Shift soak on a busy machine: a core taken, at ${result.rates.join(', ')} events/s`,
		'',
		...(machine === 'busy'
			? [
					"As section 7, with another process taking one of the machine's cores for the whole shift: how late alerts come when n8n shares the machine, and that none is wrong.",
					'',
				]
			: []),
		`The live alerts (\`examples/live-pause-alerts-to-file.json\`), the agent board and the wallboard active as users run them, each rate in a fresh n8n for ${result.minutes} minutes of the simulator's shift${extra.length ? `, with ${extra.join(', ')}` : ''}. Probe agents add pauses with a 90-s maximum every 15 s, one ending in time and one not; alerts and the board are checked against the reference model over the events n8n accepted. Every 5 s (the wallboard page's refresh) the wallboard's data is requested and n8n's memory (RSS of its process group) and executions read. Held: nothing lost or unsaved, every alert right and at most ${ms(goals.alertP99Ms)} after the maximum at p99 (the example waits for late deliveries: 2 s when measured, 5 s since), the wallboard's data within ${ms(goals.wallboardP99Ms)} at p99, memory growing at most ${goals.memoryMbPerMinute} MB a minute after the first 2 minutes (the highest RSS of the last half of those minutes against the highest of the first half: garbage collection drops RSS by hundreds of MB at moments of its own, a leak raises every peak). The shift's own pauses last 10 to 60 minutes, so the executions waiting for them only accumulate during a run. Once n8n's memory passes half the machine's (${mb(result.memoryCeilingMb)}), during the shift or after it, the shift and n8n are stopped and only what was measured until then is shown.`,
		'',
		'| Settings | Events/s | Lost / unsaved | Saved after its second p50 / p99 / max | Alerts right | Alert late p50 / p99 / max | Wallboard p50 / p99 / max (failed) | Board wrong | Executions running / waiting (max) | Memory after warm-up | Held |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
		...result.points.map((p) =>
			p.stoppedAtS !== undefined
				? `| ${p.settings} (${env(p.env)}) | ${p.rate} | ${p.lost} of ${p.sent} until stopped / – | – | – | – | ${percentiles(p.wallboard)} (${p.wallboard.failed}) | – | ${count(p.executions.runningMax)} / ${count(p.executions.waitingMax)} | ${mb(p.memory.startMb)} → ${mb(p.memory.peakMb)} | ${verdict(false)}: ${stoppedWhen(p)}, memory over ${mb(result.memoryCeilingMb)} |`
				: `| ${p.settings} (${env(p.env)}) | ${p.rate} | ${p.lost} / ${p.unsaved} | ${percentiles(p.savedAfterSecondMs)} | ${p.alerts.alerted} of ${p.alerts.expected}, ${p.alerts.wrong} wrong | ${percentiles(p.alerts.lateMs)} | ${percentiles(p.wallboard)} (${p.wallboard.failed}) | ${p.boardWrong} | ${count(p.executions.runningMax)} / ${count(p.executions.waitingMax)} | ${mb(p.memory.startMb)} → ${mb(p.memory.endMb)}, ${perMinute(p.memory.mbPerMinuteAfterWarmUp)} | ${verdict(p.held)} |`,
		),
		'',
		'Memory (RSS, MB) minute by minute:',
		'',
		'| Settings | Events/s | Each minute |',
		'|---|---|---|',
		...result.points.map((p) => `| ${p.settings} | ${p.rate} | ${memoryByMinute(p)} |`),
		'',
	];
}
