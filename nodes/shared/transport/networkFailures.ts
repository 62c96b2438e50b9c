/**
 * What went wrong when no answer came back from the dialer, and what to check: the network's
 * codes, whichever way n8n's request helper wraps them, named with where the Base URL points.
 */
export const TIMED_OUT = 'no answer in time';
export const UNTRUSTED_CERTIFICATE = 'TLS certificate not trusted';
export const CERTIFICATE_FOR_ANOTHER_NAME = 'TLS certificate for another host name';
export const CERTIFICATE_EXPIRED = 'TLS certificate expired or not yet valid';
export const NOT_TLS = 'no TLS at this port';
export const TLS_FAILED = 'TLS connection failed';
/** The certificate failures: the credential's switch is the way past them for the dialer. */
export const CERTIFICATE_PROBLEMS: readonly string[] = [
	UNTRUSTED_CERTIFICATE,
	CERTIFICATE_FOR_ANOTHER_NAME,
	CERTIFICATE_EXPIRED,
];

/** The credential's switch, as its field is labelled. */
const IGNORE_TLS_SWITCH = '"Ignore SSL Issues (Insecure)"';

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
			`The host name does not resolve from n8n's machine (${at}). Check its spelling and ` +
			"the DNS (or VPN) n8n's machine uses; use the dialer's IP address if it has no name.",
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
		(at) =>
			`The connection was closed before an answer came from ${at}. If that happens every time, ` +
			'check whether the dialer expects https:// or http:// at that port; otherwise retry ' +
			'later, and check a proxy or firewall in between.',
	],
	// Before any other TLS failure: https:// to a port that serves plain HTTP.
	[
		/WRONG_VERSION_NUMBER|wrong version number|packet length too long/i,
		NOT_TLS,
		(at) =>
			`Nothing speaks TLS (https://) at ${at}. Check whether the dialer expects http:// ` +
			'there, or https:// on another port.',
	],
	[
		/ALTNAME|does not match certificate/i,
		CERTIFICATE_FOR_ANOTHER_NAME,
		(at) =>
			`The dialer's TLS certificate is for another host name than the one in ${at}. Put the ` +
			'name the certificate was issued for in the Base URL; for an on-premise dialer reached by ' +
			`its address, turn on ${IGNORE_TLS_SWITCH} in the credential.`,
	],
	[
		/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|certificate has expired|not yet valid/i,
		CERTIFICATE_EXPIRED,
		(at) =>
			`The dialer's TLS certificate (at ${at}) has expired or is not valid yet. Ask the ` +
			"dialer's administrator to renew it, and check both machines' clocks; until then " +
			`${IGNORE_TLS_SWITCH} in the credential connects anyway.`,
	],
	[
		/CERT|certificate|self[- ]signed/i,
		UNTRUSTED_CERTIFICATE,
		(at) =>
			`The dialer's TLS certificate (at ${at}) is self-signed or signed by an authority ` +
			"n8n's machine does not trust. For an on-premise dialer with its own certificate, turn " +
			`on ${IGNORE_TLS_SWITCH} in the credential, or give n8n the authority that signed it ` +
			'(NODE_EXTRA_CA_CERTS).',
	],
	// n8n's NodeSslError, for any certificate error, when it keeps no code to tell which (1.x).
	[
		/SSL Issue/,
		UNTRUSTED_CERTIFICATE,
		(at) =>
			`n8n could not verify the dialer's TLS certificate (at ${at}): it may be self-signed, ` +
			`for another host name or expired. For an on-premise dialer with its own certificate, ` +
			`turn on ${IGNORE_TLS_SWITCH} in the credential.`,
	],
	[
		/SSL|TLS|EPROTO/i,
		TLS_FAILED,
		(at) =>
			`The TLS (https://) connection failed before an answer came from ${at}. Check ` +
			'whether the dialer expects https:// or http://, and the port.',
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

/** Where the credential's Base URL points, as messages name it (its origin only). */
export function baseUrlNamed(baseUrl: string): string {
	try {
		return `${new URL(baseUrl).origin}, the credential's Base URL`;
	} catch {
		return "the credential's Base URL";
	}
}
