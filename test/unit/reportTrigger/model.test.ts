/**
 * The Report Trigger's polls against a reference dialer, for each of the four reports: every new
 * row is emitted exactly once, whatever order each read lists rows in.
 *
 * The reference dialer writes rows over time: on time or late (within the Overlap Window), several
 * with equal key fields (calls from a withheld number in one second), copies equal in every field,
 * reclassifications of a call, fichas whose status changes, calls listed first without their
 * protocol; it sends numbers as numbers or as text and text with spaces around it, read by read;
 * its times may lack seconds and its filter may read only the minutes of `de`; it lies in zones
 * with and without clock changes, around them. The trigger polls it with outages, failed reads
 * and restarts from the state n8n last saved. The model is what the contract says a new row is
 * (docs/report-trigger.md, "What one new row is"): a truth row is one row, its copies are rows of
 * their own, and a row whose later fields change is still that row.
 */
import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import {
	baselineOf,
	checkWindow,
	readingAhead,
	ZONE_GAP_MS,
	type CheckBaseline,
} from '../../../nodes/DialerReportTrigger/clockCheck';
import { findLateRows, judgedFrom } from '../../../nodes/DialerReportTrigger/lateRows';
import {
	clockShiftMs,
	pollReport,
	startState,
	type CursorSettings,
	type CursorState,
	type ReadWindow,
} from '../../../nodes/DialerReportTrigger/cursor';
import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { REMEMBER_MS } from '../../../nodes/DialerReportTrigger/memory';
import { rowIdentifier } from '../../../nodes/DialerReportTrigger/rowIdentity';
import { rowInstants } from '../../../nodes/shared/dialerTime';
import { fakePollFunctions, type Emitted } from '../support/pollFunctions';
import { propertyRuns } from '../support/propertyRuns';
import { RULES, type Report } from '../support/reportRules';
import { clockChanges } from '../support/zones';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** One row as the dialer knows it: its fields change over time, it stays one row. */
interface TruthRow {
	/** Rows equal in every field share it: the trigger can only count them. */
	copyOf: number;
	/** Epoch ms, a whole second. */
	time: number;
	/** When the dialer writes it: from then on reads return it. */
	writtenAt: number;
	/** Its fields from each instant on (the time field aside), oldest first. */
	versions: Array<{ from: number; fields: IDataObject }>;
}

interface DialerHabits {
	/** Times without seconds (`dd/mm/yyyy hh:mm`). */
	minuteTimes: boolean;
	/** A filter that reads only the minutes of `de`. */
	deMinutes: boolean;
	/**
	 * What saving a ficha again does (the contract leaves it open): nothing to its `data`, which
	 * `de`/`ate` filter by; `data` moved to the save; `data` kept and `de`/`ate` filtering by
	 * the last save; or a row listed for each save, dated by it and with its status, every save
	 * still listed. The other reports' rows keep their time.
	 */
	saves: Saves;
}

type Saves = 'fixed' | 'redated' | 'filteredBySave' | 'rowPerSave';

/** The statuses a ficha's saves go through, in turn. */
const STATUSES = ['Pendente', 'Finalizada', 'Retornar'];

/** A small seeded generator: each read's order and each value's form come from it. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Fields a dialer may send as a number in one answer and as text in the next. */
const NUMERIC: Record<Report, string[]> = {
	getFP1: ['ficha'],
	getRQ4: ['protocolo', 'codigo'],
	getRE2: ['tempo_fila', 'tempo_atendimento'],
	getHC2: ['duracao_segundos', 'desligada_por', 'protocolo'],
};

const TIME_FIELD: Record<Report, string> = {
	getFP1: 'data',
	getRQ4: 'datahora',
	getRE2: 'data_hora',
	getHC2: 'horario',
};

class ReferenceDialer {
	readonly rows: TruthRow[] = [];
	/** The next poll's read with this index (0 for its first) answers an error. */
	failRead: number | undefined;
	private readonly shuffle: () => number;

	private readonly habits: DialerHabits;

	constructor(
		readonly report: Report,
		readonly zone: string,
		habits: DialerHabits,
		seed: number,
	) {
		this.shuffle = random(seed);
		// Only fichas are saved again.
		this.habits = { ...habits, saves: report === 'getFP1' ? habits.saves : 'fixed' };
	}

	get saves(): Saves {
		return this.habits.saves;
	}

	/**
	 * How far apart a ficha's saves are: listed as a row each, dated by the save, two in one
	 * second (one minute, in times without seconds) are listed alike and no read tells which is
	 * newer.
	 */
	get savesApartMs(): number {
		if (this.habits.saves !== 'rowPerSave') return 0;
		return this.habits.minuteTimes ? MINUTE : 1000;
	}

	/** Which truth row each listed row stands for. */
	readonly listedAs = new WeakMap<object, TruthRow>();

	/**
	 * Writes a row; one equal in every field to another, as listed (times without seconds hide
	 * the second), is counted with it.
	 */
	add(row: Omit<TruthRow, 'copyOf'>, id: number): void {
		const fields = JSON.stringify(row.versions[0].fields);
		const copy = this.rows.find(
			(other) =>
				this.timeText(other.time) === this.timeText(row.time) &&
				JSON.stringify(other.versions[0].fields) === fields,
		);
		this.rows.push({ ...row, copyOf: copy?.copyOf ?? id });
	}

	timeText(time: number): string {
		const wall = DateTime.fromMillis(time, { zone: this.zone });
		const seconds = this.habits.minuteTimes ? '' : ':ss';
		return wall.toFormat(
			this.report === 'getHC2' ? `yyyy-MM-dd HH:mm${seconds}` : `dd/MM/yyyy HH:mm${seconds}`,
		);
	}

	/**
	 * A row as one answer lists it, as its version `version` (a save): numbers either way, text
	 * with spaces around it or not.
	 */
	private listed(
		row: TruthRow,
		version: number,
		time: number,
		read: Pick<ReadWindow, 'de' | 'ate'>,
	): IDataObject {
		const { fields } = row.versions[version];
		const sent: IDataObject = { [TIME_FIELD[this.report]]: this.timeText(time) };
		for (const [name, value] of Object.entries(fields)) {
			const roll = this.shuffle();
			if (NUMERIC[this.report].includes(name) && value !== '') {
				sent[name] = roll < 0.5 ? Number(value) : String(value);
			} else if (typeof value === 'string' && value !== '' && roll < 0.2) {
				sent[name] = ` ${value} `;
			} else {
				sent[name] = value;
			}
		}
		// getHC2 repeats its envelope on every call: the range read changes from read to read.
		if (this.report === 'getHC2') Object.assign(sent, { de: read.de, ate: read.ate });
		this.listedAs.set(sent, row);
		this.listedVersion.set(sent, version);
		return sent;
	}

