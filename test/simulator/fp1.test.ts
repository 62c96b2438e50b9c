/** getFP1: selection by form and period or by ficha ids, filters, permissions, JSON keys and CSV layout. */
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi, lastDays, type Loose } from './helpers';

let sim: DialerSimulator;
const period = lastDays(60);

beforeAll(async () => {
	sim = await startSimulator({ fichas: 600 });
});
afterAll(() => sim?.close());

const fichasOfForm = (formId: number) => sim.data.fichas.filter((ficha) => ficha.formId === formId);

describe('JSON format', () => {
	it('answers application/vnd.api+json with the rows of the form in the period under data', async () => {
		const answer = await callApi(sim, 'getFP1', { ...period, form: 'Acordo de Cobrança' });
		expect(answer.status).toBe(200);
		expect(answer.contentType).toBe('application/vnd.api+json');
		const rows = answer.json().data;
		expect(rows.map((row: Loose) => row.ficha)).toEqual(
			fichasOfForm(41).map((ficha) => String(ficha.id)),
		);
	});

	it('normalises keys to ASCII snake_case with _p for prospect fields and _<n>_f for questions', async () => {
		const [row] = (await callApi(sim, 'getFP1', { ...period, form: '41' })).json().data;
		expect(Object.keys(row)).toEqual([
			'ficha',
			'data',
			'status',
			'agente',
			'time',
			'codigo',
			'cpf',
			'nome',
			'ddd_cel',
			'tel_cel',
			'ddd_com',
			'tel_com',
			'ddd_res',
			'tel_res',
			'lote',
			'pontos',
			'endereco_p',
			'cidade_p',
			'uf_p',
			'data_de_nascimento_p',
			'valor_da_divida_r_p',
			'observacao_p',
			'cliente_reconhece_a_divida_1_f',
			'forma_de_pagamento_2_f',
			'valor_negociado_r_3_f',
			'observacoes_4_f',
		]);
		for (const key of Object.keys(row)) expect(key).toMatch(/^[a-z0-9_]+$/);
		for (const value of Object.values(row)) expect(typeof value).toBe('string');
		expect(row.data).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
	});

	it('normalises the labels of every form (quotes, ";", "?" and "/" included)', async () => {
		const [row] = (await callApi(sim, 'getFP1', { ...period, form: 'Venda Plano Móvel' })).json()
			.data;
		expect(Object.keys(row).slice(-5)).toEqual([
			'plano_escolhido_1_f',
			'portabilidade_2_f',
			'observacao_interna_3_f',
			'melhor_horario_p_entrega_4_f',
			'aceite_do_contrato_5_f',
		]);
		const [survey] = (
			await callApi(sim, 'getFP1', { ...period, form: 'Pesquisa de Satisfação' })
		).json().data;
		expect(survey).toHaveProperty('comentario_sugestoes_3_f');
	});

	it('returns an empty list when nothing matches', async () => {
		const answer = await callApi(sim, 'getFP1', {
			form: '41',
			de: '20200101000000',
			ate: '20200102000000',
		});
		expect(answer.json()).toEqual({ data: [] });
	});
});

