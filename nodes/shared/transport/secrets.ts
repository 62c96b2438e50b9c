import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

// How pages write a quote: PHP's htmlspecialchars by its flags (ENT_QUOTES since PHP 8.1,
// ENT_COMPAT before it leaves ' as is, ENT_NOQUOTES both, ENT_HTML5 &apos;), other templates
// numerically.
const DOUBLE_QUOTES = ['&quot;', '"', '&#34;'];
const APOSTROPHES = ['&#039;', "'", '&apos;', '&#39;', '&#x27;'];

/** The value as HTML-escaping pages write it, one form for each way of writing its quotes. */
function htmlForms(value: string): string[] {
	const plain = { '&': '&amp;', '<': '&lt;', '>': '&gt;' } as Record<string, string>;
	return DOUBLE_QUOTES.flatMap((quote) =>
		APOSTROPHES.map((apostrophe) =>
			value.replace(/[&<>"']/g, (character) =>
				character === '"' ? quote : character === "'" ? apostrophe : plain[character],
			),
		),
	);
}

/**
 * The credential's secrets (token, report password) in every form a dialer's answer may repeat
 * them: as typed, as the form the request carried them in, as JSON writes them (PHP's JSON also
 * escapes "/" and non-ASCII) and as an HTML page does (htmlspecialchars, whichever way it writes
 * quotes). Messages never show any of them.
 */
export function secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	return (
		[credentials.token, credentials.reportPassword]
			.map((value) => String(value ?? '').trim())
			// Shorter values are common words more often than secrets worth hiding.
			.filter((value) => value.length >= 4)
			.flatMap((value) => {
				const json = JSON.stringify(value).slice(1, -1);
				const php = json
					.replaceAll('/', '\\/')
					.replace(
						/[\u0080-\uffff]/g,
						(unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
					);
				const form = new URLSearchParams({ value }).toString().slice('value='.length);
				return [...new Set([value, form, json, php, ...htmlForms(value)])];
			})
	);
}

/**
 * `text` cut short where a secret may go on: the start of one (in any of its forms) it ends with
 * goes too, with a character the cut split (U+FFFD).
 */
export function withoutCutSecret(text: string, secrets: string[]): string {
	const end = text.replace(/\uFFFD+$/, '');
	let longest = 0;
	for (const secret of secrets) {
		for (let length = Math.min(secret.length - 1, end.length); length > longest; length--) {
			if (end.endsWith(secret.slice(0, length))) longest = length;
		}
	}
	return longest === 0 ? text : `${end.slice(0, end.length - longest)}…`;
}
