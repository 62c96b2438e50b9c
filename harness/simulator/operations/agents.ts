/** logout, pauseout and getLigacaoAtivaByRamal: the operations that touch live agents and calls. */
import { isIP } from 'node:net';
import type { AgentStates } from '../agent-states';
import { invalidRequest } from '../errors';
import type { FieldReader } from '../http/fields';
import { findAgent, findBatch, findExtension, findQueue } from '../lookup';
import type { Agent } from '../model';
import { toSnakeKey } from '../text';
import type { AgentEvent } from '../types';
import { outId, present, type OperationContext, type OperationHandler } from './context';

/** `user` (login or id) is required; `ip`, the agent's station, is optional but must be an address. */
function agentCommand(change: (states: AgentStates, agent: Agent) => AgentEvent): OperationHandler {
	return (fields: FieldReader, context: OperationContext) => {
		const userReference = fields.required('user');
		const ip = fields.optional('ip');
		if (ip !== undefined && isIP(ip) === 0) throw invalidRequest(`Endereço IP inválido: ${ip}`);
		const agent = findAgent(context.data, userReference);
		const event = change(context.states, agent);
		context.publish(event);
		return present(
			context,
			{ usuario_id: outId(context, agent.id), login: agent.login, estado: agent.estado },
			{ status: 'success' },
		);
	};
}

export const logout = agentCommand((states, agent) => states.logout(agent));
export const pauseout = agentCommand((states, agent) => states.pauseOut(agent));

export const getLigacaoAtivaByRamal: OperationHandler = (fields, context) => {
	const { data } = context;
	const ramal = fields.required('ramal');
	if (!/^\d+$/.test(ramal)) throw invalidRequest(`Campo ramal deve ser numérico: ${ramal}`);
	findExtension(data, ramal);
	const call = data.activeCalls.find((candidate) => candidate.ramal === ramal);
	// A known extension with nobody talking is not an error: the answer is simply empty.
	if (!call) return present(context, {});
	const prospect = data.prospects[call.prospect];
	const extra: Record<string, string> = {};
	data.customFields.forEach(
		(field, index) => (extra[toSnakeKey(field.label)] = prospect.custom[index]),
	);
	return present(context, {
		ddd: call.ddd,
		uid: call.uid,
		numero: call.numero,
		nome: prospect.nome,
		codigo: prospect.codigo,
		cpf: prospect.cpf,
		lote: findBatch(data, String(call.loteId)).descricao,
		fila: findQueue(data, String(call.filaId)).descricao,
		ddd_cel: prospect.ddd_cel,
		tel_cel: prospect.tel_cel,
		ddd_com: prospect.ddd_com,
		tel_com: prospect.tel_com,
		ddd_res: prospect.ddd_res,
		tel_res: prospect.tel_res,
		...extra,
	});
};
