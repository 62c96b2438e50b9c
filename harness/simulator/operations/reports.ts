/** getRQ4, getHC2 and getRE2. */
import { invalidRequest, refusal } from '../errors';
import {
	findAgent,
	findAgentForReport,
	findBatch,
	findExtension,
	findOperation,
	findQueue,
	findRoute,
	findTeam,
} from '../lookup';
import type { CallRecord } from '../model';
import { hasRecording } from '../recordings';
import { extensionTypes } from '../seed/catalog';
import { formatPhone } from '../text';
import { formatDuration } from '../time';
import { indexById, present, reportRange, rowTimeText, type OperationHandler } from './context';
import { filterId, passes } from './filters';

const phone = (digits: string) => formatPhone(digits.slice(0, 2), digits.slice(2));

export const getRQ4: OperationHandler = (fields, context) => {
	const { data } = context;
	const range = reportRange(fields, context, true)!;
	const operacao = filterId(fields, data, 'operacao', findOperation);
	const fila = filterId(fields, data, 'fila', findQueue);
	const lote = filterId(fields, data, 'lote', findBatch);
	const time = filterId(fields, data, 'time', findTeam);
	const agente = filterId(fields, data, 'agente', findAgentForReport);
	const agents = indexById(data.agents);
	const queues = indexById(data.queues);
	const batches = indexById(data.batches);
	const row = (call: CallRecord, at: number, resultado: string) => {
		const prospect = data.prospects[call.prospect];
		return {
			datahora: rowTimeText(context, at),
			agente: agents.get(call.agentId)?.nome ?? '',
			fila: queues.get(call.filaId)?.descricao ?? '',
			lote: batches.get(call.loteId)?.descricao ?? '',
			codigo: prospect.codigo,
			cpf: prospect.cpf,
			nome: prospect.nome,
			resultado,
			duracao: formatDuration(call.duracaoSegundos),
			numero: phone(call.numero),
			ficha_no: call.fichaId === undefined ? '' : String(call.fichaId),
			arquivo: hasRecording(call) ? context.recordingUrl(call.uid) : '',
			protocolo: call.protocolo,
			data_agendamento:
				call.dataAgendamento === undefined
					? ''
					: context.clock.formatBrazilianDateTime(call.dataAgendamento),
		};
	};
	const now = Date.now();
	const rows: Array<ReturnType<typeof row>> = [];
	for (const call of data.calls) {
		if (
			call.resultado === undefined ||
			!passes(operacao, call.operacaoId) ||
			!passes(fila, call.filaId) ||
			!passes(lote, call.loteId) ||
			!passes(time, call.teamId) ||
			!passes(agente, call.agentId)
		)
			continue;
		// The first classification carries the call's time; a later one its own, as a row of its own.
		const classifications = [
			{ at: call.horario, resultado: call.resultado, visibleFrom: call.classifiedFrom },
			...(call.reclassifications ?? []),
		];
		classifications.forEach(({ at, resultado, visibleFrom }, part) => {
			if (
				at >= range.de &&
				at <= range.ate &&
				context.listing.shows('getRQ4', call.id, at, visibleFrom, now, part)
			)
				rows.push(row(call, at, resultado));
		});
	}
	return present(context, context.listing.list(rows));
};

const entityTypes = ['RS', 'RP', 'RI', 'RK', 'A'] as const;

export const getHC2: OperationHandler = (fields, context) => {
	const { data } = context;
	const range = reportRange(fields, context, true)!;
	const entityType = fields.choice('tipo_entidade', entityTypes, true)!;
	const reference = fields.required('ramal_agente');
	const direction = fields.choice('tipo', ['G', 'R'] as const, false);
	if (entityType !== 'A' && !/^\d+$/.test(reference))
		throw invalidRequest(`Campo ramal_agente deve ser numérico: ${reference}`);

	let label: string;
	let belongs: (call: CallRecord) => boolean;
	if (entityType === 'A') {
		const agent = findAgent(data, reference);
		label = agent.login;
		belongs = (call) => call.agentId === agent.id;
	} else {
		const extension = findExtension(data, reference);
		if (extension.tipo !== entityType)
			throw refusal(`Ramal ${reference} não é do tipo ${entityType}`);
		label = `${extensionTypes[extension.tipo].label}/${extension.numero}`;
		belongs = (call) => call.ramal === extension.numero;
	}
	const wantedType =
		direction === undefined ? undefined : direction === 'G' ? 'Gerada' : 'Recebida';
	const now = Date.now();
	const chamadas = context.listing
		.list(
			data.calls.filter(
				(call) =>
					call.horario >= range.de &&
					call.horario <= range.ate &&
					context.listing.shows('getHC2', call.id, call.horario, call.visibleFrom, now) &&
					belongs(call) &&
					(!wantedType || call.tipo === wantedType),
			),
		)
		.map((call) => ({
			horario: context.clock.formatIsoLocal(call.horario),
			tipo: call.tipo,
			numero: phone(call.numero),
			duracao_segundos: call.duracaoSegundos,
			duracao: formatDuration(call.duracaoSegundos),
			desligada_por: call.desligadaPor,
			protocolo: call.protocolo,
		}));
	return present(context, {
		ramal_agente: label,
		de: context.clock.formatBrazilianMinute(range.de),
		ate: context.clock.formatBrazilianMinute(range.ate),
		total: chamadas.length,
		chamadas,
	});
};

export const getRE2: OperationHandler = (fields, context) => {
	const { data } = context;
	const range = reportRange(fields, context, true)!;
	const fila = filterId(fields, data, 'fila', findQueue);
	const rota = filterId(fields, data, 'rotaEntrada', findRoute);
	const routes = indexById(data.inboundRoutes);
	const agents = indexById(data.agents);
	const now = Date.now();
	const resultado = context.listing
		.list(
			data.inboundCalls.filter((call) => {
				const route = routes.get(call.rotaId)!;
				return (
					call.dataHora >= range.de &&
					call.dataHora <= range.ate &&
					context.listing.shows('getRE2', call.id, call.dataHora, call.visibleFrom, now) &&
					passes(rota, route.id) &&
					passes(fila, route.filaId)
				);
			}),
		)
		.map((call) => {
			const route = routes.get(call.rotaId)!;
			return {
				data_hora: rowTimeText(context, call.dataHora),
				// A withheld number shows as text ("Anônimo"), a known one formatted.
				origem: /^\d+$/.test(call.origem) ? phone(call.origem) : call.origem,
				roteamento: route.descricao,
				prospect: call.prospectExistente ? 'Existente' : 'Novo',
				tipo_destino: route.tipoDestino,
				destino: route.destino,
				status: call.status,
				tempo_fila: call.tempoFila,
				tempo_atendimento: call.tempoAtendimento,
				agente: call.agentId === undefined ? '' : (agents.get(call.agentId)?.login ?? ''),
				resultado: call.resultado,
			};
		});
	return present(context, { resultado });
};
