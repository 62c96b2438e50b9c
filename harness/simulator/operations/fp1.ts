/** getFP1, the filled-forms report: selection by form and period or by ficha ids, filters, permissions, JSON or CSV. */
import { invalidRequest, refusal } from '../errors';
import type { FieldReader } from '../http/fields';
import type { Reply } from '../http/replies';
import { toCsv } from '../csv';
import { findAgent, findBatch, findForm, findOperation, findQueue, findTeam } from '../lookup';
import type { Ficha, Form, SeededData } from '../model';
import { sameName, toSnakeKey } from '../text';
import {
	indexById,
	reportRange,
	rowTimeText,
	type OperationContext,
	type OperationHandler,
} from './context';
import { filterId, passes } from './filters';

const contentType = 'application/vnd.api+json';
/** Guard against "1-999999999" expanding into a huge selection. */
const maxSelectedIds = 1_000_000;

/** Fixed columns: JSON key and CSV header label (the label normalises to the key). */
const fixedColumns: Array<[string, string]> = [
	['ficha', 'Ficha'],
	['data', 'Data'],
	['status', 'Status'],
	['agente', 'Agente'],
	['time', 'Time'],
	['codigo', 'Código'],
	['cpf', 'CPF'],
	['nome', 'Nome'],
	['ddd_cel', 'DDD Cel'],
	['tel_cel', 'Tel Cel'],
	['ddd_com', 'DDD Com'],
	['tel_com', 'Tel Com'],
	['ddd_res', 'DDD Res'],
	['tel_res', 'Tel Res'],
	['lote', 'Lote'],
	['pontos', 'Pontos'],
];

/** "1,2,5-9" into inclusive ranges; anything else is a 400. */
function parseFichaIds(text: string): Array<[number, number]> {
	let total = 0;
	return text.split(',').map((part) => {
		const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
		if (!match) throw invalidRequest(`fichaId inválido: ${text}`);
		const first = Number(match[1]);
		const last = match[2] === undefined ? first : Number(match[2]);
		if (last < first) throw invalidRequest(`Intervalo inválido em fichaId: ${part.trim()}`);
		total += last - first + 1;
		if (total > maxSelectedIds)
			throw invalidRequest(`fichaId seleciona mais de ${maxSelectedIds} fichas`);
		return [first, last];
	});
}

function fichasByIds(data: SeededData, ranges: Array<[number, number]>): Ficha[] {
	const chosen = new Map<number, Ficha>();
	for (const [first, last] of ranges) {
		// Seeded fichas are numbered 1..n in order, so an id is also an index.
		for (let id = first; id <= Math.min(last, data.fichas.length); id++) {
			const ficha = data.fichas[id - 1];
			if (ficha?.id === id) chosen.set(id, ficha);
		}
	}
	return [...chosen.values()].sort((a, b) => a.id - b.id);
}

interface Credentials {
	login: string;
	senha: string;
}

/** Permission mode makes `user`/`senha` required like any other field. */
function readCredentials(fields: FieldReader, context: OperationContext): Credentials | undefined {
	if (context.permissionMode === 'off') return undefined;
	return { login: fields.required('user'), senha: fields.required('senha') };
}

/** Which fichas the report user may see: their teams, or their teams' operations. */
function permissionFilter(
	context: OperationContext,
	credentials: Credentials,
): (ficha: Ficha) => boolean {
	const user = context.data.reportUsers.find(
		(candidate) => candidate.login === credentials.login && candidate.senha === credentials.senha,
	);
	if (!user) throw refusal('Usuário ou senha inválidos');
	if (context.permissionMode === 'team') return (ficha) => user.teamIds.includes(ficha.teamId);
	return (ficha) => user.operacaoIds.includes(ficha.operacaoId);
}

/**
 * The time getFP1's de/ate compare: `data`, or with `fichaSaves: 'filteredBySave'` the ficha's
 * last save (its first is when the dialer wrote it).
 */
function filteredTime(context: OperationContext, ficha: Ficha): number {
	if (context.listing.fichaSaves !== 'filteredBySave') return ficha.data;
	const written = context.listing.shownFrom('getFP1', ficha.id, ficha.data, ficha.visibleFrom);
	return ficha.savedAt ?? Math.max(ficha.data, written);
}

const within = (time: number, range: { de: number; ate: number }) =>
	time >= range.de && time <= range.ate;