	/** Which version of each listed row a read listed. */
	readonly listedVersion = new WeakMap<object, number>();

	private version(row: TruthRow, now: number): TruthRow['versions'][number] {
		// A copy of a row written after it (in the same step) is listed as that row was first.
		return row.versions.filter((version) => version.from <= now).at(-1) ?? row.versions[0];
	}

	private saved(row: TruthRow, now: number): number {
		const version = this.version(row, now);
		return version === row.versions[0] ? row.time : Math.floor(version.from / 1000) * 1000;
	}

	/** The time a row is listed under at `now`. */
	listedTime(row: TruthRow, now: number): number {
		return this.habits.saves === 'redated' ? this.saved(row, now) : row.time;
	}

	/** The times a row has been listed under up to `now`. */
	listedTimes(row: TruthRow): number[] {
		if (this.habits.saves !== 'redated' && this.habits.saves !== 'rowPerSave') return [row.time];
		return row.versions.map((version, index) =>
			index === 0 ? row.time : Math.floor(version.from / 1000) * 1000,
		);
	}

	/**
	 * How many times the trigger may forget the row and emit it again: each time reads list it
	 * again more than a day (REMEMBER_MS, less the hour a clock shift and the Overlap Window add)
	 * after they last did.
	 */
	forgettable(row: TruthRow): number {
		const listings =
			this.habits.saves === 'filteredBySave'
				? row.versions.map(({ from }) => Math.max(row.time, from))
				: this.listedTimes(row);
		return listings.filter(
			(time, index) => index > 0 && time - listings[index - 1] > REMEMBER_MS - HOUR,
		).length;
	}

	/** The time `de`/`ate` compare at `now`: the listed time, or the last save. */
	private filteredTime(row: TruthRow, now: number): number {
		if (this.habits.saves !== 'filteredBySave') return this.listedTime(row, now);
		const version = this.version(row, now);
		return Math.floor(Math.max(row.time, version.from) / 1000) * 1000;
	}

	/**
	 * What the dialer lists of a row at `now`: the version it is at, under the time it is listed
	 * and the time `de`/`ate` compare; with a row per save, each save made by then, dated by it.
	 */
	private listings(row: TruthRow, now: number) {
		if (this.habits.saves !== 'rowPerSave') {
			const version = row.versions.indexOf(this.version(row, now));
			return [{ version, time: this.listedTime(row, now), filtered: this.filteredTime(row, now) }];
		}
		const times = this.listedTimes(row);
		return row.versions
			.map((saved, version) => ({ version, time: times[version], filtered: times[version], saved }))
			.filter(({ version, saved }) => version === 0 || saved.from <= now);
	}

	/** The rows a read of `de`..`ate` returns at `now`, in a new random order. */
	private list(now: number, de: string, ate: string): IDataObject[] {
		const from = this.habits.deMinutes ? `${de.slice(0, 12)}00` : de;
		const answer = this.rows
			.filter((row) => row.writtenAt <= now)
			.flatMap((row) =>
				this.listings(row, now)
					.filter(({ filtered }) => {
						const text = DateTime.fromMillis(filtered, { zone: this.zone }).toFormat(
							'yyyyMMddHHmmss',
						);
						return text >= from && text <= ate;
					})
					.map(({ version, time }) => this.listed(row, version, time, { de, ate })),
			);
		// The contract names no order: any order, a new one each read.
		for (let i = answer.length - 1; i > 0; i--) {
			const j = Math.floor(this.shuffle() * (i + 1));
			[answer[i], answer[j]] = [answer[j], answer[i]];
		}
		return answer;
	}

	/** The rows a read of `read` returns at `now` (a clock check's), in a new random order. */
	listRows(now: number, read: ReadWindow): IDataObject[] {
		return this.list(now, read.de, read.ate);
	}

	/** Reads at `now` as the cursor makes them; the read `failRead` of the poll fails. */
	reader(now: number) {
		const failRead = this.failRead;
		this.failRead = undefined;
		let index = 0;
		return async (read: ReadWindow): Promise<IDataObject[]> => {
			if (index++ === failRead) throw new Error('Dialer failed (HTTP 500)');
			return this.list(now, read.de, read.ate);
		};
	}

	/** The body the dialer answers a report request with at `now`, wrapped as the report wraps it. */
	answer(now: number, form: URLSearchParams, fail: boolean): unknown {
		if (fail) return { status: 'error', message: 'Dialer failed' };
		const rows = this.list(now, form.get('de')!, form.get('ate')!);
		if (this.report === 'getRE2') return { data: { resultado: rows } };
		if (this.report !== 'getHC2') return { data: rows };
		const envelope = { ramal_agente: '1001', de: form.get('de'), ate: form.get('ate') };
		const calls = rows.map(({ ramal_agente: _, de: _de, ate: _ate, ...call }) => call);
		return { data: { ...envelope, total: calls.length, chamadas: calls } };
	}

	/** Which rows alike an item of the trigger stands for: the time and one version's fields. */
	copyOfItem(item: IDataObject): number | undefined {
		const same = (sent: unknown, meant: unknown) =>
			String(sent ?? '').trim() === String(meant ?? '').trim();
		const row = this.rows.find(
			(truth) =>
				this.listedTimes(truth).some((time) =>
					same(item[TIME_FIELD[this.report]], this.timeText(time)),
				) &&
				truth.versions.some(({ fields }) =>
					Object.entries(fields).every(([name, value]) => same(item[name], value)),
				),
		);
		return row?.copyOf;
	}
}

/** What a new row is made of, per report: fields besides the time. */
function newFields(report: Report, n: number, withheld: boolean, keyless: boolean): IDataObject {
	const agent = ['ana', 'bruno', 'carla', 'davi'][n % 4];
	switch (report) {
		case 'getFP1':
			return {
				ficha: String(1000 + n),
				agente: agent,
				codigo: String(500 + n),
				status: 'Pendente',
				pontos: '12.50',
			};
		case 'getRQ4':
			return {
				agente: agent,
				fila: 'Vendas',
				codigo: String(500 + n),
				numero: '11933334444',
				resultado: 'Retornar',
				protocolo: String(90000 + n),
				arquivo: `https://dialer.example/rec/${n}.mp3`,
			};
		case 'getRE2':
			return {
				origem: withheld ? 'Anônimo' : `(11) 9${String(n).padStart(4, '0')}-0000`,
				roteamento: 'Central',
				prospect: 'Novo',
				tipo_destino: 'Fila',
				destino: 'Suporte',
				status: 'AT',
				tempo_fila: n % 30,
				tempo_atendimento: 60 + (n % 90),
				agente: agent,
				resultado: '',
			};
		case 'getHC2':
			return {
				tipo: n % 2 ? 'Recebida' : 'Gerada',
				numero: withheld ? 'Anônimo' : `(11) 3${String(n).padStart(3, '0')}-4444`,
				duracao_segundos: 30 + (n % 200),
				desligada_por: String(n % 3),
				protocolo: keyless ? '' : String(202611000 + n),
				ramal_agente: '1001',
			};
	}
}

