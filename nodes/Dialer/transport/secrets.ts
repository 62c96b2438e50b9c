import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#039;',
};

/**
 * The credential's secrets (token, report password) in every form a dialer's answer may repeat
 * them: as typed, as the form the request carried them in, as JSON writes them (PHP's JSON also
 * escapes "/" and non-ASCII) and as an HTML page does (PHP's htmlspecialchars). Messages never
 * show any of them.
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
				const html = value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
				return [...new Set([value, form, json, php, html])];
			})
	);
}