export const getFP1: OperationHandler = (fields, context) => {
	const { data } = context;
	// Validation first (400s), then references and permissions (200 refusals).
	const fichaIdText = fields.optional('fichaId');
	const ranges = fichaIdText === undefined ? undefined : parseFichaIds(fichaIdText);
	const range = reportRange(fields, context, ranges === undefined);
	const formReference = ranges === undefined ? fields.required('form') : fields.optional('form');
	const format = fields.choice('formato', ['json', 'csv'] as const, false) ?? 'json';
	const credentials = readCredentials(fields, context);

	const requestedForm = formReference === undefined ? undefined : findForm(data, formReference);
	const lote = filterId(fields, data, 'lote', findBatch);
	const agente = filterId(fields, data, 'agente', findAgent);
	const time = filterId(fields, data, 'time', findTeam);
	const operacao = filterId(fields, data, 'operacao', findOperation);
	const fila = filterId(fields, data, 'fila', findQueue);
	const status = fields.optional('status');
	const prospectName = fields.optional('prospect')?.toLocaleLowerCase('pt-BR');
	const permitted = credentials && permissionFilter(context, credentials);
	const now = Date.now();

	let form = requestedForm;
	let candidates: Ficha[];
	if (ranges) {
		candidates = fichasByIds(data, ranges);
		const formIds = new Set(candidates.map((ficha) => ficha.formId));
		if (formIds.size > 1) throw refusal('As fichas informadas pertencem a formulários diferentes');
		const [formId] = formIds;
		if (formId !== undefined && form && form.id !== formId)
			throw refusal(`As fichas informadas não pertencem ao formulário ${form.nome}`);
		form = data.forms.find((candidate) => candidate.id === formId) ?? form;
	} else {
		candidates = data.fichas.filter((ficha) => ficha.formId === form!.id);
	}
	const selected = candidates.filter(
		(ficha) =>
			(!range || within(filteredTime(context, ficha), range)) &&
			context.listing.shows('getFP1', ficha.id, ficha.data, ficha.visibleFrom, now) &&
			passes(lote, ficha.loteId) &&
			passes(agente, ficha.agentId) &&
			passes(time, ficha.teamId) &&
			passes(operacao, ficha.operacaoId) &&
			passes(fila, ficha.filaId) &&
			(!status || sameName(status, ficha.status)) &&
			(!prospectName ||
				data.prospects[ficha.prospect].nome.toLocaleLowerCase('pt-BR').includes(prospectName)) &&
			(!permitted || permitted(ficha)),
	);
	const table = fichaTable(context, form, context.listing.list(selected));
	return format === 'csv' ? csvReply(table) : jsonRows(table);
};

interface Column {
	key: string;
	label: string;
}

/** Columns and string cells of the report, shared by both formats. */
function fichaTable(context: OperationContext, form: Form | undefined, fichas: Ficha[]) {
	const { data } = context;
	const columns: Column[] = [
		...fixedColumns.map(([key, label]) => ({ key, label })),
		...data.customFields.map((field) => ({
			key: `${toSnakeKey(field.label)}_p`,
			label: `${field.label} [P]`,
		})),
		...(form?.questions ?? []).map((question) => ({
			key: `${toSnakeKey(question.label)}_${question.numero}_f`,
			label: `${question.label} [${question.numero}] [F]`,
		})),
	];
	const agents = indexById(data.agents);
	const teams = indexById(data.teams);
	const batches = indexById(data.batches);
	const rows = fichas.map((ficha) => {
		const prospect = data.prospects[ficha.prospect];
		return [
			String(ficha.id),
			rowTimeText(context, ficha.data),
			ficha.status,
			agents.get(ficha.agentId)?.login ?? '',
			teams.get(ficha.teamId)?.nome ?? '',
			prospect.codigo,
			prospect.cpf,
			prospect.nome,
			prospect.ddd_cel,
			prospect.tel_cel,
			prospect.ddd_com,
			prospect.tel_com,
			prospect.ddd_res,
			prospect.tel_res,
			batches.get(ficha.loteId)?.descricao ?? '',
			String(ficha.pontos),
			...prospect.custom,
			...ficha.answers,
		];
	});
	return { columns, rows };
}

function jsonRows({ columns, rows }: ReturnType<typeof fichaTable>): Reply {
	const data = rows.map((cells) => {
		const row: Record<string, string> = {};
		columns.forEach((column, index) => (row[column.key] = cells[index]));
		return row;
	});
	return { status: 200, contentType, body: JSON.stringify({ data }) };
}

function csvReply({ columns, rows }: ReturnType<typeof fichaTable>): Reply {
	return {
		status: 200,
		contentType,
		body: toCsv(
			columns.map((column) => column.label),
			rows,
		),
	};
}
