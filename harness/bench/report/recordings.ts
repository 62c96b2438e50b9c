/** Section recordings on the page: each n8n setting's variants, the sweep, and the goals. */
import type { RecordingMeasure, RecordingSetting, RecordingsResult } from '../scenarios/recordings';
import { mb, ms, spread, verdict } from './format';

const settingName = (s: RecordingSetting) => (s.nodeOptions ? `\`${s.nodeOptions}\`` : 'defaults');
const VARIANTS = { dialer: 'Download Recordings', httpRequest: 'Report + HTTP Request (File)' };

/** What the file bytes add: the peak above the idle n8n less the one-second recordings' peak. */
const bytesAdded = (measure: RecordingMeasure, tiny: RecordingMeasure) =>
	measure.addedPeakMb.median - tiny.addedPeakMb.median;

function bytesCell(measure: RecordingMeasure, tiny: RecordingMeasure): string {
	const bytes = bytesAdded(measure, tiny);
	return bytes > 0
		? `${mb(bytes)} (${(bytes / measure.fileMb).toFixed(2)}× one file)`
		: `none: ${mb(-bytes)} below the baseline`;
}

const size = (fileMb: number) =>
	fileMb < 1 ? `${Math.round(fileMb * 1024)} kB` : `${fileMb.toFixed(1)} MB`;
const gcCell = ({ gc }: RecordingMeasure) =>
	gc ? `${Math.round(gc.minor)}, ${gc.full.toFixed(1)} (${ms(gc.fullMs)})` : '';
const files = (m: RecordingMeasure) => `${m.files} × ${size(m.fileMb)}`;

function settingRows(setting: RecordingSetting): string[] {
	const row = (name: string, m: RecordingMeasure, bytes: string, shown = files(m)) =>
		`| ${settingName(setting)} | ${name} | ${shown} | ${spread(m.ms, ms)} | ${spread(m.addedPeakMb, mb)} | ${bytes} | ${m.served} | ${gcCell(m)} |`;
	return setting.variants.flatMap(({ variant, tiny, all }) => [
		row(VARIANTS[variant], tiny, '', `${files(tiny)} (baseline)`),
		row(VARIANTS[variant], all, bytesCell(all, tiny)),
		...(variant === 'dialer' && setting.wider
			? [
					row(
						`${VARIANTS[variant]}, ${setting.wider.parallel} at a time`,
						setting.wider,
						bytesCell(setting.wider, tiny),
					),
				]
			: []),
	]);
}

interface SettingGoals {
	name: string;
	/** The node's bytes on the main run, in MB. */
	bytes: number;
	/** The point of the main run and the sweep where the bytes added most beside the file. */
	worst: { bytes: number; point: RecordingMeasure };
	time: number;
	/** The node at more downloads at a time, against the same HTTP Request runs. */
	wider?: { time: number; parallel?: number };
}

function goalsOf(setting: RecordingSetting): SettingGoals | undefined {
	const dialer = setting.variants.find((v) => v.variant === 'dialer');
	const http = setting.variants.find((v) => v.variant === 'httpRequest');
	if (!dialer || !http) return undefined;
	const bytes = bytesAdded(dialer.all, dialer.tiny);
	const worst = [dialer.all, ...setting.sweep]
		.map((point) => ({ bytes: bytesAdded(point, dialer.tiny), point }))
		.reduce((a, b) => (b.bytes / b.point.fileMb > a.bytes / a.point.fileMb ? b : a));
	return {
		name: settingName(setting),
		bytes,
		worst,
		time: dialer.all.ms.median / http.all.ms.median,
		wider: setting.wider && {
			time: setting.wider.ms.median / http.all.ms.median,
			parallel: setting.wider.parallel,
		},
	};
}

const added = (value: number) => (value > 0 ? mb(value) : 'none');
const worstCell = ({ bytes, point }: SettingGoals['worst']) =>
	bytes > 0 ? `worst ${mb(bytes)} at ${files(point)}` : 'none at any';

const timeCell = ({ time, wider }: SettingGoals) =>
	`${time.toFixed(2)}×: ${verdict(time <= 1)}` +
	(wider ? ` (${wider.parallel} at a time: ${wider.time.toFixed(2)}×)` : '');