/** What a later write does to an earlier row, per report. */
type Relation = 'new' | 'copy' | 'sibling' | 'change';

const arrival = fc.record({
	/** When the dialer writes it, as a fraction of the time since the last poll. */
	writtenAt: fc.double({ min: 0, max: 1, noNaN: true }),
	/** How much earlier than its writing its time is, as a fraction of the Overlap Window. */
	lateness: fc.oneof(
		{ weight: 3, arbitrary: fc.constant(0) },
		{ weight: 2, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
	),
	relation: fc.constantFrom<Relation>('new', 'new', 'new', 'copy', 'sibling', 'change'),
	/** Which earlier row it relates to, counted back from the newest. */
	back: fc.nat({ max: 4 }),
	withheld: fc.boolean(),
	keyless: fc.integer({ min: 0, max: 3 }).map((roll) => roll === 0),
});

type Arrival = typeof arrival extends fc.Arbitrary<infer A> ? A : never;

/** A row written 1.05 to 3 Overlap Windows after its time: too late to emit, to be reported. */
const tooLate = arrival.map((plan) => ({ ...plan, lateness: 1.05 + plan.lateness * 2 }));

const step = fc.record({
	/** Time until the poll; sometimes an outage of hours. */
	advanceMs: fc.oneof(
		{ weight: 12, arbitrary: fc.integer({ min: 1000, max: 3 * MINUTE }) },
		{ weight: 1, arbitrary: fc.integer({ min: HOUR, max: 26 * HOUR }) },
	),
	arrivals: fc.array(arrival, { maxLength: 6 }),
	late: fc.array(tooLate, { maxLength: 2 }),
	failRead: fc.option(fc.nat({ max: 2 }), { freq: 5, nil: undefined }),
	restart: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
	/** A row dated up to 2 hours before the start written now (its part of those 2 hours). */
	beforeStart: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { freq: 4, nil: undefined }),
});

const ZONES = [
	'UTC',
	'America/Sao_Paulo',
	'America/New_York',
	'America/Santiago',
	'Europe/Berlin',
	'Australia/Lord_Howe',
	'Australia/Sydney',
	'Pacific/Auckland',
];
const CHANGES = new Map(ZONES.map((zone) => [zone, clockChanges(zone)]));

const history = fc.record({
	report: fc.constantFrom<Report>('getFP1', 'getRQ4', 'getRE2', 'getHC2'),
	zone: fc.constantFrom(...ZONES),
	changeIndex: fc.nat(),
	aroundChangeMs: fc.integer({ min: -4 * HOUR, max: 4 * HOUR }),
	/** Start From this long before the activation (a backfill), or none. */
	backfillMs: fc.oneof(fc.constant(0), fc.integer({ min: MINUTE, max: 20 * HOUR })),
	overlapMinutes: fc.integer({ min: 1, max: 20 }),
	maxRows: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constant(1000)),
	minuteTimes: fc.boolean(),
	deMinutes: fc.boolean(),
	saves: fc.constantFrom<Saves>('fixed', 'redated', 'filteredBySave', 'rowPerSave'),
	emitStatusChanges: fc.boolean(),
	seed: fc.integer(),
	steps: fc.array(step, { minLength: 1, maxLength: 30 }),
});

/** Writes the planned rows into the dialer: what the history says happened, at what time. */
function write(
	dialer: ReferenceDialer,
	planned: Arrival[],
	previous: number,
	now: number,
	overlapMs: number,
	next: { n: number },
): void {
	for (const plan of planned) {
		const writtenAt = Math.round(previous + plan.writtenAt * (now - previous));
		const ownTime = Math.floor((writtenAt - plan.lateness * overlapMs) / 1000) * 1000;
		const earlier = dialer.rows[dialer.rows.length - 1 - plan.back];
		const report = dialer.report;
		const canShareTime = earlier !== undefined && writtenAt - earlier.time <= overlapMs;
		if (plan.relation === 'change' && earlier) {
			// A later change to a row already written: it stays that one row.
			const fields = { ...earlier.versions.at(-1)!.fields };
			if (report === 'getFP1') {
				fields.status = STATUSES[(STATUSES.indexOf(String(fields.status)) + 1) % STATUSES.length];
			}
			if (report === 'getRE2') fields.resultado = 'Venda';
			if (report === 'getHC2' && fields.protocolo === '')
				fields.protocolo = String(303000 + next.n++);
			if (report === 'getRQ4') fields.arquivo = `${String(fields.arquivo)}?signed=${next.n++}`;
			// Saves come one after another.
			const saved = earlier.versions.at(-1)!.from + dialer.savesApartMs;
			earlier.versions.push({ from: Math.max(writtenAt, earlier.writtenAt, saved), fields });
			continue;
		}
		if (
			plan.relation === 'copy' &&
			canShareTime &&
			!(report === 'getFP1') &&
			!(report === 'getHC2' && earlier.versions[0].fields.protocolo !== '')
		) {
			// Another row equal in every field (a ficha or a protocol is never written twice).
			dialer.add({ time: earlier.time, writtenAt, versions: [earlier.versions[0]] }, next.n++);
			continue;
		}
		if (plan.relation === 'sibling' && earlier && report === 'getRQ4' && ownTime > earlier.time) {
			// The same call classified again, later and with another result: a new classification.
			const first = earlier.versions[0].fields;
			const fields = { ...first, resultado: first.resultado === 'Venda' ? 'Retornar' : 'Venda' };
			dialer.add({ time: ownTime, writtenAt, versions: [{ from: writtenAt, fields }] }, next.n++);
			continue;
		}
		if (
			plan.relation === 'sibling' &&
			canShareTime &&
			(report === 'getRE2' || report === 'getHC2')
		) {
			// Another call like it in the same second, told apart only by who answered it (getRE2,
			// which has no call ID), or another call of the number in that second (getHC2).
			const first = earlier.versions[0].fields;
			const fields =
				report === 'getRE2'
					? { ...first, agente: `agente${next.n}` }
					: {
							...first,
							duracao_segundos: Number(first.duracao_segundos) + 1 + (next.n % 5),
							protocolo: plan.keyless ? '' : String(404000 + next.n),
						};
			dialer.add(
				{ time: earlier.time, writtenAt, versions: [{ from: writtenAt, fields }] },
				next.n++,
			);
			continue;
		}
		const fields = newFields(report, next.n, plan.withheld, plan.keyless);
		dialer.add({ time: ownTime, writtenAt, versions: [{ from: writtenAt, fields }] }, next.n++);
	}
}

