/** Resolving the contract's "id or name" references; no match is a business refusal. */
import { refusal } from './errors';
import type {
	Agent,
	Batch,
	Extension,
	Form,
	InboundRoute,
	Operation,
	Queue,
	SeededData,
	Team,
} from './model';
import { sameName } from './text';

function byIdOrName<T extends { id: number }>(
	items: T[],
	reference: string,
	names: (item: T) => string[],
): T | undefined {
	if (/^\d+$/.test(reference)) {
		const id = Number(reference);
		const match = items.find((item) => item.id === id);
		if (match) return match;
	}
	return items.find((item) => names(item).some((name) => sameName(name, reference)));
}

function resolver<T extends { id: number }>(
	notFound: string,
	list: (data: SeededData) => T[],
	names: (item: T) => string[],
) {
	return (data: SeededData, reference: string): T => {
		const found = byIdOrName(list(data), reference, names);
		if (!found) throw refusal(`${notFound}: ${reference}`);
		return found;
	};
}

export const findOperation = resolver<Operation>(
	'Operação não encontrada',
	(data) => data.operations,
	(item) => [item.nome],
);
export const findQueue = resolver<Queue>(
	'Fila não encontrada',
	(data) => data.queues,
	(item) => [item.descricao],
);
export const findBatch = resolver<Batch>(
	'Lote não encontrado',
	(data) => data.batches,
	(item) => [item.descricao],
);
export const findTeam = resolver<Team>(
	'Time não encontrado',
	(data) => data.teams,
	(item) => [item.nome],
);
export const findForm = resolver<Form>(
	'Formulário não encontrado',
	(data) => data.forms,
	(item) => [item.nome],
);
export const findRoute = resolver<InboundRoute>(
	'Rota de entrada não encontrada',
	(data) => data.inboundRoutes,
	(item) => [item.descricao],
);
/** Agents by id or login (the API's `user` fields). */
export const findAgent = resolver<Agent>(
	'Agente não encontrado',
	(data) => data.agents,
	(item) => [item.login],
);
/** Report filters also accept the agent's full name, as getRQ4 reports agents by name. */
export const findAgentForReport = resolver<Agent>(
	'Agente não encontrado',
	(data) => data.agents,
	(item) => [item.login, item.nome],
);

export function findExtension(data: SeededData, numero: string): Extension {
	const found = data.extensions.find((extension) => extension.numero === numero);
	if (!found) throw refusal(`Ramal não encontrado: ${numero}`);
	return found;
}
