import type { INodeProperties } from 'n8n-workflow';

import { numberFromText, ParameterError } from '../../../shared/parameters';
import { sentAs } from '../../../shared/sentAs';

/** A whole-number setting of a queue: its parameter, API field, lowest value and server default. */
export interface NumberField {
	name: string;
	apiField: string;
	displayName: string;
	/** One sentence, no final period: the API field and the server default are appended. */
	description: string;
	minValue: number;
	serverDefault?: number;
}

/** Required whole-number settings of a queue. */
export const REQUIRED_NUMBERS: NumberField[] = [
	{
		name: 'maxOverdial',
		apiField: 'max_overdial',
		displayName: 'Max Overdial',
		description: 'Maximum overdial of the queue',
		minValue: 0,
	},
	{
		name: 'channels',
		apiField: 'num_canais',
		displayName: 'Channels',
		description: 'Maximum number of simultaneous channels the queue may use',
		minValue: 1,
	},
];

/** Optional whole-number settings; the server applies its default when one is not sent. */
export const OPTIONAL_NUMBERS: NumberField[] = [
	{
		name: 'maxHandlingMinutes',
		apiField: 'tempo_max_atendimento',
		displayName: 'Max Handling Time (Minutes)',
		description: 'Maximum call handling time in minutes',
		minValue: 0,
		serverDefault: 10,
	},
	{
		name: 'queueSize',
		apiField: 'tamanho_fila',
		displayName: 'Queue Size',
		description: 'Size of the queue',
		minValue: 1,
		serverDefault: 1,
	},
	{
		name: 'maxAgentRingSeconds',
		apiField: 'tempo_max_tocando_agente',
		displayName: 'Max Ringing at Agent (Seconds)',
		description: "Maximum time a call rings at the agent's phone, in seconds",
		minValue: 0,
		serverDefault: 0,
	},
	{
		name: 'maxQueueWaitSeconds',
		apiField: 'tempo_max_fila_espera',
		displayName: 'Max Wait in Queue (Seconds)',
		description: 'Maximum time a call waits in the queue, in seconds',
		minValue: 0,
		serverDefault: 1,
	},
	{
		name: 'averageRingSeconds',
		apiField: 'tempo_medio_ring',
		displayName: 'Average Ring Time (Seconds)',
		description: 'Average ring time in seconds, used to pace dialing',
		minValue: 0,
	},
	{
		name: 'averageHandlingSeconds',
		apiField: 'tempo_medio_atendimento',
		displayName: 'Average Handling Time (Seconds)',
		description: 'Average handling time in seconds',
		minValue: 0,
	},
	{
		name: 'averageAfterCallSeconds',
		apiField: 'tempo_medio_pos_atendimento',
		displayName: 'Average After-Call Time (Seconds)',
		description: 'Average after-call work time in seconds',
		minValue: 0,
	},
	{
		name: 'maxScheduleDays',
		apiField: 'max_dias_agendamento',
		displayName: 'Max Days Ahead for Schedules',
		description: 'How many days ahead a callback may be scheduled',
		minValue: 0,
	},
	{
		name: 'maxAgentSchedulesPerDay',
		apiField: 'max_ag_espec_dia_agente',
		displayName: 'Max Agent Schedules per Day',
		description: 'Maximum agent-specific schedules per day for each agent',
		minValue: 0,
	},
	{
		name: 'maxAgentSchedules',
		apiField: 'max_ag_espec_agente',
		displayName: 'Max Agent Schedules',
		description: 'Maximum agent-specific schedules for each agent',
		minValue: 0,
	},
	{
		name: 'dialSeconds',
		apiField: 'tempo_dial',
		displayName: 'Dial Time (Seconds)',
		description: 'Dialing time in seconds',
		minValue: 0,
	},
];

export function numberProperty(field: NumberField, required: boolean): INodeProperties {
	const serverDefault =
		field.serverDefault === undefined
			? 'No server default.'
			: `Server default: ${field.serverDefault}.`;
	const initialValue = required ? field.minValue : (field.serverDefault ?? field.minValue);
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'number',
		required,
		default: initialValue,
		typeOptions: { minValue: field.minValue, numberPrecision: 0 },
		description: sentAs(field.description, field.apiField, required ? undefined : serverDefault),
	};
}

export function wholeNumber(value: unknown, field: NumberField): string {
	const number = numberFromText(value);
	if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < field.minValue) {
		throw new ParameterError(
			field.displayName,
			`${JSON.stringify(value)} is not a whole number of at least ${field.minValue}`,
			`Enter a whole number of ${field.minValue} or more.`,
		);
	}
	return String(number);
}