/**
 * Polls the way n8n does: the state stays in memory after every successful poll and is saved with
 * the activation (its first poll) and with each poll that emits; a restart goes on from the saved
 * one.
 */
class Poller {
	state: CursorState;
	private saved: CursorState;
	readonly emitted: IDataObject[] = [];
	/** Rows found too late to emit and counted in a saved state, and those counted since. */
	readonly reported: IDataObject[] = [];
	private pending: IDataObject[] = [];
	private polls = 0;
	/** What the last judged look back read (n8n's process memory: gone with a restart). */
	private baseline: CheckBaseline | undefined;
	/** When the saved state was made. */
	private savedAt: number | undefined;
	/** A restart since the last look back that took a baseline: from when, the saved state's. */
	private blindFrom: number | undefined;
	/**
	 * Spans in which a row dated before the memory's reach may appear unreported: from the saved
	 * state a restart went back to until the next baseline.
	 */
	readonly blind: Array<[number, number]> = [];
	/** When look backs were judged, and when the first baseline was taken. */
	readonly judgedAt: number[] = [];
	firstBaselineAt: number | undefined;

	constructor(
		private readonly dialer: ReferenceDialer,
		readonly settings: CursorSettings,
		start: number,
	) {
		this.state = startState(dialer.report, null, start);
		this.saved = this.state;
	}

	private takeBaseline(
		rows: IDataObject[],
		read: ReadWindow,
		now: number,
		key: (row: IDataObject) => string,
	) {
		this.baseline = baselineOf(rows, key, read, now);
		this.firstBaselineAt ??= now;
		if (this.blindFrom !== undefined) this.blind.push([this.blindFrom, now]);
		this.blindFrom = undefined;
	}

	async poll(now: number): Promise<IDataObject[]> {
		this.polls++;
		const identify = rowIdentifier(RULES[this.dialer.report], this.settings.zone);
		// The look back for late rows, before the poll's reads (here at every poll).
		const check = checkWindow(now, this.settings.zone);
		const checkRows = this.dialer.listRows(now, check);
		try {
			const result = await pollReport(
				this.state,
				now,
				this.settings,
				this.dialer.reader(now),
				identify,
			);
			let { state } = result;
			// Judged after a poll that read up to now: the rows of the report it never emitted and
			// no read can list.
			const key = (row: IDataObject) => identify(row).key;
			if (!result.full && state.cursor >= Math.floor(now / 1000) * 1000) {
				const found = findLateRows(
					state,
					checkRows,
					identify,
					this.settings,
					check,
					now,
					this.baseline,
					this.state,
				);
				state = found.state;
				this.pending.push(...found.late.map(({ row }) => row));
				result.emit.push(...found.changes.map(({ row }) => row));
				this.takeBaseline(checkRows, check, now, key);
				this.judgedAt.push(now);
			} else if (!this.baseline) {
				this.takeBaseline(checkRows, check, now, key);
			}
			// n8n hands the state back as it stored it: JSON.
			this.state = JSON.parse(JSON.stringify(state)) as CursorState;
			if (result.emit.length > 0 || this.polls === 1) {
				this.saved = this.state;
				this.savedAt = now;
				this.reported.push(...this.pending);
				this.pending = [];
			}
			this.emitted.push(...result.emit);
			return result.emit;
		} catch {
			return [];
		}
	}

	restart() {
		this.state = this.saved;
		// Their count was in the state lost (n8n's log still names them): rows the memory judges
		// are found again, the others are in no baseline now.
		this.pending = [];
		this.baseline = undefined;
		const savedAt = this.savedAt ?? -Infinity;
		this.blindFrom ??= this.judgedAt.filter((at) => at <= savedAt).at(-1) ?? -Infinity;
	}

	/**
	 * The last judged look back before a row written at `writtenAt` (a row written at a poll's
	 * instant may be in that poll's look back): one dated more than the Overlap Window before it
	 * was written too late, whenever it was written since.
	 */
	lookedBackBefore(writtenAt: number): number {
		return this.judgedAt.filter((at) => at < writtenAt).at(-1) ?? -Infinity;
	}

	/** Whether a row written at `writtenAt` and dated `time` may appear without being reported. */
	unseen(time: number, writtenAt: number): boolean {
		// A row written at a poll's instant may have been written just after that poll.
		if (this.blind.some(([from, to]) => writtenAt >= from && writtenAt <= to)) return true;
		if (this.blindFrom !== undefined && writtenAt >= this.blindFrom) return true;
		// The look back reads a day (26 h) back from when it runs.
		const next = this.judgedAt.find((at) => at >= writtenAt);
		return next === undefined || time < next - ZONE_GAP_MS;
	}

	/** Every row found too late to emit, counted once. */
	get late(): IDataObject[] {
		return [...this.reported, ...this.pending];
	}

	/** Polls once a minute until a poll reads up to now and emits nothing. */
	async drain(now: number): Promise<void> {
		let at = now;
		for (let guard = 0; guard < 5000; guard++) {
			at += MINUTE;
			const emitted = await this.poll(at);
			if (emitted.length === 0 && this.state.cursor >= Math.floor(at / 1000) * 1000) return;
		}
		throw new Error('the poller never caught up');
	}
}

function countBy<T>(values: T[], key: (value: T) => number): Map<number, number> {
	const counts = new Map<number, number>();
	for (const value of values) counts.set(key(value), (counts.get(key(value)) ?? 0) + 1);
	return counts;
}

/**
 * Rows alike emitted more or fewer times than written, given which each emitted row stands for.
 * Reports have whole seconds: the start's second counts. A row whose time text can also name an
 * instant from the start on (an hour that happens twice, a minute without seconds) may count from
 * the start on; no earlier row ever does.
 */
