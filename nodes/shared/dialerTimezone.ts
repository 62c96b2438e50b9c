import { IANAZone } from 'luxon';
import { dialerCredentials, type CredentialSource } from './credentials';
import { ParameterError } from './parameters';

/**
 * The dialer writes and reads times as wall-clock text of its own zone (de/ate, row times): the
 * credential's Dialer Timezone, or the workflow's when it is left empty. Node and triggers ask
 * here, so every period sent and every row time read uses the same zone.
 */

/** What finding the zone needs: n8n's execution, poll or load-options context. */
export interface TimezoneSource extends CredentialSource {
	getTimezone(): string;
}

/** The credential's value checked: an IANA zone (in any letter case), or the fallback. */
export function zoneOrFallback(value: unknown, workflowZone: string): string {
	if (value === undefined || value === null) return workflowZone;
	const text = String(value).trim();
	if (text === '') return workflowZone;
	if (!IANAZone.isValidZone(text)) {
		throw new ParameterError(
			'Dialer Timezone (credential)',
			`"${String(value)}" is not an IANA timezone`,
			"In the Dialer API credential, set Dialer Timezone to the dialer server's zone, such as " +
				"America/Sao_Paulo or UTC, or leave it empty to use the workflow's timezone.",
		);
	}
	return text;
}

/** The zone of the dialer's wall-clock times for this run. */
export async function dialerTimezone(context: TimezoneSource): Promise<string> {
	const credentials = await dialerCredentials(context);
	return zoneOrFallback(credentials.dialerTimezone, context.getTimezone());
}
