import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ParameterError, requireText, switchOn } from '../../../shared/parameters';
import { recordOf } from '../../../shared/rows';
import {
	ACTION_TIMEOUT_MS,
	dialerApiRequest,
	type ApiEndpoint,
	type ApiFields,
} from '../../../shared/transport/request';
import { sentAs } from '../../../shared/sentAs';
import { numberProperty, OPTIONAL_NUMBERS, REQUIRED_NUMBERS, wholeNumber } from './numberSettings';

export const option = {
	name: 'Create',
	description: 'Create an active (outbound) queue and return its ID',
	action: 'Create an active queue',
};

export const endpoint: ApiEndpoint = {
	operation: 'criarFilaAtiva',
	streamed: false,
	defaultTimeout: ACTION_TIMEOUT_MS,
};

/** The dialing types, in the order the error message names them. */
const DIALING_TYPES = [
	{
		name: 'Predictive',
		value: 'PRE',
		description: 'Dials ahead of agents becoming free, based on statistics',
	},
	{ name: 'Power', value: 'POW', description: 'Dials a fixed number of calls per available agent' },
	{
		name: 'Preview',
		value: 'PRV',
		description: 'The agent sees the prospect before the call is placed',
	},
	{ name: 'Message', value: 'MSG', description: 'Plays a message to the answered call' },
	{ name: 'Single', value: 'SGL', description: 'One call at a time' },
];

export const properties: INodeProperties[] = [
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Cobrança Novembro',
		description: sentAs('Name of the new queue', 'descricao'),
	},
	{
		displayName: 'Operation (ID or Name)',
		name: 'queueOperation',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 2 or Operação Cobrança',
		description: sentAs('Operation the queue belongs to, by numeric ID or exact name', 'operacao'),
	},
	{
		displayName: 'Dialing Type',
		name: 'dialingType',
		type: 'options',
		default: 'PRE',
		required: true,
		options: [...DIALING_TYPES].sort((a, b) => a.name.localeCompare(b.name)),

		description: sentAs('How the queue dials its prospects', 'tipo_discagem'),
	},
	{
		displayName: 'Overdial',
		name: 'overdial',
		type: 'boolean',
		default: false,
		required: true,
		description:
			'Whether the queue may dial more calls than there are free agents (sent as overdial ' +
			'Y/N)',
	},
	...REQUIRED_NUMBERS.map((field) => numberProperty(field, true)),
	{
		displayName: 'Dialer Channel',
		name: 'dialerChannel',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1',
		description: sentAs(
			'Dialing channel (trunk) the queue uses, as configured on the dialer',
			'canal_dialer',
		),
	},
	{
		displayName: 'Add Local Area Code',
		name: 'addLocalAreaCode',
		type: 'boolean',
		default: false,
		required: true,
		description:
			'Whether to add the area code to local numbers before dialing (sent as ' +
			'adicionar_ddd_local Y/N)',
	},
	{
		displayName: 'Carrier',
		name: 'carrier',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 15',
		description: sentAs('Carrier selection digits used when dialing', 'operadora'),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			...OPTIONAL_NUMBERS.map((field) => numberProperty(field, false)),
			{
				displayName: 'Integration ID',
				name: 'integrationId',
				type: 'string',
				default: '',
				description: sentAs(
					'ID of an integration to attach to the queue',
					'integracao_id',
					'No server default.',
				),
			} satisfies INodeProperties,
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

const yesNo = (value: unknown, parameter: string) => (switchOn(value, parameter) ? 'Y' : 'N');

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const parameter = (name: string) => this.getNodeParameter(name, itemIndex);
	const fields: ApiFields = {
		descricao: requireText(parameter('description'), 'Description', 'Cobrança Novembro'),
		operacao: requireText(
			parameter('queueOperation'),
			'Operation (ID or Name)',
			'Operação Cobrança',
		),
		tipo_discagem: String(parameter('dialingType')),
		overdial: yesNo(parameter('overdial'), 'Overdial'),
		canal_dialer: requireText(parameter('dialerChannel'), 'Dialer Channel', '1'),
		adicionar_ddd_local: yesNo(parameter('addLocalAreaCode'), 'Add Local Area Code'),
		operadora: requireText(parameter('carrier'), 'Carrier', '15'),
	};
	if (!DIALING_TYPES.some((type) => type.value === fields.tipo_discagem)) {
		const names = DIALING_TYPES.map((type) => type.name);
		throw new ParameterError(
			'Dialing Type',
			`"${fields.tipo_discagem}" is not a dialing type`,
			`Choose ${names.slice(0, -1).join(', ')} or ${names.at(-1)}.`,
		);
	}
	for (const field of REQUIRED_NUMBERS) {
		fields[field.apiField] = wholeNumber(parameter(field.name), field);
	}
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const field of OPTIONAL_NUMBERS) {
		if (additional[field.name] !== undefined)
			fields[field.apiField] = wholeNumber(additional[field.name], field);
	}
	// An expression may give the ID as a number (a CRM record's id).
	const { integrationId } = additional;
	if (typeof integrationId === 'string' || typeof integrationId === 'number')
		fields.integracao_id = String(integrationId).trim();

	const queue = recordOf(await dialerApiRequest.call(this, endpoint, fields, itemIndex));
	return [{ json: queue }];
}