describe('CSV format', () => {
	let lines: string[];
	let text: string;
	beforeAll(async () => {
		const answer = await callApi(sim, 'getFP1', {
			...period,
			form: 'Acordo de Cobrança',
			formato: 'csv',
		});
		expect(answer.status).toBe(200);
		expect(answer.contentType).toBe('application/vnd.api+json');
		text = answer.text;
		lines = text.replace(/^\uFEFF/, '').split('\r\n');
	});

	it('starts with a UTF-8 byte order mark and ends every line with CRLF', () => {
		expect(text.charCodeAt(0)).toBe(0xfeff);
		expect(text.endsWith('\r\n')).toBe(true);
		expect(lines.at(-1)).toBe('');
	});

	it('has a header of fixed columns, then [P] prospect columns, then [n] [F] question columns', () => {
		expect(lines[0].split(';')).toEqual([
			'Ficha',
			'Data',
			'Status',
			'Agente',
			'Time',
			'Código',
			'CPF',
			'Nome',
			'DDD Cel',
			'Tel Cel',
			'DDD Com',
			'Tel Com',
			'DDD Res',
			'Tel Res',
			'Lote',
			'Pontos',
			'Endereço [P]',
			'Cidade [P]',
			'UF [P]',
			'Data de Nascimento [P]',
			'Valor da Dívida (R$) [P]',
			'Observação [P]',
			'Cliente reconhece a dívida? [1] [F]',
			'Forma de pagamento [2] [F]',
			'Valor negociado (R$) [3] [F]',
			'Observações [4] [F]',
		]);
		expect(lines).toHaveLength(fichasOfForm(41).length + 2);
	});

	it('quotes values holding ";" or quotes and doubles the quotes', () => {
		expect(lines.some((line) => line.endsWith(';"Pediu retorno; ligar após 18h"'))).toBe(true);
		expect(lines.some((line) => line.endsWith(';"Disse ""não tenho como pagar"""'))).toBe(true);
	});

	it('quotes header labels that hold ";" or quotes', async () => {
		const survey = (
			await callApi(sim, 'getFP1', { ...period, form: 'Pesquisa de Satisfação', formato: 'csv' })
		).text;
		expect(survey.split('\r\n')[0].endsWith(';"Comentário; sugestões [3] [F]"')).toBe(true);
		const sales = (
			await callApi(sim, 'getFP1', { ...period, form: 'Venda Plano Móvel', formato: 'csv' })
		).text;
		expect(sales.split('\r\n')[0]).toContain(';"Observação ""interna"" [3] [F]";');
	});

	it('carries the same values as the JSON rows', async () => {
		const json = (await callApi(sim, 'getFP1', { ...period, form: 'Acordo de Cobrança' })).json()
			.data;
		const simpleLine = lines.slice(1).findIndex((line) => !line.includes('"'));
		expect(lines[simpleLine + 1].split(';')).toEqual(Object.values(json[simpleLine]));
	});
});

describe('selection by fichaId', () => {
	it('accepts lists and ranges without form or period', async () => {
		const ids = sim.data.fichas
			.filter((ficha) => ficha.formId === 42)
			.slice(0, 6)
			.map((ficha) => ficha.id);
		const fichaId = `${ids[0]}, ${ids[1]},${ids.slice(2).join(',')}`;
		const rows = (await callApi(sim, 'getFP1', { fichaId })).json().data;
		expect(rows.map((row: Loose) => Number(row.ficha))).toEqual(ids);
	});

	it('expands ranges like 5-9 and ignores ids that do not exist', async () => {
		const firstForm = sim.data.fichas[0].formId;
		let end = 1;
		while (sim.data.fichas[end]?.formId === firstForm) end++;
		const rows = (await callApi(sim, 'getFP1', { fichaId: `1-${end}` })).json().data;
		expect(rows).toHaveLength(end);
		const beyond = (await callApi(sim, 'getFP1', { fichaId: '900000-900010' })).json();
		expect(beyond).toEqual({ data: [] });
	});

	it('refuses fichas of different forms with an HTTP 200 error body', async () => {
		const a = sim.data.fichas.find((ficha) => ficha.formId === 41)!;
		const b = sim.data.fichas.find((ficha) => ficha.formId === 43)!;
		const answer = await callApi(sim, 'getFP1', { fichaId: `${a.id},${b.id}` });
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({
			status: 'error',
			message: 'As fichas informadas pertencem a formulários diferentes',
		});
	});

	it.each(['1,,2', 'a-b', '9-5', '1;2', '1-2-3'])(
		'answers 400 for the malformed list %s',
		async (fichaId) => {
			expect((await callApi(sim, 'getFP1', { fichaId })).status).toBe(400);
		},
	);
});

