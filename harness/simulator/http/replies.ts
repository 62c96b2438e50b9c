/** What the server writes back, independent of the socket. */
export interface Reply {
	status: number;
	contentType: string;
	body: string;
	/** The body already encoded, sent instead of `body` (a replayed answer). */
	bytes?: Buffer;
	headers?: Record<string, string>;
}

const jsonContentType = 'application/json; charset=utf-8';

export function jsonReply(value: unknown, status = 200, contentType = jsonContentType): Reply {
	return { status, contentType, body: JSON.stringify(value) };
}

export function errorReply(message: string, status: number): Reply {
	return jsonReply({ status: 'error', message }, status);
}

const pageTexts: Record<number, [string, string]> = {
	404: ['Not Found', 'The requested URL was not found on this server.'],
	500: [
		'Internal Server Error',
		'The server encountered an internal error and was unable to complete your request.',
	],
	502: ['Bad Gateway', 'The proxy server received an invalid response from an upstream server.'],
	503: ['Service Unavailable', 'The server is temporarily unable to service your request.'],
	504: [
		'Gateway Timeout',
		'The proxy server did not receive a timely response from the upstream server.',
	],
};

/** The kind of page a web server or reverse proxy answers with, not the API. */
export function htmlPage(status: number): Reply {
	const [reason, text] = pageTexts[status] ?? [
		'Error',
		'The server could not complete your request.',
	];
	const body =
		'<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n' +
		`<html><head>\n<title>${status} ${reason}</title>\n</head><body>\n` +
		`<h1>${reason}</h1>\n<p>${text}</p>\n<hr>\n<address>Apache Server</address>\n</body></html>\n`;
	return { status, contentType: 'text/html; charset=iso-8859-1', body };
}
