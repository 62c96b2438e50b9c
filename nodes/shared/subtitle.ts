/**
 * Canvas subtitles: n8n shows the result of a node's `subtitle` expression under its name. Each
 * looks the words of what the user picked up in an object literal (written as JSON), as n8n's
 * own nodes name their values, and calls no function n8n's editor might lack.
 */

export interface Named {
	name: string;
	value: string;
}

/** Value → name, as an object literal an expression can index. */
const namesOf = (options: readonly Named[]): string =>
	JSON.stringify(Object.fromEntries(options.map(({ name, value }) => [value, name])));

/** The name of the value `key` (an expression over `$parameter`) evaluates to. */
export const namedSubtitle = (key: string, options: readonly Named[]): string =>
	`={{ ${namesOf(options)}[${key}] }}`;

/** The name of a multi-choice parameter's single value, or how many it holds ("3 events"). */
export function countedSubtitle(
	parameter: string,
	options: readonly Named[],
	noun: string,
): string {
	const chosen = `($parameter["${parameter}"] || [])`;
	return (
		`={{ ${chosen}.length === 1 ? ${namesOf(options)}[${chosen}[0]] : ` +
		`${chosen}.length + " ${noun}" }}`
	);
}