function misses(
	dialer: ReferenceDialer,
	emitted: number[],
	start: number,
	minuteTimes: boolean,
	unjudged: TruthRow[] = [],
	beforeStart: { may: TruthRow[]; must: TruthRow[] } = { may: [], must: [] },
) {
	const startSecond = Math.floor(start / 1000) * 1000;
	const earliestAmbiguous =
		startSecond - clockShiftMs(dialer.zone, start) - (minuteTimes ? MINUTE : 0);
	const copiesFrom = (from: number, time: (row: TruthRow) => number) =>
		countBy(
			dialer.rows.filter((row) => time(row) >= from),
			(row) => row.copyOf,
		);
	const least = copiesFrom(startSecond, (row) => row.time);
	// Rows too late to emit dated before the memory's reach (an outage pushed it past them) may go
	// unreported: n8n's log has the clock check's warning of them.
	for (const row of unjudged) least.set(row.copyOf, (least.get(row.copyOf) ?? 0) - 1);
	// Rows dated before the start written too late are reported, once: each of `must` for sure.
	for (const row of beforeStart.must) least.set(row.copyOf, (least.get(row.copyOf) ?? 0) + 1);
	// A ficha dated before the start that the dialer re-dated after it may come, once; one listed
	// again a day after its last listing, once more.
	const most = copiesFrom(earliestAmbiguous, (row) => Math.max(...dialer.listedTimes(row)));
	for (const row of beforeStart.may) most.set(row.copyOf, (most.get(row.copyOf) ?? 0) + 1);
	for (const row of dialer.rows) {
		const extra = dialer.forgettable(row);
		if (extra > 0) most.set(row.copyOf, (most.get(row.copyOf) ?? 0) + extra);
	}
	const times = countBy(emitted, (copyOf) => copyOf);
	return [...new Set(dialer.rows.map((row) => row.copyOf))]
		.map((copyOf) => ({
			copyOf,
			emitted: times.get(copyOf) ?? 0,
			least: least.get(copyOf) ?? 0,
			most: most.get(copyOf) ?? 0,
		}))
		.filter((row) => row.emitted < row.least || row.emitted > row.most);
}

/**
 * Whether a later save of a ficha the dialer dates by its saves is listed under a time that can
 * read as before an earlier save's (another time of the hour that happens twice where clocks go
 * back): no read tells which is newer, and the trigger keeps the status it holds.
 */
function saveMayReadOlder(dialer: ReferenceDialer, row: TruthRow): boolean {
	if (dialer.saves === 'fixed' || dialer.saves === 'filteredBySave') return false;
	const texts = dialer.listedTimes(row).map((time) => dialer.timeText(time));
	const instants = texts.map((text) => rowInstants(text, dialer.zone)!);
	return texts.some((text, later) =>
		texts
			.slice(0, later)
			.some(
				(earlier, index) => earlier !== text && instants[later].earliest < instants[index].latest,
			),
	);
}

/**
 * With Emit Status Changes, the fichas whose emissions are not each status change once: what a
 * ficha is emitted as must be versions in the order the dialer saved them, each with another
 * status than the one before, the first for every ficha from the start on, and the last with the
 * ficha's final status where every save is listed within the Overlap Window (a dialer that
 * re-dates a ficha, filters by its last save or lists a row per save) and no save's time can
 * read as older than an earlier one's.
 */
function changeMisses(
	dialer: ReferenceDialer,
	emitted: IDataObject[],
	late: IDataObject[],
	start: number,
	unjudged: TruthRow[] = [],
) {
	const reported = new Set(late.map((listed) => dialer.listedAs.get(listed)));
	// Rows too late dated before the memory's reach that no look back could tell may go unreported.
	for (const row of unjudged) reported.add(row);
	const startSecond = Math.floor(start / 1000) * 1000;
	const versions = new Map<TruthRow, number[]>();
	for (const listed of emitted) {
		const row = dialer.listedAs.get(listed)!;
		versions.set(row, [...(versions.get(row) ?? []), dialer.listedVersion.get(listed)!]);
	}
	const status = (row: TruthRow, version: number) => row.versions[version].fields.status;
	return dialer.rows
		.map((row) => ({ row, emitted: versions.get(row) ?? [] }))
		.filter(({ row, emitted: indices }) => {
			// Forgotten a day after its last listing, a ficha may come again as it is.
			const again = dialer.forgettable(row) > 0;
			const inOrder = indices.every(
				(version, at) =>
					at === 0 ||
					(again
						? version >= indices[at - 1]
						: version > indices[at - 1] && status(row, version) !== status(row, indices[at - 1])),
			);
			if (!inOrder) return true;
			if (row.time < startSecond) return false;
			if (indices.length === 0) return !reported.has(row);
			const last = row.versions.length - 1;
			if (dialer.saves === 'fixed' || saveMayReadOlder(dialer, row)) return false;
			return status(row, indices.at(-1)!) !== status(row, last);
		})
		.map(({ row, emitted: indices }) => ({
			ficha: row.versions[0].fields.ficha,
			statuses: row.versions.map(({ fields }) => fields.status),
			emitted: indices,
		}));
}

