/**
 * Bulk history rows (fichas, calls, inbound calls) over the 60 days before the reference day.
 * Built with the fast PRNG only, so 100k rows take well under a second.
 */
import type {
	ActiveCall,
	Agent,
	Batch,
	CallRecord,
	Ficha,
	Form,
	InboundCall,
	InboundRoute,
	Prospect,
	Queue,
	Team,
} from '../model';
import type { Random } from '../random';
import type { WallClock } from '../time';
import { areaCodes, classificationResults, fichaStatuses, hangupCodes } from './catalog';

const historyDays = 60;
const businessDayStartSeconds = 8 * 3600;
const businessDaySeconds = 12 * 3600;

export interface HistoryContext {
	random: Random;
	referenceDay: Date;
	clock: WallClock;
	agents: Agent[];
	teams: Team[];
	queues: Queue[];
	batches: Batch[];
	prospects: Prospect[];
}

/** Sorted instants between 08:00 and 20:00 on the days before the reference day. */
function businessInstants(context: HistoryContext, count: number): number[] {
	const { random, referenceDay, clock } = context;
	const instants = new Float64Array(count);
	for (let i = 0; i < count; i++) {
		const dayStart = clock.midnight(referenceDay.getTime(), -random.int(1, historyDays));
		instants[i] =
			dayStart + (businessDayStartSeconds + random.int(0, businessDaySeconds - 1)) * 1000;
	}
	return Array.from(instants.sort());
}

/** Where an agent's work lands: a team of theirs, and a prospect of a batch of that team's operation. */
export function makeWorkPicker(
	context: Pick<HistoryContext, 'random' | 'teams' | 'queues' | 'batches' | 'prospects'>,
) {
	const { random, teams, queues, batches, prospects } = context;
	const teamById = new Map(teams.map((team) => [team.id, team]));
	const queueById = new Map(queues.map((queue) => [queue.id, queue]));
	const batchById = new Map(batches.map((batch) => [batch.id, batch]));
	const prospectsByOperation = new Map<number, number[]>();
	prospects.forEach((prospect, index) => {
		const operacaoId = queueById.get(batchById.get(prospect.loteId)!.filaId)!.operacaoId;
		const list = prospectsByOperation.get(operacaoId) ?? [];
		list.push(index);
		prospectsByOperation.set(operacaoId, list);
	});
	return (agent: Agent) => {
		const team = teamById.get(random.pick(agent.teamIds))!;
		const prospect = random.pick(prospectsByOperation.get(team.operacaoId)!);
		const batch = batchById.get(prospects[prospect].loteId)!;
		return { team, prospect, loteId: batch.id, filaId: batch.filaId, operacaoId: team.operacaoId };
	};
}

/** What an agent is working on when a call or a ficha happens. */
type Work = ReturnType<ReturnType<typeof makeWorkPicker>>;

/** One filled form: the agent's work (team, prospect, batch, queue) and random answers. */
export function makeFicha(
	random: Random,
	fields: { id: number; form: Form; data: number; agent: Agent; work: Work },
): Ficha {
	const { id, form, data, agent, work } = fields;
	// Answers first: the seeded data stays what it was before this helper (same draws, same order).
	const answers = form.questions.map((question) => random.pick(question.opcoes));
	return {
		id,
		formId: form.id,
		data,
		status: random.pick(fichaStatuses),
		agentId: agent.id,
		teamId: work.team.id,
		prospect: work.prospect,
		loteId: work.loteId,
		filaId: work.filaId,
		operacaoId: work.operacaoId,
		pontos: random.int(0, 100),
		answers,
	};
}

/** formsByOperation: the forms each operation's agents fill. */
export function makeFichas(
	context: HistoryContext,
	formsByOperation: Map<number, Form[]>,
	count: number,
): Ficha[] {
	const { random, agents } = context;
	const pickWork = makeWorkPicker(context);
	return businessInstants(context, count).map((data, index) => {
		const agent = random.pick(agents);
		const work = pickWork(agent);
		const form = random.pick(formsByOperation.get(work.operacaoId)!);
		return makeFicha(random, { id: index + 1, form, data, agent, work });
	});
}

