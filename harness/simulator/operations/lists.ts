/** getLotesAtivos and getTime. */
import { findAgent, findQueue } from '../lookup';
import { indexById, outId, present, type OperationHandler } from './context';

export const getLotesAtivos: OperationHandler = (fields, context) => {
	const { data } = context;
	const queueReference = fields.optional('fila');
	const onlyQueue = queueReference === undefined ? undefined : findQueue(data, queueReference);
	const queues = indexById(data.queues);
	const lotes = data.batches
		.filter((batch) => batch.ativo && (!onlyQueue || batch.filaId === onlyQueue.id))
		.map((batch) => ({
			id: outId(context, batch.id),
			descricao: batch.descricao,
			fila_id: outId(context, batch.filaId),
			fila: queues.get(batch.filaId)?.descricao ?? '',
		}));
	return present(context, { lotes });
};

export const getTime: OperationHandler = (fields, context) => {
	const { data } = context;
	const userReference = fields.optional('user');
	const agent = userReference === undefined ? undefined : findAgent(data, userReference);
	const operations = indexById(data.operations);
	const times = data.teams
		.filter((team) => !agent || agent.teamIds.includes(team.id))
		.map((team) => ({
			id: outId(context, team.id),
			nome: team.nome,
			operacao_id: outId(context, team.operacaoId),
			operacao: operations.get(team.operacaoId)?.nome ?? '',
		}));
	return present(context, { times });
};
