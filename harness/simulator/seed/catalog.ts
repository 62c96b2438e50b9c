/**
 * Fixed business vocabulary of the simulated tenant. Accents, `;`, quotes and parentheses
 * appear on purpose: clients must survive them in names, CSV headers and JSON keys.
 */
import type { DialingType, Pause } from '../model';

export const operationNames = [
	'Operação Cobrança',
	'Operação Vendas',
	'Operação 1',
	'Pesquisa de Satisfação',
];

/** Team name and the index of its operation in operationNames. */
export const teamDefinitions: Array<[string, number]> = [
	['Cobrança Manhã', 0],
	['Cobrança Tarde', 0],
	['Vendas Ativo', 1],
	['Retenção', 1],
	['Suporte Nível 1', 2],
	['Pesquisa NPS', 3],
];

/** Outbound queues: description, operation index, dialing type. */
export const outboundQueueDefinitions: Array<[string, number, DialingType]> = [
	['Cobrança Preditivo', 0, 'PRE'],
	['Cobrança Power', 0, 'POW'],
	['Vendas Preview', 1, 'PRV'],
	['Retenção Power', 1, 'POW'],
	['Suporte Retorno', 2, 'SGL'],
	['Pesquisa SMS', 3, 'MSG'],
];

/** Inbound queues: description, operation index. */
export const inboundQueueDefinitions: Array<[string, number]> = [
	['SAC Receptivo', 2],
	['Cobrança Receptivo', 0],
	['Ouvidoria', 2],
];

/** Batch name suffixes, combined with the queue description. */
export const batchSuffixes = ['Carteira A', 'Carteira B', 'Mailing Sul', 'Reciclagem'];

export const customFieldLabels = [
	'Endereço',
	'Cidade',
	'UF',
	'Data de Nascimento',
	'Valor da Dívida (R$)',
	'Observação',
];

export interface QuestionDefinition {
	label: string;
	answers: readonly string[];
}

const yesNo = ['Sim', 'Não'];

export const formDefinitions: Array<{ nome: string; questions: QuestionDefinition[] }> = [
	{
		nome: 'Acordo de Cobrança',
		questions: [
			{ label: 'Cliente reconhece a dívida?', answers: yesNo },
			{ label: 'Forma de pagamento', answers: ['Boleto', 'PIX', 'Cartão de crédito'] },
			{ label: 'Valor negociado (R$)', answers: ['150,00', '320,50', '1.200,00', '89,90'] },
			{
				label: 'Observações',
				answers: [
					'',
					'Pediu retorno; ligar após 18h',
					'Disse "não tenho como pagar"',
					'Acordo fechado',
				],
			},
		],
	},
	{
		nome: 'Pesquisa de Satisfação',
		questions: [
			{ label: 'Nota de 0 a 10', answers: ['0', '5', '7', '8', '9', '10'] },
			{ label: 'Recomendaria a empresa?', answers: yesNo },
			{
				label: 'Comentário; sugestões',
				answers: ['', 'Atendimento rápido', 'Demorou; mas resolveu', 'Ótimo'],
			},
		],
	},
	{
		nome: 'Venda Plano Móvel',
		questions: [
			{ label: 'Plano escolhido', answers: ['Controle 20GB', 'Pós 50GB', 'Família 100GB'] },
			{ label: 'Portabilidade?', answers: yesNo },
			{ label: 'Observação "interna"', answers: ['', 'Cliente VIP', 'Enviar chip "expresso"'] },
			{ label: 'Melhor horário p/ entrega', answers: ['Manhã', 'Tarde', 'Noite'] },
			{ label: 'Aceite do contrato', answers: yesNo },
		],
	},
];

export const fichaStatuses = ['Finalizada', 'Pendente', 'Cancelada'];

export const classificationResults = [
	'Acordo realizado',
	'Sem interesse',
	'Agendado',
	'Número errado',
	'Venda realizada',
	'Recado',
];

/** Codes of who ended a call: A agent, C customer, S system (the contract leaves the codes open). */
export const hangupCodes = ['A', 'C', 'S'];

export const pauses: Pause[] = [
	{ id: 1, nome: 'Café', durmax: 900, durmin: 300 },
	{ id: 2, nome: 'Almoço', durmax: 3600, durmin: 3600 },
	{ id: 3, nome: 'Banheiro', durmax: 600 },
	{ id: 4, nome: 'Treinamento' },
	{ id: 5, nome: 'Feedback' },
];

export const audioNames = [
	'Boas-vindas.wav',
	'Música de espera.mp3',
	'Fora do horário.wav',
	'Aviso de gravação.wav',
	'Promoção Black Friday.mp3',
	'URA Cobrança.wav',
];

/** Brazilian area codes weighted towards the big metropolitan areas. */
export const areaCodes = [
	'11',
	'11',
	'11',
	'21',
	'21',
	'31',
	'41',
	'51',
	'61',
	'71',
	'81',
	'85',
	'92',
];

/** Extension type, its technology label and the first number of its range. */
export const extensionTypes = {
	RS: { label: 'SIP', firstNumber: 1001 },
	RP: { label: 'PJSIP', firstNumber: 2001 },
	RI: { label: 'IAX', firstNumber: 3001 },
	RK: { label: 'KHOMP', firstNumber: 4001 },
} as const;