export function makeCallUid(epochMs: number, ramal: string, sequence: number): string {
	return `${Math.floor(epochMs / 1000)}-${ramal}-${String(sequence).padStart(6, '0')}`;
}

export function makeProtocol(epochMs: number, sequence: number, clock: WallClock): string {
	return `${clock.compactDay(epochMs)}${String(sequence).padStart(7, '0')}`;
}

export function randomPhone(random: Random): { ddd: string; numero: string } {
	const mobile = random.chance(0.7);
	return {
		ddd: random.pick(areaCodes),
		numero: mobile ? `9${random.digits(8)}` : `${random.int(2, 5)}${random.digits(7)}`,
	};
}

export function makeCalls(
	context: HistoryContext,
	count: number,
	fichaCount: number,
): CallRecord[] {
	const { random, agents } = context;
	const pickWork = makeWorkPicker(context);
	return businessInstants(context, count).map((horario, index) => {
		const id = index + 1;
		const agent = random.pick(agents);
		const work = pickWork(agent);
		const tipo = random.chance(0.7) ? 'Gerada' : 'Recebida';
		const answered = tipo === 'Recebida' || random.chance(0.85);
		const phone = randomPhone(random);
		const call: CallRecord = {
			id,
			uid: makeCallUid(horario, agent.ramal, id),
			protocolo: makeProtocol(horario, id, context.clock),
			horario,
			tipo,
			ramal: agent.ramal,
			agentId: agent.id,
			teamId: work.team.id,
			numero: `${phone.ddd}${phone.numero}`,
			duracaoSegundos: answered ? random.int(20, 900) : 0,
			desligadaPor: random.pick(hangupCodes),
			prospect: work.prospect,
			filaId: work.filaId,
			loteId: work.loteId,
			operacaoId: work.operacaoId,
		};
		if (tipo === 'Gerada' && answered) {
			call.resultado = random.pick(classificationResults);
			if (call.resultado === 'Agendado')
				call.dataAgendamento = horario + random.int(1, 5) * 86_400_000;
			if (fichaCount > 0 && random.chance(0.4)) call.fichaId = random.int(1, fichaCount);
		}
		return call;
	});
}

export function makeInboundCalls(
	context: HistoryContext,
	routes: InboundRoute[],
	count: number,
): InboundCall[] {
	const { random, agents } = context;
	return businessInstants(context, count).map((dataHora, index) => {
		const roll = random.next();
		const status = roll < 0.75 ? 'AT' : roll < 0.9 ? 'AB' : 'RA';
		const answered = status === 'AT';
		const phone = randomPhone(random);
		return {
			id: index + 1,
			dataHora,
			origem: `${phone.ddd}${phone.numero}`,
			rotaId: random.pick(routes).id,
			prospectExistente: random.chance(0.6),
			status,
			tempoFila: random.int(0, 180),
			tempoAtendimento: answered ? random.int(30, 900) : 0,
			agentId: answered ? random.pick(agents).id : undefined,
			resultado: answered ? random.pick(classificationResults) : '',
		};
	});
}

/** Calls in progress for the agents that start busy (and one paused during a call). */
export function makeActiveCalls(context: HistoryContext, now: number): ActiveCall[] {
	const { random, agents } = context;
	const pickWork = makeWorkPicker(context);
	const pausedWithCall = agents.find((agent) => agent.estado === 'paused');
	return agents
		.filter((agent) => agent.estado === 'busy' || agent === pausedWithCall)
		.map((agent, index) =>
			startActiveCall(random, agent, pickWork(agent), now - random.int(10, 600) * 1000, index + 1),
		);
}

export function startActiveCall(
	random: Random,
	agent: Agent,
	work: { prospect: number; loteId: number; filaId: number },
	inicio: number,
	sequence: number,
): ActiveCall {
	const phone = randomPhone(random);
	const call: ActiveCall = {
		uid: makeCallUid(inicio, agent.ramal, sequence),
		ramal: agent.ramal,
		agentId: agent.id,
		prospect: work.prospect,
		loteId: work.loteId,
		filaId: work.filaId,
		ddd: phone.ddd,
		numero: phone.numero,
		inicio,
	};
	agent.callUid = call.uid;
	return call;
}
