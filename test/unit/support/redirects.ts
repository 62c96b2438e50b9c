import { Readable } from 'node:stream';

import type { IHttpRequestOptions } from 'n8n-workflow';

/** An answer of a fake's client, as far as redirects go. */
interface Answer {
	statusCode: number;
	headers: Record<string, unknown>;
	body?: unknown;
}

/**
 * Sends `request` with `send` and follows redirects as n8n's client does (2.41.1 and 1.123) unless
 * told not to (`disableFollowRedirect`): up to 21, POST turned into GET on 301 to 303, the body of
 * each redirect drained unseen, and the Authorization header sent on to any origin (its
 * sendCredentialsOnCrossOriginRedirect is true by default).
 */
export async function followingRedirects<T extends Answer>(
	request: IHttpRequestOptions,
	send: (request: IHttpRequestOptions) => Promise<T>,
): Promise<T> {
	let response = await send(request);
	for (let hop = 0; hop < 21 && request.disableFollowRedirect !== true; hop++) {
		const { statusCode: status, headers } = response;
		const location = Object.entries(headers).find(([name]) => /^location$/i.test(name));
		if (status < 300 || status > 399 || !location) break;
		if (response.body instanceof Readable) response.body.resume();
		const downgrade = status <= 303 && request.method !== 'GET';
		request = {
			...request,
			url: new URL(String(location[1]), request.url).href,
			...(downgrade && { method: 'GET', body: undefined }),
		};
		response = await send(request);
	}
	return response;
}