/** Runs one history; returns what went wrong, per row, and how many rows it wrote. */
async function runHistory(plan: typeof history extends fc.Arbitrary<infer H> ? H : never) {
	const { zone } = plan;
	const changes = CHANGES.get(zone)!;
	const anchor =
		changes.length > 0 ? changes[plan.changeIndex % changes.length] : Date.UTC(2026, 10, 1, 5);
	const activation = Math.floor((anchor + plan.aroundChangeMs) / 1000) * 1000 + 137;
	const start = activation - plan.backfillMs;
	const overlapMs = plan.overlapMinutes * MINUTE;
	const dialer = new ReferenceDialer(plan.report, zone, plan, plan.seed);
	const emitStatusChanges = plan.emitStatusChanges && plan.report === 'getFP1';
	const poller = new Poller(
		dialer,
		{ zone, overlapMs, maxRows: plan.maxRows, emitStatusChanges },
		start,
	);
	const next = { n: 0 };
	// Rows from before the start, some written after it: never emitted.
	write(
		dialer,
		Array.from({ length: 4 }, (_, index) => ({
			writtenAt: index / 4,
			lateness: 1,
			relation: 'new' as const,
			back: 0,
			withheld: false,
			keyless: false,
		})),
		start - overlapMs / 2,
		start + overlapMs / 2,
		overlapMs,
		next,
	);
	let now = activation;
	for (const planned of plan.steps) {
		const previous = now;
		now += planned.advanceMs;
		write(dialer, planned.arrivals, previous, now, overlapMs, next);
		write(dialer, planned.late, previous, now, overlapMs, next);
		if (planned.beforeStart !== undefined) {
			const time = Math.floor((start - overlapMs - planned.beforeStart * 2 * HOUR) / 1000) * 1000;
			const fields = newFields(plan.report, next.n, false, false);
			dialer.add({ time, writtenAt: now, versions: [{ from: now, fields }] }, next.n++);
		}
		if (planned.restart) poller.restart();
		dialer.failRead = planned.failRead;
		await poller.poll(now);
	}
	await poller.drain(now);
	// Near a clock change a read may reach an hour further back: only then is a row too late.
	await poller.drain(poller.state.cursor + overlapMs + HOUR + 2 * MINUTE);

	// Rows too late to emit dated before the memory's reach (or the start) are reported when dated
	// more than the Overlap Window before the last look back before they were written, unless
	// they appeared where no look back could tell (after a restart, or more than 26 h back).
	const tooLate = dialer.rows.filter((row) => row.writtenAt - row.time > overlapMs);
	// A clock change between a row's time and its writing makes it look that much less late.
	const shiftOver = (from: number, to: number) => {
		const offsets: number[] = [];
		for (let at = from - HOUR; at < to + HOUR; at += 30 * MINUTE) {
			offsets.push(DateTime.fromMillis(at, { zone }).offset);
		}
		offsets.push(DateTime.fromMillis(to + HOUR, { zone }).offset);
		return (Math.max(...offsets) - Math.min(...offsets)) * MINUTE;
	};
	const told = (row: TruthRow) =>
		row.time <
			poller.lookedBackBefore(row.writtenAt) -
				overlapMs -
				2 * MINUTE -
				shiftOver(row.time, row.writtenAt) && !poller.unseen(row.time, row.writtenAt);
	const unjudged = tooLate.filter((row) => row.time < judgedFrom(poller.state) && !told(row));
	const startSecond = Math.floor(start / 1000) * 1000;
	const early = tooLate.filter((row) => row.time < startSecond);
	const beforeStart = { may: early, must: early.filter(told) };
	if (emitStatusChanges) {
		return {
			wrong: changeMisses(dialer, poller.emitted, poller.late, start, unjudged),
			rows: dialer.rows.length,
			late: poller.late.length,
		};
	}
	// Each row once: emitted, or reported as too late to emit.
	const emitted = [...poller.emitted, ...poller.late].map(
		(listed) => dialer.listedAs.get(listed)!.copyOf,
	);
	return {
		wrong: misses(dialer, emitted, start, plan.minuteTimes, unjudged, beforeStart),
		rows: dialer.rows.length,
		late: poller.late.length,
		earlyLate: beforeStart.must.length,
	};
}

describe('every new row of every report emitted exactly once (reference dialer, generated histories)', () => {
	it('whatever order each read lists rows in, with late rows, copies, reclassifications, changes, outages, failed reads, restarts and clock changes', async () => {
		let rows = 0;
		let late = 0;
		let earlyLate = 0;
		const runs = propertyRuns(200);
		await fc.assert(
			fc.asyncProperty(history, async (plan) => {
				const result = await runHistory(plan);
				expect(result.wrong).toEqual([]);
				rows += result.rows;
				late += result.late;
				earlyLate += result.earlyLate ?? 0;
			}),
			{ numRuns: runs },
		);
		expect(rows).toBeGreaterThan(runs * 10);
		expect(late).toBeGreaterThan(runs / 10);
		// Rows dated before the start written too late, each of which had to be reported.
		expect(earlyLate).toBeGreaterThan(runs / 20);
	});
});

/** The trigger's parameters for each report. */
const EVENT_PARAMETERS: Record<Report, IDataObject> = {
	getFP1: { event: 'newFilledForm', form: '41', filters: {} },
	getRQ4: { event: 'newClassificationResult', filters: {} },
	getRE2: { event: 'newInboundCall', filters: {} },
	getHC2: { event: 'newCallInHistory', entityType: 'A', extensionOrAgent: '1001', filters: {} },
};

const trigger = new DialerReportTrigger();
let histories = 0;

/**
 * The Dialer Report Trigger itself, polled as n8n 2.x polls it: it emits its rows and hears when
 * n8n could not start their execution; n8n saves its static data with the activation and with
 * each execution it starts, and a restart goes on from what it saved.
 */
class TriggerNode {
	private staticData: IDataObject = {};
	private saved = '{}';
	readonly started: IDataObject[] = [];
	private polls = 0;
	private readonly workflowId = `model-${++histories}`;

	constructor(
		private readonly dialer: ReferenceDialer,
		private readonly parameters: IDataObject,
		private readonly zone: string,
	) {}

	/** One poll at `now`; `failStart`: n8n cannot start the execution of what it emits. */
	async poll(now: number, failRead: boolean, failStart: boolean): Promise<void> {
		this.polls++;
		Settings.now = () => now;
		const emitted: Emitted[] = [];
		let reads = 0;
		const context = fakePollFunctions({
			parameters: this.parameters,
			staticData: this.staticData,
			workflowId: this.workflowId,
			timezone: this.zone,
			emitted,
			answer: (form) => this.dialer.answer(now, form, failRead && reads++ === 1),
		});
		try {
			const returned = await trigger.poll.call(context);
			expect(returned).toBeNull();
		} catch {
			return;
		}
		for (const { items, done } of emitted) {
			if (failStart) {
				done.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
				await new Promise((resolve) => setImmediate(resolve));
				continue;
			}
			done.resolve(undefined);
			this.started.push(...items[0].map((item) => item.json));
		}
		if ((emitted.length > 0 && !failStart) || this.polls === 1) {
			this.saved = JSON.stringify(this.staticData);
		}
	}

	restart() {
		this.staticData = JSON.parse(this.saved) as IDataObject;
	}

	/** Polls once a minute until a poll emits nothing and nothing waits to be emitted again. */
	async drain(now: number): Promise<void> {
		let at = now;
		for (let guard = 0; guard < 3000; guard++) {
			at += MINUTE;
			const before = this.started.length;
			await this.poll(at, false, false);
			if (this.started.length === before && !('rowsToEmitAgain' in this.staticData)) {
				const cursor = (this.staticData.reportCursor as IDataObject | undefined)?.cursor;
				if (Number(cursor) >= Math.floor(at / 1000) * 1000) return;
			}
		}
		throw new Error('the trigger never caught up');
	}
}