describe('filters and validation', () => {
	it('narrows by agent, team, batch, queue, operation, status and prospect name', async () => {
		const sample = fichasOfForm(41)[0];
		const agent = sim.data.agents.find((candidate) => candidate.id === sample.agentId)!;
		const prospect = sim.data.prospects[sample.prospect];
		const fields = {
			...period,
			form: '41',
			agente: agent.login,
			time: String(sample.teamId),
			lote: String(sample.loteId),
			fila: String(sample.filaId),
			operacao: 'Operação Cobrança',
			status: sample.status.toUpperCase(),
			prospect: prospect.nome.slice(0, 5).toLowerCase(),
		};
		const rows = (await callApi(sim, 'getFP1', fields)).json().data;
		expect(rows.map((row: Loose) => row.ficha)).toContain(String(sample.id));
		for (const row of rows)
			expect(row).toMatchObject({ agente: agent.login, status: sample.status });
		expect(rows.length).toBeLessThan(fichasOfForm(41).length);
	});

	it.each([
		['form missing without fichaId', { ...period }],
		['de missing without fichaId', { form: '41', ate: period.ate }],
		['formato outside json/csv', { ...period, form: '41', formato: 'xml' }],
		['an invalid date', { form: '41', de: '20261301000000', ate: period.ate }],
	])('answers 400 for %s', async (_rule, fields) => {
		expect((await callApi(sim, 'getFP1', fields)).status).toBe(400);
	});

	it('refuses an unknown form with an HTTP 200 error body', async () => {
		expect((await callApi(sim, 'getFP1', { ...period, form: 'Formulário X' })).json()).toEqual({
			status: 'error',
			message: 'Formulário não encontrado: Formulário X',
		});
	});
});

describe('permission modes', () => {
	let byTeam: DialerSimulator;
	let byOperation: DialerSimulator;
	beforeAll(async () => {
		[byTeam, byOperation] = await Promise.all([
			startSimulator({ permissionMode: 'team', fichas: 600 }),
			startSimulator({ permissionMode: 'operation', fichas: 600 }),
		]);
	});
	afterAll(() => Promise.all([byTeam?.close(), byOperation?.close()]));

	it('without a permission mode ignores user and senha', async () => {
		const rows = (
			await callApi(sim, 'getFP1', { ...period, form: '43', user: 'x', senha: 'y' })
		).json().data;
		expect(rows.length).toBe(fichasOfForm(43).length);
	});

	it('with team permissions returns only fichas of the user teams', async () => {
		const user = byTeam.data.reportUsers.find(
			(candidate) => candidate.login === 'supervisor.cobranca',
		)!;
		const rows = (
			await callApi(byTeam, 'getFP1', {
				...period,
				form: '41',
				user: user.login,
				senha: user.senha,
			})
		).json().data;
		const teamNames = byTeam.data.teams
			.filter((team) => user.teamIds.includes(team.id))
			.map((team) => team.nome);
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.length).toBeLessThan(
			byTeam.data.fichas.filter((ficha) => ficha.formId === 41).length,
		);
		expect(rows.every((row: Loose) => teamNames.includes(row.time))).toBe(true);
	});

	it('with operation permissions returns the fichas of the operations of the user teams', async () => {
		const user = byOperation.data.reportUsers.find(
			(candidate) => candidate.login === 'supervisor.cobranca',
		)!;
		const rows = (
			await callApi(byOperation, 'getFP1', {
				...period,
				form: '41',
				user: user.login,
				senha: user.senha,
			})
		).json().data;
		const expected = byOperation.data.fichas.filter(
			(ficha) => ficha.formId === 41 && user.operacaoIds.includes(ficha.operacaoId),
		);
		expect(rows).toHaveLength(expected.length);
	});

	it('answers 400 when user or senha is missing', async () => {
		expect(
			(await callApi(byTeam, 'getFP1', { ...period, form: '41', user: 'gerente.geral' })).status,
		).toBe(400);
	});

	it('refuses a wrong password with an HTTP 200 error body', async () => {
		const answer = await callApi(byTeam, 'getFP1', {
			...period,
			form: '41',
			user: 'gerente.geral',
			senha: 'errada',
		});
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({ status: 'error', message: 'Usuário ou senha inválidos' });
	});
});
