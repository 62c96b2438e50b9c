/** criarFilaAtiva and changeLoteToFila: the two operations whose success wrapper the contract fixes. */
import { ApiError, refusal } from '../errors';
import { yesNo } from '../http/fields';
import { jsonReply } from '../http/replies';
import { findBatch, findOperation, findQueue } from '../lookup';
import type { DialingType, Queue } from '../model';
import { sameName } from '../text';
import { outId, type OperationHandler } from './context';

const dialingTypes: readonly DialingType[] = ['PRE', 'POW', 'PRV', 'MSG', 'SGL'];
const requiredNumbers = ['max_overdial', 'num_canais', 'canal_dialer', 'operadora'];
/** Optional numeric settings and the contract's defaults where it gives one. */
const optionalNumbers: Record<string, number | undefined> = {
	tempo_max_atendimento: 10,
	tamanho_fila: 1,
	tempo_max_tocando_agente: 0,
	tempo_max_fila_espera: 1,
	tempo_medio_ring: undefined,
	tempo_medio_atendimento: undefined,
	tempo_medio_pos_atendimento: undefined,
	max_dias_agendamento: undefined,
	max_ag_espec_dia_agente: undefined,
	max_ag_espec_agente: undefined,
	tempo_dial: undefined,
};

export const criarFilaAtiva: OperationHandler = (fields, context) => {
	const { data } = context;
	const descricao = fields.required('descricao');
	const operationReference = fields.required('operacao');
	const tipoDiscagem = fields.choice('tipo_discagem', dialingTypes, true)!;
	const config: Queue['config'] = {
		overdial: fields.choice('overdial', yesNo, true)!,
		adicionar_ddd_local: fields.choice('adicionar_ddd_local', yesNo, true)!,
	};
	for (const name of requiredNumbers) config[name] = fields.integer(name, true)!;
	for (const [name, fallback] of Object.entries(optionalNumbers)) {
		const value = fields.integer(name, false) ?? fallback;
		if (value !== undefined) config[name] = value;
	}
	const integracao = fields.optional('integracao_id');
	if (integracao !== undefined) config.integracao_id = integracao;

	const operation = findOperation(data, operationReference);
	// Description is the queue's name elsewhere in the API, so it must stay unique (a conflict, as some servers answer).
	if (data.queues.some((queue) => sameName(queue.descricao, descricao)))
		throw new ApiError(409, `Já existe uma fila com a descrição: ${descricao}`);
	const id = Math.max(0, ...data.queues.map((queue) => queue.id)) + 1;
	data.queues.push({
		id,
		descricao,
		operacaoId: operation.id,
		direcao: 'ativa',
		tipoDiscagem,
		config,
	});
	return jsonReply({
		status: 'success',
		data: { id: outId(context, id), descricao, operacao: operation.nome },
	});
};

export const changeLoteToFila: OperationHandler = (fields, context) => {
	const { data } = context;
	const batchReference = fields.required('lote');
	const queueReference = fields.required('fila');
	const batch = findBatch(data, batchReference);
	const queue = findQueue(data, queueReference);
	if (queue.direcao !== 'ativa') throw refusal(`A fila ${queue.descricao} não é uma fila ativa`);
	batch.filaId = queue.id;
	// Ids are strings in this answer whatever the server's habit elsewhere (contract).
	return jsonReply({
		status: 'success',
		data: {
			lote: { id: String(batch.id), login: batch.descricao },
			fila: { id: String(queue.id), descricao: queue.descricao },
		},
	});
};