const nodeHistory = fc.record({
	report: fc.constantFrom<Report>('getFP1', 'getRQ4', 'getRE2', 'getHC2'),
	zone: fc.constantFrom('UTC', 'America/Sao_Paulo', 'America/New_York', 'Australia/Lord_Howe'),
	changeIndex: fc.nat(),
	aroundChangeMs: fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
	backfillMs: fc.oneof(fc.constant(0), fc.integer({ min: MINUTE, max: 6 * HOUR })),
	overlapMinutes: fc.integer({ min: 1, max: 15 }),
	maxRows: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(1000)),
	minuteTimes: fc.boolean(),
	deMinutes: fc.boolean(),
	saves: fc.constantFrom<Saves>('fixed', 'redated', 'filteredBySave', 'rowPerSave'),
	seed: fc.integer(),
	steps: fc.array(
		fc.record({
			advanceMs: fc.oneof(
				{ weight: 12, arbitrary: fc.integer({ min: 1000, max: 3 * MINUTE }) },
				{ weight: 1, arbitrary: fc.integer({ min: HOUR, max: 6 * HOUR }) },
			),
			arrivals: fc.array(arrival, { maxLength: 5 }),
			failRead: fc.integer({ min: 0, max: 7 }).map((roll) => roll === 0),
			failStart: fc.integer({ min: 0, max: 7 }).map((roll) => roll === 0),
			restart: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
		}),
		{ minLength: 1, maxLength: 15 },
	),
});

describe("the trigger node's polls against the reference dialer (generated histories)", () => {
	afterAll(() => {
		Settings.now = () => Date.now();
	});

	it('every new row once in the executions n8n starts, across failed execution starts, failed reads, restarts and Start From', async () => {
		await fc.assert(
			fc.asyncProperty(nodeHistory, async (plan) => {
				const { zone } = plan;
				const changes = clockChanges(zone);
				const anchor =
					changes.length > 0
						? changes[plan.changeIndex % changes.length]
						: Date.UTC(2026, 10, 1, 5);
				const activation = Math.floor((anchor + plan.aroundChangeMs) / 1000) * 1000 + 137;
				const overlapMs = plan.overlapMinutes * MINUTE;
				const start = plan.backfillMs > 0 ? activation - plan.backfillMs : activation - overlapMs;
				const dialer = new ReferenceDialer(plan.report, zone, plan, plan.seed);
				const options: IDataObject = {
					overlapWindow: plan.overlapMinutes,
					maxRowsPerPoll: plan.maxRows,
				};
				if (plan.backfillMs > 0) options.startFrom = DateTime.fromMillis(start, { zone }).toISO();
				const node = new TriggerNode(dialer, { ...EVENT_PARAMETERS[plan.report], options }, zone);
				const next = { n: 0 };
				const beforeStart = Array.from({ length: 3 }, (_, index) => ({
					writtenAt: index / 3,
					lateness: 1,
					relation: 'new' as const,
					back: 0,
					withheld: false,
					keyless: false,
				}));
				write(dialer, beforeStart, start - overlapMs / 2, start + overlapMs / 2, overlapMs, next);
				let now = activation;
				await node.poll(now, false, false);
				for (const planned of plan.steps) {
					const previous = now;
					now += planned.advanceMs;
					write(dialer, planned.arrivals, previous, now, overlapMs, next);
					if (planned.restart) node.restart();
					await node.poll(now, planned.failRead, planned.failStart);
				}
				await node.drain(now);

				const classes = node.started.map((item) => dialer.copyOfItem(item));
				expect(classes).not.toContain(undefined);
				expect(misses(dialer, classes as number[], start, plan.minuteTimes)).toEqual([]);
			}),
			{ numRuns: propertyRuns(20) },
		);
	}, 600_000);
});

