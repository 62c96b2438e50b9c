/** Builds the whole tenant deterministically from a seed, counts and a reference day. */
import { Faker, base, en, pt_BR } from '@faker-js/faker';
import type {
	Audio,
	Batch,
	Form,
	InboundRoute,
	Operation,
	Queue,
	SeededData,
	Team,
} from '../model';
import { Random } from '../random';
import { WallClock } from '../time';
import {
	audioNames,
	batchSuffixes,
	customFieldLabels,
	formDefinitions,
	inboundQueueDefinitions,
	operationNames,
	outboundQueueDefinitions,
	pauses,
	teamDefinitions,
} from './catalog';
import {
	makeActiveCalls,
	makeCalls,
	makeFichas,
	makeInboundCalls,
	type HistoryContext,
} from './history';
import { makeAgentsAndExtensions, makeProspects, makeReportUsers } from './people';

export interface SeedOptions {
	seed: number;
	fichas: number;
	calls: number;
	referenceDate: Date;
	/** The dialer's wall clock: history days and business hours are its (default: this process's). */
	clock?: WallClock;
}

const agentCount = 32;

/** Queue settings the seeded queues share; criarFilaAtiva stores the fields a client sends instead. */
const seededQueueConfig = {
	tempo_max_atendimento: 10,
	tamanho_fila: 1,
	tempo_max_tocando_agente: 0,
	tempo_max_fila_espera: 1,
};

export function seedData(options: SeedOptions): SeededData {
	const clock = options.clock ?? new WallClock();
	const faker = new Faker({ locale: [pt_BR, en, base], seed: options.seed });
	// A separate stream for bulk rows, so changing a count does not reshuffle the names.
	const random = new Random(options.seed ^ 0x5eed);

	const operations: Operation[] = operationNames.map((nome, index) => ({ id: index + 1, nome }));
	const teams: Team[] = teamDefinitions.map(([nome, operation], index) => ({
		id: 11 + index,
		nome,
		operacaoId: operations[operation].id,
	}));
	const queues: Queue[] = [
		...outboundQueueDefinitions.map(([descricao, operation, tipoDiscagem]): Queue => ({
			id: 0,
			descricao,
			operacaoId: operations[operation].id,
			direcao: 'ativa',
			tipoDiscagem,
			config: {
				...seededQueueConfig,
				overdial: 'N',
				num_canais: 30,
				canal_dialer: 1,
				adicionar_ddd_local: 'Y',
				operadora: 0,
			},
		})),
		...inboundQueueDefinitions.map(([descricao, operation]): Queue => ({
			id: 0,
			descricao,
			operacaoId: operations[operation].id,
			direcao: 'receptiva',
			config: { ...seededQueueConfig },
		})),
	].map((queue, index) => ({ ...queue, id: 21 + index }));
	const outboundQueues = queues.filter((queue) => queue.direcao === 'ativa');
	const batches: Batch[] = outboundQueues.flatMap((queue, queueIndex) =>
		[0, 1].map((slot) => ({
			id: 0,
			descricao: `${queue.descricao} - ${batchSuffixes[(queueIndex + slot) % batchSuffixes.length]}`,
			filaId: queue.id,
			ativo: true,
		})),
	);
	batches.forEach((batch, index) => (batch.id = 301 + index));
	// The last two batches are finished campaigns: they exist but are not active.
	batches.slice(-2).forEach((batch) => (batch.ativo = false));

	const forms: Form[] = formDefinitions.map((definition, index) => ({
		id: 41 + index,
		nome: definition.nome,
		questions: definition.questions.map((question, questionIndex) => ({
			numero: questionIndex + 1,
			label: question.label,
			opcoes: question.answers,
		})),
	}));
	const formsByOperation = new Map<number, Form[]>([
		[operations[0].id, [forms[0]]],
		[operations[1].id, [forms[2]]],
		[operations[2].id, forms],
		[operations[3].id, [forms[1]]],
	]);

	const { agents, extensions } = makeAgentsAndExtensions(faker, teams, agentCount);
	const prospectCount = Math.min(
		5000,
		Math.max(300, Math.round((options.fichas + options.calls) / 10)),
	);
	const prospects = makeProspects(faker, random, batches, prospectCount);
	const inboundRoutes = makeInboundRoutes(queues);
	const audios: Audio[] = audioNames.map((nome, index) => ({
		id: 61 + index,
		nome,
		ativo: index !== audioNames.length - 1,
	}));

	const context: HistoryContext = {
		random,
		referenceDay: options.referenceDate,
		clock,
		agents,
		teams,
		queues,
		batches,
		prospects,
	};
	const fichas = makeFichas(context, formsByOperation, options.fichas);
	const calls = makeCalls(context, options.calls, fichas.length);
	const inboundCalls = makeInboundCalls(context, inboundRoutes, Math.ceil(options.calls / 2));
	const activeCalls = makeActiveCalls(context, options.referenceDate.getTime());
	for (const agent of agents)
		if (agent.estado === 'paused') agent.pausaId = pauses[agent.id % pauses.length].id;

	return {
		referenceDay: clock.isoDay(options.referenceDate.getTime()),
		operations,
		teams,
		agents,
		extensions,
		queues,
		batches,
		customFields: customFieldLabels.map((label) => ({ label })),
		prospects,
		forms,
		fichas,
		calls,
		inboundRoutes,
		inboundCalls,
		audios,
		pauses: pauses.map((pause) => ({ ...pause })),
		activeCalls,
		reportUsers: makeReportUsers(teams),
	};
}

function makeInboundRoutes(queues: Queue[]): InboundRoute[] {
	const inbound = queues.filter((queue) => queue.direcao === 'receptiva');
	const toQueue = (queue: Queue) => ({
		tipoDestino: 'FILA' as const,
		destino: queue.descricao,
		filaId: queue.id,
	});
	return [
		{ id: 71, descricao: 'URA Principal', tipoDestino: 'URA', destino: 'Menu Principal' },
		{ id: 72, descricao: 'SAC 0800', ...toQueue(inbound[0]) },
		{ id: 73, descricao: 'Cobrança Receptivo', ...toQueue(inbound[1]) },
		{ id: 74, descricao: 'Ouvidoria', ...toQueue(inbound[2]) },
		{ id: 75, descricao: 'Ramal Direto Diretoria', tipoDestino: 'RAMAL', destino: 'SIP/1001' },
	];
}
