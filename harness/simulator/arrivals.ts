/**
 * Report rows that appear while the simulator runs: a ficha filled now, a call in the history,
 * an inbound call, a classification written minutes after its call, a row whose time is earlier
 * than rows already served. Tests add them through the control API or the programmatic handle.
 */
import type { ReportListing } from './listing';
import { findAgent, findForm, findRoute } from './lookup';
import type { CallRecord, Ficha, InboundCall, SeededData } from './model';
import type { Random } from './random';
import type { WallClock } from './time';
import { classificationResults, hangupCodes } from './seed/catalog';
import { makeCallUid, makeFicha, makeProtocol, makeWorkPicker, randomPhone } from './seed/history';
import type { ArrivedRow, RowArrival } from './types';

export const reportOperations = ['getFP1', 'getRQ4', 'getHC2', 'getRE2'] as const;
const maxRowsPerArrival = 10_000;

function instantOf(value: number | string | undefined, now: number): number {
	if (value === undefined) return now;
	const epochMs = typeof value === 'number' ? value : Date.parse(value);
	if (!Number.isFinite(epochMs)) throw new Error(`"at" is not a date: ${String(value)}`);
	return epochMs;
}

/** Reports show whole seconds and compare them with whole-second ranges, so rows carry whole seconds. */
const wholeSecond = (epochMs: number) => Math.floor(epochMs / 1000) * 1000;

function wholeNumber(value: number | undefined, name: string, fallback: number, max: number) {
	if (value === undefined) return fallback;
	if (!Number.isInteger(value) || value < 0 || value > max)
		throw new Error(`"${name}" must be a whole number from 0 to ${max}`);
	return value;
}

export class RowArrivals {
	private readonly pickWork: ReturnType<typeof makeWorkPicker>;

	constructor(
		private readonly data: SeededData,
		private readonly random: Random,
		private readonly clock: WallClock,
		private readonly listing: ReportListing,
	) {
		this.pickWork = makeWorkPicker({ random, ...data });
	}

	/** Adds the rows and says what each is, for the test's own record of what should be read. */
	add(arrival: RowArrival, now = Date.now()): ArrivedRow[] {
		if (!reportOperations.includes(arrival.report))
			throw new Error(`"report" must be one of ${reportOperations.join(', ')}`);
		const count = wholeNumber(arrival.count, 'count', 1, maxRowsPerArrival);
		const stepMs = wholeNumber(arrival.stepMs, 'stepMs', 0, 86_400_000);
		const visibleFrom = now + wholeNumber(arrival.visibleAfterMs, 'visibleAfterMs', 0, 86_400_000);
		const first = instantOf(arrival.at, now);
		if (arrival.durationSeconds !== undefined)
			wholeNumber(arrival.durationSeconds, 'durationSeconds', 0, 86_400);
		return Array.from({ length: count }, (_, index) => {
			const at = wholeSecond(first + index * stepMs);
			switch (arrival.report) {
				case 'getFP1': {
					if (arrival.ficha === undefined) {
						const ficha = this.addFicha(arrival, at, visibleFrom);
						return this.arrived('getFP1', ficha.id, at, visibleFrom);
					}
					const ficha = this.changeStatus(arrival.ficha, arrival.status, at);
					return this.arrived('getFP1', ficha.id, ficha.data, ficha.visibleFrom ?? ficha.data);
				}
				case 'getRE2':
					return this.arrived(
						'getRE2',
						this.addInboundCall(arrival, at, visibleFrom).id,
						at,
						visibleFrom,
					);
				default: {
					if (arrival.report === 'getRQ4' && arrival.protocolo !== undefined)
						return this.reclassify(arrival.protocolo, arrival.resultado, at, visibleFrom);
					const call = this.addCall(arrival, at, now, visibleFrom);
					return {
						...this.arrived(arrival.report, call.id, at, visibleFrom),
						protocolo: call.protocolo,
					};
				}
			}
		});
	}

	/** What a test is told of a row; `visibleFrom` counts the dialer's own late write too. */
	private arrived(
		report: ArrivedRow['report'],
		id: number,
		at: number,
		visibleFrom: number,
		part = 0,
	): ArrivedRow {
		return {
			report,
			id,
			at,
			visibleFrom: this.listing.shownFrom(report, id, at, visibleFrom, part),
		};
	}