describe('cases the reference dialer found, and those reported from outside', () => {
	const zone = 'America/Sao_Paulo';
	const settings: CursorSettings = { zone, overlapMs: 10 * MINUTE, maxRows: 1000 };
	const start = DateTime.fromISO('2026-11-25T09:00:00', { zone }).toMillis();

	/** What each poll emits, polling every 10 s from 09:00:10 while the dialer answers `answers`. */
	async function emits(report: Report, answers: IDataObject[][]): Promise<IDataObject[][]> {
		const identify = rowIdentifier(RULES[report], zone);
		let state = startState(report, null, start);
		const emitted: IDataObject[][] = [];
		for (const [index, rows] of answers.entries()) {
			const now = start + 10_000 * (index + 1);
			const result = await pollReport(state, now, settings, async () => rows, identify);
			emitted.push(result.emit);
			state = JSON.parse(JSON.stringify(result.state)) as CursorState;
		}
		return emitted;
	}

	const withheld = {
		data_hora: '25/11/2026 09:00:05',
		origem: 'Anônimo',
		roteamento: 'Central',
		prospect: 'Novo',
		tipo_destino: 'Fila',
		destino: 'Suporte',
		status: 'AT',
		tempo_fila: 4,
		tempo_atendimento: 80,
		resultado: '',
	};
	const ana = { ...withheld, agente: 'ana' };
	const bruno = { ...withheld, agente: 'bruno' };

	it('New Inbound Call: a second withheld call of the same second, written later and listed first, is emitted, the first not again', async () => {
		expect(await emits('getRE2', [[ana], [bruno, ana], [ana, bruno]])).toEqual([
			[ana],
			[bruno],
			[],
		]);
	});

	it('New Inbound Call: two calls equal in every field are two calls, however their writing is spread', async () => {
		expect(await emits('getRE2', [[ana], [ana, ana], [ana, ana]])).toEqual([[ana], [ana], []]);
		// The result classified after the call changes nothing.
		const classified = { ...ana, resultado: 'Venda' };
		expect(
			await emits('getRE2', [
				[ana, ana],
				[classified, ana],
			]),
		).toEqual([[ana, ana], []]);
	});

	const retornar = {
		datahora: '25/11/2026 09:00:05',
		agente: 'Ana',
		fila: 'Vendas',
		codigo: '881',
		numero: '11933334444',
		resultado: 'Retornar',
		protocolo: '555',
	};
	const venda = { ...retornar, datahora: '25/11/2026 09:00:45', resultado: 'Venda' };

	it('New Classification Result: a call classified again later, listed before the first classification, is emitted once, the first not again', async () => {
		expect(await emits('getRQ4', [[retornar], [venda, retornar], [retornar, venda]])).toEqual([
			[retornar],
			[venda],
			[],
		]);
	});

	it('New Classification Result: in a dialer whose times lack seconds, two classifications the same as listed are two', async () => {
		const coarse = { ...retornar, datahora: '25/11/2026 09:00' };
		expect(await emits('getRQ4', [[coarse], [coarse, coarse], [coarse, coarse]])).toEqual([
			[coarse],
			[coarse],
			[],
		]);
	});

	it('New Filled Form: a ficha whose status changes is emitted once, in whatever order the fichas come', async () => {
		const pending = { ficha: '7', data: '25/11/2026 09:00:05', agente: 'ana', status: 'Pendente' };
		const done = { ...pending, status: 'Finalizada' };
		const other = { ...pending, ficha: 8 };
		expect(
			await emits('getFP1', [[pending], [other, done], [done, { ...other, ficha: '8' }]]),
		).toEqual([[pending], [other], []]);
	});

	/** What each poll emits, one poll a minute from 09:01, each answering what `listing` lists then. */
	async function emitsEachMinute(
		minutes: number,
		listing: (minute: number) => IDataObject[],
		emitStatusChanges = false,
	): Promise<IDataObject[]> {
		const identify = rowIdentifier(RULES.getFP1, zone);
		let state = startState('getFP1', null, start);
		const emitted: IDataObject[] = [];
		for (let minute = 1; minute <= minutes; minute++) {
			const now = start + minute * MINUTE;
			const result = await pollReport(
				state,
				now,
				{ ...settings, emitStatusChanges },
				async () => listing(minute),
				identify,
			);
			emitted.push(...result.emit);
			state = JSON.parse(JSON.stringify(result.state)) as CursorState;
		}
		return emitted;
	}

	const filled = { ficha: '42', data: '25/11/2026 09:00:05', agente: 'ana', status: 'Pendente' };
	const savedAgain = { ...filled, data: '25/11/2026 09:03:00', status: 'Finalizada' };

	it('New Filled Form: a ficha the dialer re-dates when it is saved again is emitted once (reported from outside: twice)', async () => {
		const listing = (minute: number) => [minute < 3 ? filled : savedAgain];
		expect(await emitsEachMinute(60, listing)).toEqual([filled]);
	});

	it('New Filled Form: a ficha listed by its last save while keeping its data is emitted once, however long it is listed (reported from outside: 9 times)', async () => {
		const listing = (minute: number) => [{ ...filled, status: STATUSES[(minute - 1) % 3] }];
		expect(await emitsEachMinute(60, listing)).toEqual([filled]);
	});

	it('New Filled Form: with Emit Status Changes, each status change once, whether the ficha is re-dated or not', async () => {
		const listing = (minute: number) => [minute < 3 ? filled : savedAgain];
		expect(await emitsEachMinute(60, listing, true)).toEqual([filled, savedAgain]);
		const back = { ...filled, status: 'Pendente' };
		const steps = (minute: number) => [minute < 3 ? filled : minute < 30 ? savedAgain : back];
		expect(await emitsEachMinute(60, steps, true)).toEqual([filled, savedAgain, back]);
	});

	it('New Filled Form: a ficha listed again a day after its last listing is emitted again', async () => {
		const identify = rowIdentifier(RULES.getFP1, zone);
		const first = await pollReport(
			startState('getFP1', null, start),
			start + MINUTE,
			settings,
			async () => [filled],
			identify,
		);
		let state = first.state;
		// Listed by its last save (a dialer filtering by it), nothing listed for a day, then again.
		for (const now of [start + 2 * MINUTE, start + 24 * HOUR + 2 * MINUTE]) {
			state = (await pollReport(state, now, settings, async () => [], identify)).state;
		}
		const again = await pollReport(
			state,
			start + 24 * HOUR + 3 * MINUTE,
			settings,
			async () => [filled],
			identify,
		);
		expect([first.emit, again.emit]).toEqual([[filled], [filled]]);
	});

	it('New Filled Form: a ficha dated in the hour clocks go back, just after the start, and written an hour late is reported once', async () => {
		const sydney = 'Australia/Sydney';
		const sydneySettings = { zone: sydney, overlapMs: MINUTE, maxRows: 1000 };
		// Clocks go back from 03:00 to 02:00 at 16:00 UTC; the trigger starts then.
		const from = Date.UTC(2026, 3, 4, 16);
		const ficha = { ficha: '1004', data: '05/04/2026 02:01:57', agente: 'ana', status: 'Pendente' };
		// Its time names 15:01:57 or 16:01:57 UTC: the first is before the start.
		const writtenAt = Date.UTC(2026, 3, 4, 17, 10);
		const listing = (now: number, read: Pick<ReadWindow, 'de' | 'ate'>) =>
			now >= writtenAt && read.de <= '20260405020157' && '20260405020157' <= read.ate
				? [ficha]
				: [];
		const identify = rowIdentifier(RULES.getFP1, sydney);
		let state = startState('getFP1', null, from);
		const emitted: IDataObject[] = [];
		const reported: IDataObject[] = [];
		for (let now = from + MINUTE; now <= from + 100 * MINUTE; now += MINUTE) {
			const result = await pollReport(
				state,
				now,
				sydneySettings,
				async (read) => listing(now, read),
				identify,
			);
			emitted.push(...result.emit);
			const check = readingAhead(judgedFrom(state), now, sydney);
			const found = findLateRows(
				result.state,
				listing(now, check),
				identify,
				sydneySettings,
				check,
				now,
			);
			reported.push(...found.late.map(({ row }) => row));
			state = JSON.parse(JSON.stringify(found.state)) as CursorState;
		}
		expect([emitted, reported]).toEqual([[], [ficha]]);
		expect(state.lateRows).toBe(1);
	});

	const call = {
		horario: '2026-11-25 09:00:05',
		tipo: 'Recebida',
		numero: '(11) 3333-4444',
		duracao_segundos: 42,
		desligada_por: '1',
		protocolo: '',
		ramal_agente: '1001',
	};
	const withProtocol = { ...call, protocolo: '2026112500042' };

	it('New Call in History: a call listed first without its protocol and then with it is emitted once', async () => {
		expect(await emits('getHC2', [[call], [withProtocol], [withProtocol]])).toEqual([
			[call],
			[],
			[],
		]);
	});

	it('New Call in History: after that, a call the same in every field still without a protocol is another call', async () => {
		expect(
			await emits('getHC2', [[call], [withProtocol], [call, withProtocol], [withProtocol, call]]),
		).toEqual([[call], [], [call], []]);
	});

	it('New Call in History: of two calls alike emitted once without a protocol, both then listed with one, one more comes', async () => {
		const other = { ...call, protocolo: '2026112500043' };
		expect(await emits('getHC2', [[call], [other, withProtocol], [withProtocol, other]])).toEqual([
			[call],
			[other],
			[],
		]);
	});

	it('New Call in History: numbers as text, text with spaces around it and the range read change nothing', async () => {
		const sentAsText = {
			...call,
			duracao_segundos: '42',
			numero: ' (11) 3333-4444 ',
			de: '25/11/2026 08:55',
		};
		expect(await emits('getHC2', [[call], [sentAsText], [call]])).toEqual([[call], [], []]);
	});
});
