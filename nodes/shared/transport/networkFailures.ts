/**
 * What went wrong when no answer came back from the dialer, and what to check: the network's
 * codes, whichever way n8n's request helper wraps them, named with where the Base URL points.
 */
export const TIMED_OUT = 'no answer in time';
export const UNTRUSTED_CERTIFICATE = 'TLS certificate not trusted';

/**
 * Each network failure with what to check; `at` names where the credential's Base URL points
 * ("http://10.0.0.5:8607, the credential's Base URL"), since a wrong host, port or scheme there
 * is the usual cause.
 */
const NETWORK_HINTS: Array<[RegExp, string, (at: string) => string]> = [
	[
		/ECONNREFUSED/,
		'connection refused',
		(at) =>
			`Nothing accepts connections at ${at}. Check the host and the port (each tenant may ` +
			'have its own), whether the dialer expects https:// or http://, and that the dialer is ' +
			'running and a firewall lets n8n in.',
	],
	[
		/ENOTFOUND|EAI_AGAIN/,
		'host not found',
		(at) =>
			`The host name of ${at} does not resolve from n8n's machine. Check its spelling and the ` +
			"DNS (or VPN) n8n's machine uses; use the dialer's IP address if it has no name.",
	],
	[
		/EHOSTUNREACH|ENETUNREACH/,
		'host unreachable',
		(at) =>
			`n8n's machine has no route to ${at}. Check the host, and the network, VPN or firewall ` +
			'between n8n and the dialer.',
	],
	[
		/ETIMEDOUT|ECONNABORTED|timeout/i,
		TIMED_OUT,
		(at) =>
			`No answer in time from ${at}. If no request gets through, check the host, the port, ` +
			'https:// or http:// and a firewall that drops connections; if only long reports time ' +
			'out, narrow the period or raise Options → Timeout.',
	],
	[
		/ECONNRESET|socket hang up/i,
		'connection closed by the server',
		() => 'The dialer closed the connection. Retry later; check a proxy or firewall in between.',
	],
	[
		/CERT|SSL|TLS|self[- ]signed/i,
		UNTRUSTED_CERTIFICATE,
		() =>
			'The server certificate could not be verified. For an on-premise server with a ' +
			'self-signed certificate, turn on "Ignore SSL Issues" in the credential.',
	],
];

/**
 * Every code and message an error carries, down its whole `cause` chain. n8n's request helper
 * wraps the client's error in a NodeApiError: some versions keep the client's error as `cause`,
 * others drop it and keep only its code (as `httpCode`) and its message (in `messages`).
 */
function errorTexts(error: unknown, seen = new Set<object>()): string[] {
	if (typeof error !== 'object' || error === null || seen.has(error)) return [];
	seen.add(error);
	const { code, httpCode, message, messages, cause } = error as Record<string, unknown>;
	const texts = [code, httpCode, message, ...(Array.isArray(messages) ? messages : [])];
	return [
		...texts.filter((text): text is string => typeof text === 'string' && text !== ''),
		...errorTexts(cause, seen),
	];
}

/**
 * What went wrong when no answer (or only part of one) came back from `baseUrl` (the
 * credential's; only its origin is named, never a path, query or login in it).
 */
export function networkFailure(
	error: unknown,
	deadline: AbortSignal,
	baseUrl: string,
): { problem: string; hint: string } {
	// Past the deadline the client only sees "canceled" or "aborted": the deadline says why.
	const text = deadline.aborted ? 'timeout' : errorTexts(error).join(' ');
	const at = baseUrlNamed(baseUrl);
	for (const [pattern, problem, hint] of NETWORK_HINTS) {
		if (pattern.test(text)) return { problem, hint: hint(at) };
	}
	return {
		problem: 'the request could not be completed',
		hint: `Check ${at}, and the network between n8n and the dialer.`,
	};
}

function baseUrlNamed(baseUrl: string): string {
	try {
		return `${new URL(baseUrl).origin}, the credential's Base URL`;
	} catch {
		return "the credential's Base URL";
	}
}