	/**
	 * A ficha saved again at `at` with another status: still one row, shown with the new status
	 * (and, as `fichaSaves` says, dated or selected by the save).
	 */
	private changeStatus(id: number, status: string | undefined, at: number): Ficha {
		// Ids stay 1..n in order, so an id is also an index.
		const ficha = this.data.fichas[id - 1] as Ficha | undefined;
		if (ficha?.id !== id) throw new Error(`No ficha ${id}`);
		if (status === undefined) throw new Error('"status" is needed to change a ficha\'s status');
		ficha.status = status;
		ficha.savedAt = at;
		if (this.listing.fichaSaves === 'redated') ficha.data = at;
		return ficha;
	}

	/** A classified call classified again: a getRQ4 row of its own, at `at`, with another result. */
	private reclassify(
		protocolo: string,
		resultado: string | undefined,
		at: number,
		visibleFrom: number,
	): ArrivedRow {
		const call = this.data.calls.find(
			(candidate) => candidate.protocolo === protocolo && candidate.resultado !== undefined,
		);
		if (!call) throw new Error(`No classified call with protocolo ${protocolo}`);
		const later = (call.reclassifications ??= []);
		later.push({
			at,
			resultado: resultado ?? this.random.pick(classificationResults),
			visibleFrom,
		});
		return {
			...this.arrived('getRQ4', call.id, at, visibleFrom, later.length),
			protocolo,
		};
	}

	private agentFor(arrival: RowArrival) {
		return arrival.agent === undefined
			? this.random.pick(this.data.agents)
			: findAgent(this.data, String(arrival.agent));
	}

	private addFicha(arrival: RowArrival, at: number, visibleFrom: number): Ficha {
		const { data, random } = this;
		const form =
			arrival.form === undefined ? random.pick(data.forms) : findForm(data, String(arrival.form));
		const agent = this.agentFor(arrival);
		const work = this.pickWork(agent);
		// Ids stay 1..n in order: getFP1 reads a ficha id as its index.
		const ficha: Ficha = {
			...makeFicha(random, { id: data.fichas.length + 1, form, data: at, agent, work }),
			...(arrival.status === undefined ? {} : { status: arrival.status }),
			visibleFrom,
		};
		data.fichas.push(ficha);
		return ficha;
	}

	/**
	 * getHC2 rows are calls in the history from `visibleFrom` on, without a classification; getRQ4
	 * rows are answered outbound calls in the history at once, classified from `visibleFrom` on.
	 */
	private addCall(arrival: RowArrival, at: number, now: number, visibleFrom: number): CallRecord {
		const { data, random } = this;
		const agent = this.agentFor(arrival);
		const work = this.pickWork(agent);
		const id = data.calls.length + 1;
		const phone = randomPhone(random);
		const classified = arrival.report === 'getRQ4';
		const call: CallRecord = {
			id,
			uid: makeCallUid(at, agent.ramal, id),
			protocolo: makeProtocol(at, id, this.clock),
			horario: at,
			tipo: classified ? 'Gerada' : (arrival.tipo ?? random.pick(['Gerada', 'Recebida'] as const)),
			ramal: agent.ramal,
			agentId: agent.id,
			teamId: work.team.id,
			numero: `${phone.ddd}${phone.numero}`,
			duracaoSegundos: arrival.durationSeconds ?? random.int(20, 900),
			desligadaPor: random.pick(hangupCodes),
			prospect: work.prospect,
			filaId: work.filaId,
			loteId: work.loteId,
			operacaoId: work.operacaoId,
			visibleFrom: classified ? now : visibleFrom,
			recorded: arrival.recorded ?? true,
		};
		if (classified) {
			call.resultado = arrival.resultado ?? random.pick(classificationResults);
			call.classifiedFrom = visibleFrom;
		}
		data.calls.push(call);
		return call;
	}

	private addInboundCall(arrival: RowArrival, at: number, visibleFrom: number): InboundCall {
		const { data, random } = this;
		const route =
			arrival.route === undefined
				? random.pick(data.inboundRoutes)
				: findRoute(data, String(arrival.route));
		const phone = randomPhone(random);
		const call: InboundCall = {
			id: data.inboundCalls.length + 1,
			dataHora: at,
			origem: arrival.caller ?? `${phone.ddd}${phone.numero}`,
			rotaId: route.id,
			prospectExistente: random.chance(0.6),
			status: 'AT',
			tempoFila: random.int(0, 180),
			tempoAtendimento: random.int(30, 900),
			agentId: this.agentFor(arrival).id,
			resultado: arrival.resultado ?? random.pick(classificationResults),
			visibleFrom,
		};
		data.inboundCalls.push(call);
		return call;
	}
}
