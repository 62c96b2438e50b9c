import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireText } from '../../helpers/ids';
import { ParameterError } from '../../helpers/ParameterError';
import { recordOf, rowsOf } from '../../helpers/rows';
import { dialerApiRequest } from '../../transport';
import { applyLimit, limitProperties, periodProperties, readFilters, readPeriod } from '../shared';

const ENTITY_TYPES = ['RS', 'RP', 'RI', 'RK', 'A'];

const properties: INodeProperties[] = [
	{
		displayName: 'History Of',
		name: 'entityType',
		type: 'options',
		default: 'RS',
		options: [
			{ name: 'Agent', value: 'A', description: 'An agent, by login or numeric ID' },
			{ name: 'IAX Extension', value: 'RI', description: 'An IAX extension, by number' },
			{ name: 'KHOMP Extension', value: 'RK', description: 'A KHOMP extension, by number' },
			{ name: 'PJSIP Extension', value: 'RP', description: 'A PJSIP extension, by number' },
			{ name: 'SIP Extension', value: 'RS', description: 'A SIP extension, by number' },
		],
		description:
			'Whether to read the calls of an extension (and its type) or of an agent (sent as tipo_entidade)',
	},
	{
		displayName: 'Extension or Agent',
		name: 'extensionOrAgent',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1001 or maria.souza',
		description:
			'Extension number, or agent login or ID when History Of is Agent (sent as ramal_agente)',
	},
	...periodProperties,
	...limitProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Direction',
				name: 'direction',
				type: 'options',
				default: '',
				options: [
					{ name: 'Both', value: '', description: 'Outgoing and incoming calls' },
					{ name: 'Incoming', value: 'R', description: 'Only received calls (Recebida)' },
					{ name: 'Outgoing', value: 'G', description: 'Only generated calls (Gerada)' },
				],
				description: 'Which calls to include (sent as tipo)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getCallHistory'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const entityType = String(this.getNodeParameter('entityType', itemIndex));
	if (!ENTITY_TYPES.includes(entityType)) {
		throw new ParameterError(
			'History Of',
			`"${entityType}" is not a known type`,
			'Choose Agent or an extension type (SIP, PJSIP, IAX, KHOMP).',
		);
	}
	const fields = {
		tipo_entidade: entityType,
		ramal_agente: requireText(
			this.getNodeParameter('extensionOrAgent', itemIndex),
			'Extension or Agent',
			'1001',
		),
		...readPeriod.call(this, itemIndex),
		...readFilters.call(this, itemIndex, { direction: 'tipo' }),
	};
	const history = recordOf(await dialerApiRequest.call(this, 'getHC2', fields, itemIndex));
	// Each call carries the envelope's extension/agent and range, so items stand on their own.
	const envelope: IDataObject = {
		ramal_agente: history.ramal_agente,
		de: history.de,
		ate: history.ate,
	};
	const calls = rowsOf(history.chamadas ?? []).map((call) => ({ ...call, ...envelope }));
	return applyLimit.call(this, itemIndex, calls).map((json) => ({ json }));
}
