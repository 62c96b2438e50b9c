/** getHC2, one extension's or agent's call history: the rows the report node and trigger read. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { offerFilters } from '../filters';
import { ParameterError, requireText } from '../parameters';
import { recordOf, rowsOf } from '../rows';
import { sentAs } from '../sentAs';
import { REPORT_TIMEOUT_MS, type ApiEndpoint } from '../transport/request';
import { rowsCarrying, type ReportRowSource, type RowIdentityRule } from './rowSource';

/**
 * Read whole, unlike the other reports: one answer per agent, usually many at once. With n8n
 * saving execution data, 32 parallel streamed answers (100,000 calls) peaked about 230 MB higher
 * than the same answers read whole (harness/bench/, n8n 2.41.1).
 */
export const endpoint: ApiEndpoint = {
	operation: 'getHC2',
	streamed: false,
	defaultTimeout: REPORT_TIMEOUT_MS,
};

/** Whose calls: the extension types, in the order the error message names them, then agents. */
const ENTITY_TYPES = [
	{ name: 'SIP Extension', value: 'RS', description: 'A SIP extension, by number' },
	{ name: 'PJSIP Extension', value: 'RP', description: 'A PJSIP extension, by number' },
	{ name: 'IAX Extension', value: 'RI', description: 'An IAX extension, by number' },
	{ name: 'KHOMP Extension', value: 'RK', description: 'A KHOMP extension, by number' },
	{ name: 'Agent', value: 'A', description: 'An agent, by login or numeric ID' },
];
const EXTENSION_KINDS = ENTITY_TYPES.filter((type) => type.value !== 'A').map((type) =>
	type.name.replace(' Extension', ''),
);

export const filters = offerFilters([
	[
		{
			apiField: 'tipo',
			property: {
				displayName: 'Direction',
				name: 'direction',
				type: 'options',
				default: '',
				options: [
					{ name: 'Both', value: '', description: 'Outgoing and incoming calls' },
					{ name: 'Incoming', value: 'R', description: 'Only received calls (Recebida)' },
					{ name: 'Outgoing', value: 'G', description: 'Only generated calls (Gerada)' },
				],
			},
		},
		'Which calls to include',
	],
]);

/** Whose history: the extension or agent, and which of them it is. */
export const whoseProperties: INodeProperties[] = [
	{
		displayName: 'History Of',
		name: 'entityType',
		type: 'options',
		default: 'RS',
		options: [...ENTITY_TYPES].sort((a, b) => a.name.localeCompare(b.name)),
		description: sentAs(
			'Whether to read the calls of an extension (and its type) or of an agent',
			'tipo_entidade',
		),
	},
	{
		displayName: 'Extension or Agent',
		name: 'extensionOrAgent',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1001 or maria.souza',
		description: sentAs(
			'Extension number, or agent login or ID when History Of is Agent',
			'ramal_agente',
		),
	},
];

/** One call: its protocol, or what the call was, for a call listed without one. */
const identity: RowIdentityRule = {
	keyField: 'protocolo',
	identityFields: [
		'horario',
		'tipo',
		'numero',
		'duracao_segundos',
		'desligada_por',
		'ramal_agente',
	],
	timeField: 'horario',
};

export const rowSource: ReportRowSource = {
	name: 'Call History',
	identity,
	endpoint,
	properties: [...whoseProperties, filters.property],
	async fields(context, itemIndex) {
		const entityType = String(context.getNodeParameter('entityType', itemIndex));
		if (!ENTITY_TYPES.some((type) => type.value === entityType)) {
			throw new ParameterError(
				'History Of',
				`"${entityType}" is not a known type`,
				`Choose Agent or an extension type (${EXTENSION_KINDS.join(', ')}).`,
			);
		}
		return {
			tipo_entidade: entityType,
			ramal_agente: requireText(
				context.getNodeParameter('extensionOrAgent', itemIndex),
				'Extension or Agent',
				'1001',
			),
			...filters.read(context, itemIndex),
		};
	},
	rows(answer) {
		const history = recordOf(answer);
		// Each call carries the envelope's extension/agent and range, so items stand on their own.
		const envelope: IDataObject = {
			ramal_agente: history.ramal_agente,
			de: history.de,
			ate: history.ate,
		};
		return rowsCarrying(rowsOf(history.chamadas), identity).map((call) => ({
			...call,
			...envelope,
		}));
	},
};
