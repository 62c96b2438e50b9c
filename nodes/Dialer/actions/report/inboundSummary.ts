import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { numberFromText, ParameterError } from '../../../shared/parameters';
import { countingTally, percent, secondsOf, type Summarizer } from './summary';

// The one call status whose meaning the contract gives for a call's outcome; every other status
// (RA, or codes it does not show) counts as not answered and is named in `statuses`.
const ANSWERED = 'AT';

/** Figures of inbound calls (getRE2 rows): offered, answered, service level, waits. */
export function inboundSummarizer(serviceLevelSeconds: number): Summarizer {
	const statuses = countingTally('offered', 'status', 'statuses');
	return {
		groupFields: { destination: 'destino', route: 'roteamento', agent: 'agente' },
		newTally() {
			const byStatus = statuses();
			let answered = 0;
			let withinServiceLevel = 0;
			let timedCalls = 0;
			let waitSum = 0;
			let longestWait: number | null = null;
			return {
				add(row) {
					byStatus.add(row);
					const wait = secondsOf(row.tempo_fila);
					if (wait !== undefined) {
						timedCalls++;
						waitSum += wait;
						longestWait = Math.max(longestWait ?? 0, wait);
					}
					if (String(row.status ?? '').trim() !== ANSWERED) return;
					answered++;
					if (wait !== undefined && wait <= serviceLevelSeconds) withinServiceLevel++;
				},
				figures() {
					const { offered, statuses: counts } = byStatus.figures() as {
						offered: number;
						statuses: Record<string, number>;
					};
					return {
						offered,
						answered,
						notAnswered: offered - answered,
						answeredPercent: percent(answered, offered),
						answeredWithinServiceLevel: withinServiceLevel,
						serviceLevelPercent: percent(withinServiceLevel, offered),
						averageWaitSeconds:
							timedCalls === 0 ? null : Math.round((10 * waitSum) / timedCalls) / 10,
						longestWaitSeconds: longestWait,
						statuses: counts,
					};
				},
			};
		},
	};
}

export const serviceLevelProperty: INodeProperties = {
	displayName: 'Service Level (Seconds)',
	name: 'serviceLevelSeconds',
	type: 'number',
	default: 20,
	typeOptions: { minValue: 0 },
	displayOptions: { show: { output: ['summary'] } },
	description:
		'Calls answered (status AT) after waiting at most this many seconds in queue (tempo_fila) ' +
		'count as answered within the service level',
};

export function readServiceLevel(context: IExecuteFunctions, itemIndex: number): number {
	const value: unknown = context.getNodeParameter('serviceLevelSeconds', itemIndex);
	const seconds = numberFromText(value);
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
		throw new ParameterError(
			'Service Level (Seconds)',
			`${JSON.stringify(value)} is not a number of seconds`,
			'Set it to 0 or more, for example 20.',
		);
	}
	return seconds;
}
