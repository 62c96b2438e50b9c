/** Agents, extensions, prospects and report users: the people of the tenant, made with faker. */
import type { Faker } from '@faker-js/faker';
import type {
	Agent,
	AgentState,
	Batch,
	Extension,
	ExtensionType,
	Prospect,
	ReportUser,
	Team,
} from '../model';
import type { Random } from '../random';
import { stripAccents } from '../text';
import { areaCodes, extensionTypes } from './catalog';

/** Extension technology of each agent, cycled: mostly SIP, every type present. */
const agentExtensionCycle: ExtensionType[] = ['RS', 'RP', 'RS', 'RI', 'RS', 'RP', 'RS', 'RK'];

/** Starting state of each agent, cycled, so a fresh simulator has every state to query. */
const initialStateCycle: AgentState[] = [
	'online',
	'busy',
	'paused',
	'offline',
	'online',
	'busy',
	'ringing',
	'online',
	'paused',
	'offline',
];

export function makeAgentsAndExtensions(faker: Faker, teams: Team[], count: number) {
	const agents: Agent[] = [];
	const extensions: Extension[] = [];
	const nextNumber = new Map<ExtensionType, number>();
	const takeExtension = (tipo: ExtensionType, agentId?: number) => {
		const numero = nextNumber.get(tipo) ?? extensionTypes[tipo].firstNumber;
		nextNumber.set(tipo, numero + 1);
		extensions.push({ numero: String(numero), tipo, agentId });
		return String(numero);
	};
	const logins = new Set<string>();
	for (let index = 0; index < count; index++) {
		const id = 101 + index;
		const first = faker.person.firstName();
		const last = faker.person.lastName();
		const login = uniqueLogin(`${first}.${last}`, logins);
		const primaryTeam = teams[index % teams.length];
		// Every fifth agent also covers the next team, so "teams of a user" can be plural.
		const teamIds =
			index % 5 === 4 ? [primaryTeam.id, teams[(index + 1) % teams.length].id] : [primaryTeam.id];
		const ramal = takeExtension(agentExtensionCycle[index % agentExtensionCycle.length], id);
		agents.push({
			id,
			login,
			nome: `${first} ${last}`,
			teamIds,
			ramal,
			estado: initialStateCycle[index % initialStateCycle.length],
		});
	}
	// Spare extensions of every type with nobody on them.
	for (const tipo of Object.keys(extensionTypes) as ExtensionType[]) takeExtension(tipo);
	return { agents, extensions };
}

function uniqueLogin(name: string, taken: Set<string>): string {
	const base = stripAccents(name)
		.toLowerCase()
		.replace(/[^a-z.]/g, '');
	let login = base;
	for (let suffix = 2; taken.has(login); suffix++) login = `${base}${suffix}`;
	taken.add(login);
	return login;
}

export function makeProspects(
	faker: Faker,
	random: Random,
	batches: Batch[],
	count: number,
): Prospect[] {
	const prospects: Prospect[] = [];
	const notes = [
		'',
		'',
		'Cliente "preferencial"',
		'Ligar somente; após 18h',
		'Possui acordo anterior',
	];
	for (let index = 0; index < count; index++) {
		const hasHomePhone = random.chance(0.7);
		const street = faker.location.streetAddress();
		prospects.push({
			codigo: String(500001 + index),
			nome: faker.person.fullName(),
			cpf: makeCpf(random),
			ddd_cel: random.pick(areaCodes),
			tel_cel: `9${random.digits(8)}`,
			ddd_com: random.pick(areaCodes),
			tel_com: `${random.int(2, 5)}${random.digits(7)}`,
			ddd_res: hasHomePhone ? random.pick(areaCodes) : '',
			tel_res: hasHomePhone ? `${random.int(2, 5)}${random.digits(7)}` : '',
			loteId: batches[index % batches.length].id,
			custom: [
				random.chance(0.2) ? `${street}; Bloco ${random.pick(['A', 'B', 'C'])}` : street,
				faker.location.city(),
				faker.location.state({ abbreviated: true }),
				`${pad2(random.int(1, 28))}/${pad2(random.int(1, 12))}/${random.int(1945, 2006)}`,
				random.chance(0.3) ? '' : formatMoney(random.int(5000, 900000)),
				random.pick(notes),
			],
		});
	}
	return prospects;
}

/** A CPF with valid check digits, formatted `000.000.000-00`. */
function makeCpf(random: Random): string {
	const digits = Array.from({ length: 9 }, () => random.int(0, 9));
	for (const length of [9, 10]) {
		const sum = digits
			.slice(0, length)
			.reduce((total, digit, i) => total + digit * (length + 1 - i), 0);
		const rest = (sum * 10) % 11;
		digits.push(rest === 10 ? 0 : rest);
	}
	const text = digits.join('');
	return `${text.slice(0, 3)}.${text.slice(3, 6)}.${text.slice(6, 9)}-${text.slice(9)}`;
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/** Cents as `1.234,56` (built by hand: ICU versions disagree on grouping four-digit numbers). */
function formatMoney(cents: number): string {
	const reais = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
	return `${reais},${pad2(cents % 100)}`;
}

export function makeReportUsers(teams: Team[]): ReportUser[] {
	const user = (login: string, senha: string, chosen: Team[]): ReportUser => ({
		login,
		senha,
		teamIds: chosen.map((team) => team.id),
		operacaoIds: [...new Set(chosen.map((team) => team.operacaoId))],
	});
	return [
		user('supervisor.cobranca', 'Cobranca@2024', teams.slice(0, 2)),
		user('supervisor.vendas', 'Vendas@2024', teams.slice(2, 4)),
		user('gerente.geral', 'Gerente@2024', teams),
	];
}
