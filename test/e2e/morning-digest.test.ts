/**
 * The morning digest example (examples/morning-digest-email-and-sheets.json) in real n8n against
 * the simulator, its e-mail sent by n8n's Send Email node to a local SMTP server: the figures in
 * the received message are those computed here from the simulator's own data (not by the node's
 * code), and a day without calls gives a "no calls" digest. The Google Sheets node is turned off
 * (no Google account here); the disk variant runs in the demo.
 */
import { DateTime } from 'luxon';
import type { ParsedMail } from 'mailparser';

import type { Credential, Workflow } from '../../harness/n8n/api';
import { configureExample, readExamples } from '../../harness/demo';
import { DialerRunner } from './support/dialerRunner';
import { SmtpInbox } from './support/smtpInbox';

jest.setTimeout(120_000);

const ZONE = 'America/Sao_Paulo';
const EXAMPLE = 'morning-digest-email-and-sheets.json';
const FORM = 'Pesquisa de Satisfação';
const SERVICE_LEVEL_SECONDS = 20;

type Table = Map<string, string[]>;

/** The digest's sections by their heading: each table's rows by their first cell, or its text. */
function sections(html: string): Map<string, { table: Table; text: string }> {
	const decode = (text: string) =>
		text
			.replace(/<[^>]+>/g, ' ')
			.replace(/&lt;/g, '<')
			.replace(/&gt;/g, '>')
			.replace(/&quot;/g, '"')
			.replace(/&#39;/g, "'")
			.replace(/&amp;/g, '&')
			.replace(/\s+/g, ' ')
			.trim();
	const found = new Map<string, { table: Table; text: string }>();
	for (const part of html.split('<h2').slice(1)) {
		const title = decode(`<h2${part.slice(0, part.indexOf('</h2>'))}`);
		const table: Table = new Map();
		for (const [, row] of part.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)) {
			const cells = [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map(([, cell]) =>
				decode(cell),
			);
			table.set(cells[0], cells.slice(1));
		}
		found.set(title, { table, text: decode(`<h2${part}`) });
	}
	return found;
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
	const groups = new Map<K, T[]>();
	for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
	return groups;
}

/**
 * A table of counts per agent: a row per agent with rows, and a Total row; a column for the count
 * and one per value of `valueOf` seen in `rows`.
 */
function expectCounts<T extends { agentId: number }>(
	table: Table,
	countHeader: string,
	rows: T[],
	valueOf: (row: T) => string,
	agentName: (agentId: number) => string,
): void {
	const values = table.get('Agent')!.slice(1);
	expect([...values].sort()).toEqual([...new Set(rows.map(valueOf))].sort());
	const counts = (group: T[]) => [
		String(group.length),
		...values.map((value) => String(group.filter((row) => valueOf(row) === value).length)),
	];
	expect(table).toEqual(
		new Map([
			['Agent', [countHeader, ...values]],
			...[...groupBy(rows, (row) => row.agentId)].map(
				([agentId, group]) => [agentName(agentId), counts(group)] as const,
			),
			['Total', counts(rows)],
		]),
	);
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10;
const percentText = (part: number, whole: number) => `${oneDecimal((100 * part) / whole)} %`;

describe('morning digest example, e-mailed over SMTP', () => {
	let runner: DialerRunner;
	let inbox: SmtpInbox;
	let smtp: Credential;
	let workflow: Workflow;
	const yesterday = DateTime.now().setZone(ZONE).minus({ days: 1 }).startOf('day');
	const inYesterday = (epochMs: number) =>
		epochMs >= yesterday.toMillis() && epochMs < yesterday.plus({ days: 1 }).toMillis();

	async function digest(): Promise<ParsedMail> {
		const seen = inbox.messages.length;
		const execution = await runner.api.runManually(workflow.id, 'Every Morning at 7', 60_000);
		expect(execution.status).toBe('success');
		return await inbox.message(seen);
	}

	beforeAll(async () => {
		inbox = await SmtpInbox.start();
		runner = await DialerRunner.start({
			simulator: { timezone: ZONE, calls: 3000, fichas: 3000 },
			timezone: ZONE,
		});
		smtp = await runner.api.createCredential('smtp', 'Local SMTP', inbox.credentialData);
		const { workflow: example } = (await readExamples()).find(({ file }) => file === EXAMPLE)!;
		const configured = configureExample(example, runner.credential, '');
		workflow = await runner.api.createWorkflow({
			...configured,
			settings: { ...configured.settings, timezone: ZONE },
			nodes: configured.nodes.map((node) =>
				node.type === 'n8n-nodes-base.emailSend'
					? { ...node, credentials: { smtp: { id: smtp.id, name: smtp.name } } }
					: node.type === 'n8n-nodes-base.googleSheets'
						? { ...node, disabled: true }
						: node,
			),
		});
	});

	afterAll(async () => {
		await runner?.close();
		await inbox?.close();
	});

	it("sends yesterday's inbound, outbound and filled-form figures as the simulator's data gives them", async () => {
		const { data } = runner.sim;
		const mail = await digest();
		const date = yesterday.toFormat('dd/MM/yyyy');
		const found = sections(String(mail.html));

		// Inbound: every call of yesterday, per destination of its route.
		const routes = new Map(data.inboundRoutes.map((route) => [route.id, route]));
		const calls = data.inboundCalls.filter((call) => inYesterday(call.dataHora));
		expect(calls.length).toBeGreaterThan(5);
		const expectedInbound = (group: typeof calls) => {
			const answered = group.filter((call) => call.status === 'AT');
			const within = answered.filter((call) => call.tempoFila <= SERVICE_LEVEL_SECONDS);
			const waits = group.map((call) => call.tempoFila);
			return [
				String(group.length),
				String(answered.length),
				String(group.length - answered.length),
				String(within.length),
				percentText(within.length, group.length),
				`${oneDecimal(waits.reduce((sum, wait) => sum + wait, 0) / waits.length)} s`,
				`${Math.max(...waits)} s`,
			];
		};
		const byDestination = groupBy(calls, (call) => routes.get(call.rotaId)!.destino);
		const inbound = found.get('Inbound calls')!;
		expect(inbound.table).toEqual(
			new Map([
				[
					'Destination',
					[
						'Offered',
						'Answered',
						'Not answered',
						`Answered within ${SERVICE_LEVEL_SECONDS} s`,
						'Service level',
						'Average wait',
						'Longest wait',
					],
				],
				...[...byDestination].map(([name, group]) => [name, expectedInbound(group)] as const),
				['Total', expectedInbound(calls)],
			]),
		);
		// Statuses the contract does not give a meaning to are named as the dialer sent them.
		const statuses = groupBy(calls, (call) => call.status);
		for (const [status, group] of statuses) {
			expect(inbound.text).toMatch(new RegExp(`\\b${status} ${group.length}\\b`));
		}
		expect(mail.subject).toBe(
			`Call center ${date}: ${calls.length} calls, ${expectedInbound(calls)[4]} within ${SERVICE_LEVEL_SECONDS} s`,
		);

		// Outbound: yesterday's classified calls per agent name, one column per result.
		const agents = new Map(data.agents.map((agent) => [agent.id, agent]));
		const classified = data.calls.filter(
			(call) => call.resultado !== undefined && inYesterday(call.horario),
		);
		expectCounts(
			found.get('Outbound classifications by agent')!.table,
			'Classifications',
			classified,
			(call) => call.resultado!,
			(agentId) => agents.get(agentId)!.nome,
		);

		// Filled forms of the example's form, per agent login, one column per status.
		const form = data.forms.find((candidate) => candidate.nome === FORM)!;
		const fichas = data.fichas.filter(
			(ficha) => ficha.formId === form.id && inYesterday(ficha.data),
		);
		expectCounts(
			found.get(`Filled forms (${FORM}) by agent`)!.table,
			'Fichas',
			fichas,
			(ficha) => ficha.status,
			(agentId) => agents.get(agentId)!.login,
		);
		// The plain-text part carries the same day.
		expect(mail.text).toContain(`Yesterday at the call center: ${date}`);
	});

	it('sends a "no calls" digest for a day without calls, forms or classifications', async () => {
		const { data } = runner.sim;
		const keep = <T>(rows: T[], time: (row: T) => number) =>
			rows.splice(0, rows.length, ...rows.filter((row) => !inYesterday(time(row))));
		keep(data.inboundCalls, (call) => call.dataHora);
		keep(data.calls, (call) => call.horario);
		keep(data.fichas, (ficha) => ficha.data);
		const date = yesterday.toFormat('dd/MM/yyyy');

		const mail = await digest();
		expect(mail.subject).toBe(`Call center ${date}: no calls`);
		const found = sections(String(mail.html));
		expect(found.get('Inbound calls')!.text).toBe(
			`Inbound calls No calls: no inbound calls on ${date}.`,
		);
		expect(found.get('Outbound classifications by agent')!.table.size).toBe(0);
		expect(String(mail.html)).toContain(`No classifications on ${date}.`);
		expect(String(mail.html)).toContain(`No filled forms on ${date}.`);
	});
});