/** Why the defaults miss, with this run's collections. */
function why(result: RecordingsResult): string[] {
	const dialerOf = (s: RecordingSetting) => s.variants.find((v) => v.variant === 'dialer')?.all;
	const [defaults, capped] = result.settings.map(dialerOf);
	if (!defaults?.gc || !capped?.gc) return [];
	const traffic = defaults.files * defaults.fileMb;
	return [
		`What the bytes add is not bodies: the node holds none (each chunk the socket reads goes on to n8n’s store, which writes it to disk and lets it go). It is those chunks after they are written, which V8 frees only when it collects their small JavaScript objects. A download makes little else for the young generation, so with n8n’s defaults it seldom fills (${Math.round(defaults.gc.minor)} minor collections per run of ${files(defaults)}): the chunks wait for a full collection, which V8 starts once enough of them has piled up (here one per ${Math.round(traffic / defaults.gc.full)} MB downloaded: ${defaults.gc.full.toFixed(0)} per run, taking ${ms(defaults.gc.fullMs)} of n8n’s main thread; V8 also marks on helper threads, which on 2 cores compete with n8n and the simulator). With the young generation capped at 1 MB, ${Math.round(capped.gc.minor)} minor collections per run free them as they go (${capped.gc.full.toFixed(1)} full ones). The same shows outside n8n (\`harness/bench/probes/recordingBuffers.ts\`, [docs/recordings.md](docs/recordings.md#memory-and-time)).`,
		'',
	];
}

export function recordingsSection(result: RecordingsResult): string[] {
	const goal = 1.5 * result.fileMb;
	const goals = result.settings.map(goalsOf).filter((g) => g !== undefined);
	const dialerTiny = (s: RecordingSetting) => s.variants.find((v) => v.variant === 'dialer')?.tiny;
	return [
		`## Call recordings: ${result.files} files of ${result.fileMb.toFixed(1)} MB, filesystem binary mode`,
		'',
		`Get Classification Results with Download Recordings (${result.parallel} in parallel) against the same report followed by an HTTP Request node using the Dialer API credential, response format File, in two n8n settings: n8n’s defaults, and n8n started with \`NODE_OPTIONS=${result.settings.find((setting) => setting.nodeOptions)?.nodeOptions ?? ''}\` (V8’s young generation capped at 1 MB). Each variant in a fresh n8n; the baseline (the same workflow on ${result.files} one-second recordings of ${Math.round(result.tinyKb)} kB) first in it. Memory added is the peak RSS of n8n’s processes during a run above the idle n8n before its first run; added by the file bytes is that less the baseline’s, i.e. what the bytes add beyond running the workflow. Median (min–max) of the measured runs after a warm-up run. n8n runs with \`harness/bench/lib/gcLog.cjs\` preloaded in both settings, to count V8’s collections in its main process (per run, the warm-up included; the time of full collections is their pauses and incremental marking steps).`,
		'',
		'| n8n | Variant | Files | Time | Memory added | Added by the file bytes | Served per run | V8 collections per run: minor, full (their time) |',
		'| --- | --- | --- | --- | --- | --- | --- | --- |',
		...result.settings.flatMap(settingRows),
		'',
		'### Memory against count and size',
		'',
		'Download Recordings on other counts and sizes, in the same n8n as its runs above, all in ascending order of bytes per run: each peak also holds what earlier runs left in n8n’s RSS, so memory growing with count or size would show. The bytes’ share against the same baseline.',
		'',
		'| n8n | Files | Time | Memory added | Added by the file bytes | V8 collections per run |',
		'| --- | --- | --- | --- | --- | --- |',
		...result.settings.flatMap((setting) => {
			const tiny = dialerTiny(setting);
			const dialer = setting.variants.find((v) => v.variant === 'dialer')?.all;
			const points = [...setting.sweep, ...(dialer ? [dialer] : [])].sort(
				(a, b) => a.files * a.fileMb - b.files * b.fileMb,
			);
			return tiny
				? points.map(
						(point) =>
							`| ${settingName(setting)} | ${files(point)} | ${spread(point.ms, ms)} | ${spread(point.addedPeakMb, mb)} | ${bytesCell(point, tiny)} | ${gcCell(point)} |`,
					)
				: [];
		}),
		'',
		`| Goal | ${goals.map((g) => g.name).join(' | ')} |`,
		`| --- | ${goals.map(() => '---').join(' | ')} |`,
		`| file bytes add under 1.5× one file (${goal.toFixed(1)} MB), ${result.files} files | ${goals.map((g) => `${added(g.bytes)}: ${verdict(g.bytes < goal)}`).join(' | ')} |`,
		`| the same at every count and size measured (each under 1.5× its own file) | ${goals.map(({ worst }) => `${worstCell(worst)}: ${verdict(worst.bytes < 1.5 * worst.point.fileMb)}`).join(' | ')} |`,
		`| time at or below HTTP Request’s, same setting, ${result.parallel} downloads at a time | ${goals.map(timeCell).join(' | ')} |`,
		'',
		...why(result),
		'',
	];
}
