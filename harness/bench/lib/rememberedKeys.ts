/**
 * What the Report Trigger's memory of fichas costs as it grows, in the bench's own process (no
 * n8n): the trigger's own functions on a day of New Filled Form rows, each ficha in a second of its
 * own. For each size: the state n8n stores (JSON) with that many fichas remembered; a scheduled
 * poll finding 1,000 new fichas with them remembered, against the same poll with none remembered
 * (its peer, in the same run); and the look back for rows written too late, reading the whole day
 * (every ficha of it, all remembered) after its answer is parsed, against JSON.parse of that
 * day's answer (what reading the window costs any client). Medians of `runs` after a warm-up, variants alternated.
 */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { baselineOf, checkWindow } from '../../../nodes/DialerReportTrigger/clockCheck';
import {
	absorbRead,
	pollReport,
	startState,
	wallClockRange,
	type CursorSettings,
	type CursorState,
} from '../../../nodes/DialerReportTrigger/cursor';
import { findLateRows } from '../../../nodes/DialerReportTrigger/lateRows';
import { rowIdentifier } from '../../../nodes/DialerReportTrigger/rowIdentity';
import { rowSource } from '../../../nodes/shared/reports/filledForms';
import { summarize, type Summary } from './stats';

export interface RememberedKeysPoint {
	/** Fichas remembered. */
	remembered: number;
	/** The node's static data as n8n stores it (JSON), in kB. */
	staticDataKb: number;
	/** A poll finding 1,000 new fichas with `remembered` fichas remembered, and with none. */
	pollMs: Summary;
	peerPollMs: Summary;
	/** The look back over a day holding `remembered` fichas, and JSON.parse of that answer. */
	lookBackMs: Summary;
	parseMs: Summary;
	/** The look back's answer, in MB. */
	answerMb: number;
}

export interface RememberedKeysResult {
	/** When and at which commit this part was measured (the rest of the section may be older). */
	date: string;
	commit: string;
	node: string;
	newRows: number;
	points: RememberedKeysPoint[];
}

const ZONE = 'America/Sao_Paulo';
const SETTINGS: CursorSettings = { zone: ZONE, overlapMs: 10 * 60_000, maxRows: 100_000 };
const NEW_ROWS = 1_000;

function ficha(n: number, at: number): IDataObject {
	return {
		ficha: String(100_000 + n),
		data: DateTime.fromMillis(at, { zone: ZONE }).toFormat('dd/MM/yyyy HH:mm:ss'),
		status: 'Finalizada',
		agente: `agente${n % 200}`,
		time: 'Vendas',
		codigo: String(500_000 + n),
		cpf: '12345678909',
		nome: `Cliente ${n}`,
		ddd_cel: '11',
		tel_cel: '987654321',
		lote: 'Lote Novembro',
		pontos: '12.50',
	};
}

const timed = async (work: () => unknown): Promise<number> => {
	const started = performance.now();
	await work();
	return performance.now() - started;
};

export async function measureRememberedKeys(
	sizes: number[],
	runs: number,
	commit: string,
): Promise<RememberedKeysResult> {
	const now = DateTime.fromISO('2026-11-25T18:00:00', { zone: ZONE }).toMillis();
	const identify = rowIdentifier(rowSource.identity, ZONE);
	const points: RememberedKeysPoint[] = [];
	for (const remembered of sizes) {
		// The day's fichas, one a second or more apart, up to 2 minutes ago.
		const span = 23 * 3_600_000;
		const day = Array.from({ length: remembered }, (_, n) =>
			ficha(n, now - 120_000 - span + Math.floor((n * span) / remembered / 1000) * 1000),
		);
		const from = now - 120_000 - span;
		const dayRead = { from, to: now - 120_000, ...wallClockRange(from, now - 120_000, ZONE) };
		const start = startState('getFP1', null, from);
		const state: CursorState = absorbRead(
			start,
			dayRead,
			day,
			identify,
			remembered,
			SETTINGS,
		).state;
		const staticDataKb = Math.round(
			Buffer.byteLength(JSON.stringify({ reportCursor: state })) / 1024,
		);
		// The next poll: 1,000 new fichas in the last 2 minutes.
		const fresh = Array.from({ length: NEW_ROWS }, (_, n) =>
			ficha(remembered + n, now - 110_000 + n * 100),
		);
		const peer = startState('getFP1', null, now - 120_000);
		const poll = (base: CursorState) => () =>
			pollReport(base, now, SETTINGS, async () => fresh, identify);
		// The look back: the whole day, answered as the dialer answers it.
		const answer = JSON.stringify({ data: day });
		const check = checkWindow(now, ZONE);
		const parsed = () => (JSON.parse(answer) as { data: IDataObject[] }).data;
		// As a poll does it: a new identifier, the rows identified for the baseline, then judged.
		const lookBack = (rows: IDataObject[]) => () => {
			const identifyRead = rowIdentifier(rowSource.identity, ZONE);
			baselineOf(rows, (row) => identifyRead(row).key, check, now);
			return findLateRows(state, rows, identifyRead, SETTINGS, check, now, undefined);
		};
		const samples = {
			poll: [] as number[],
			peer: [] as number[],
			look: [] as number[],
			parse: [] as number[],
		};
		for (let run = 0; run <= runs; run++) {
			const order =
				run % 2 === 0 ? ['poll', 'peer', 'look', 'parse'] : ['parse', 'look', 'peer', 'poll'];
			for (const name of order) {
				const ms =
					name === 'poll'
						? await timed(poll(state))
						: name === 'peer'
							? await timed(poll(peer))
							: name === 'look'
								? await timed(lookBack(parsed()))
								: await timed(parsed);
				if (run > 0) samples[name as keyof typeof samples].push(ms);
			}
		}
		const { late } = lookBack(parsed())();
		if (late.length !== 0) throw new Error(`the look back found ${late.length} late rows, not 0`);
		points.push({
			remembered: state.known
				? Object.values(state.known).reduce((sum, entries) => sum + entries.length / 2, 0)
				: 0,
			staticDataKb,
			pollMs: summarize(samples.poll),
			peerPollMs: summarize(samples.peer),
			lookBackMs: summarize(samples.look),
			parseMs: summarize(samples.parse),
			answerMb: Buffer.byteLength(answer) / 1048576,
		});
	}
	return {
		date: new Date().toISOString(),
		commit,
		node: process.version,
		newRows: NEW_ROWS,
		points,
	};
}
