import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IPollFunctions,
} from 'n8n-workflow';

import { bodyStream, release } from './body';
import { fileBody, readStart } from './fileBody';
import { describeBody } from './answerBodies';
import { CERTIFICATE_PROBLEMS, networkFailure, TIMED_OUT } from './networkFailures';
import { fileError } from './errors';
import { cancelSignalOf } from './request';
import { serverFor } from './server';
import {
	audioTypeOf,
	fileNameOf,
	fileTypeOf,
	fromRawUtf8,
	isPageType,
	looksLikePage,
	relabel,
} from './fileNames';

/** A file the dialer links to (a call recording), and what to call it in messages and on disk. */
export interface FileRequest {
	/** Absolute, or relative to the credential's base URL. */
	link: string;
	/** What the file is, for messages: "the recording of call 2026112400001". */
	subject: string;
	/** File name (without extension) when neither the answer nor the link gives one. */
	fallbackName: string;
	maxBytes: number;
	timeout: number;
	itemIndex?: number;
}

type FileContext = IExecuteFunctions | IPollFunctions;

// Enough for a load balancer in front of a storage service; a loop ends here.
const MAX_REDIRECTS = 5;
const ACCEPT = 'audio/*, application/octet-stream;q=0.9, */*;q=0.5';

/** The link as a URL, a relative one against `base`; only http and https. */
export function resolveLink(link: string, base: string): URL | undefined {
	try {
		const url = new URL(link.trim(), base);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
	} catch {
		return undefined;
	}
}

// Path parameters such as ;jsessionid=… carry sessions in links of Java servers.
const PATH_PARAMETERS = /;[^/;=]*=[^/;]*/g;

/**
 * The link for messages: no user, password, path parameters, query string or fragment (they may
 * hold tokens).
 */
export function shownLink(url: URL): string {
	return `${url.origin}${url.pathname.replace(PATH_PARAMETERS, '')}`;
}

/** What a link carries that may be a secret, as written and decoded. */
function secretsOf(url: URL): string[] {
	const pathValues = url.pathname.match(PATH_PARAMETERS) ?? [];
	const written = [...url.search.slice(1).split('&'), ...pathValues].map((pair) =>
		pair.slice(pair.indexOf('=') + 1),
	);
	const values = [...written, ...url.searchParams.values(), url.username, url.password];
	for (const value of written) {
		try {
			values.push(decodeURIComponent(value));
		} catch {
			// Not percent-encoded text: as written only.
		}
	}
	return values.filter((value) => value.length >= 4);
}

/** The same for a link that is no http(s) URL (ftp://user:password@…, a malformed URL). */
function shownText(link: string): string {
	return link.split(/[?#]/)[0].replace(/^([a-z][\w+.-]*:)?\/\/[^/]*@/i, '$1//');
}

interface Answer {
	url: URL;
	status: number;
	headers: IDataObject;
	body: unknown;
}

const header = (headers: IDataObject, name: string) => String(headers[name] ?? '');

/**
 * Downloads one file into n8n's binary data, streamed: the body goes into n8n's binary store as it
 * arrives and is never held whole here. The credential's Authorization header (and its TLS
 * switch) go only to the origin of its base URL: links to other origins, and redirects to them,
 * are fetched without. Redirects are followed here, hop by hop, because n8n's client would send
 * the header on to wherever the dialer redirects.
 */
export async function downloadFile(this: FileContext, file: FileRequest): Promise<IBinaryData> {
	const server = await serverFor(this);
	const deadline = AbortSignal.timeout(file.timeout);
	const cancel = cancelSignalOf(this);
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	// Relative links are paths on the dialer, its base URL being the API's host.
	const dialerRoot = `${server.baseUrl}/`;
	const dialerOrigin = resolveLink('/', dialerRoot)?.origin;
	let url = resolveLink(file.link, dialerRoot);
	// Error pages may repeat the link they were asked for, or the token: left out of messages.
	const secrets = [...server.secrets, ...(url ? secretsOf(url) : [])];
	const described = (text: string, cut = false) => describeBody(text, secrets, cut);
	const fail = (problem: string, hint: string, status?: number) =>
		fileError(this.getNode(), {
			subject: file.subject,
			link: url ? shownLink(url) : shownText(file.link),
			status,
			problem,
			hint,
			itemIndex: file.itemIndex,
		});
	const broken = (error: unknown, status?: number) => {
		const { problem, hint } = networkFailure(error, deadline, server.baseUrl);
		return fail(problem, networkHint(problem, url!, dialerOrigin) ?? hint, status);
	};
	if (!url) {
		throw fail('not a web link', 'The link must be an http(s) URL or a path on the dialer.');
	}

	let answer: Answer;
	for (let hop = 0; ; hop++) {
		const trusted = url.origin === dialerOrigin;
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: url.href,
			headers: trusted
				? { Accept: ACCEPT, Authorization: server.authorization }
				: { Accept: ACCEPT },
			encoding: 'stream',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			skipSslCertificateValidation: trusted && server.skipTlsValidation,
			timeout: file.timeout,
			abortSignal: signal,
		};
		let response: { statusCode?: number; headers?: IDataObject; body?: unknown };
		try {
			response = await this.helpers.httpRequest(request);
		} catch (error) {
			throw broken(error);
		}
		answer = {
			url,
			status: response.statusCode ?? 0,
			headers: response.headers ?? {},
			body: response.body,
		};
		// Raw UTF-8 in a Location (PHP's header() sends accents as they are) is read as a browser does.
		const location = fromRawUtf8(header(answer.headers, 'location'));
		if (answer.status < 300 || answer.status > 399 || location === '') break;
		release(answer.body);
		const next = resolveLink(location, url.href);
		if (!next || hop === MAX_REDIRECTS) {
			throw fail(
				next ? `more than ${MAX_REDIRECTS} redirects` : `redirected to a link that is not http(s)`,
				'Check the link in a browser; the server redirects it in a loop or away from the web.',
				answer.status,
			);
		}
		url = next;
		secrets.push(...secretsOf(next));
	}

	const { status, headers } = answer;
	const contentType = header(headers, 'content-type');
	const received = async () => {
		const start = await readStart(
			bodyStream(answer.body, signal, (error) => broken(error, status)),
		);
		return described(start.text, start.cut);
	};
	if (status < 200 || status > 299) {
		throw fail(await received(), hintForFileStatus(status), status);
	}
	const announced = Number(header(headers, 'content-length') || NaN);
	if (announced > file.maxBytes) {
		release(answer.body);
		throw fail(`the file is ${megabytes(announced)}, above the size limit`, SIZE_HINT, status);
	}

	// A page's type may label audio all the same (PHP's default, text/html): its bytes decide.
	const labelledPage = isPageType(contentType);
	let audioType: string | undefined;
	let bytes = 0;
	let problem: { text: string; hint: string } | undefined;
	// The first bytes, gathered until there are enough to tell, however they are split up.
	let start: Buffer | undefined = Buffer.alloc(0);
	// `cut`: the first bytes of a body that goes on (a page may repeat the token across the cut).
	const sniff = (first: Buffer, cut: boolean) => {
		start = undefined;
		audioType = audioTypeOf(first);
		if (labelledPage ? !audioType : looksLikePage(first)) {
			const what = labelledPage ? contentType.split(';')[0] : 'a page';
			const text = `received ${what} instead of a file: ${described(first.toString(), cut)}`;
			problem = { text, hint: PAGE_HINT };
		}
	};
	const check = (chunk: Buffer) => {
		if (start) {
			start = Buffer.concat([start, chunk]);
			if (start.length >= SNIFFED_BYTES) sniff(start, true);
		}
		bytes += chunk.length;
		if (bytes > file.maxBytes) {
			problem ??= { text: `more than ${megabytes(file.maxBytes)} arrived`, hint: SIZE_HINT };
		}
		return problem?.text;
	};
	let binary: IBinaryData | undefined;
	try {
		const body = await fileBody(answer.body, signal, check, SNIFFED_BYTES);
		// A body shorter than that came whole: all of it tells, before anything is stored.
		if (body !== undefined && start) sniff(start, false);
		if (body !== undefined && !problem) {
			binary = await this.helpers.prepareBinaryData(
				body,
				fileNameOf(headers, url, file.fallbackName, contentType),
				fileTypeOf(contentType, url),
			);
		}
	} catch (error) {
		// The check's own reason, whatever n8n's binary store made of the stopped stream.
		throw problem ? fail(problem.text, problem.hint, status) : broken(error, status);
	}
	if (problem) throw fail(problem.text, problem.hint, status);
	if (!binary) {
		throw fail('received an empty file', 'Check the link; the server sent no bytes.', status);
	}
	if (labelledPage && audioType) {
		relabel(binary, fileNameOf(headers, url, file.fallbackName, audioType), audioType);
	}
	// No check of the bytes against Content-Length: n8n's client decodes a gzip body and drops
	// Content-Encoding but keeps the compressed length, and fails a body cut short by itself.
	return binary;
}

/**
 * The hint for a download that got no (whole) answer; undefined where the API's fits (a link on
 * the dialer: its base URL and credential).
 */
function networkHint(problem: string, url: URL, dialerOrigin?: string): string | undefined {
	if (problem === TIMED_OUT) return 'Retry later, or raise Options → Timeout for long recordings.';
	if (url.origin === dialerOrigin) return undefined;
	if (CERTIFICATE_PROBLEMS.includes(problem)) {
		return (
			`n8n does not trust the certificate of ${url.host}. The credential's Ignore SSL Issues ` +
			'applies only to the dialer: ask for links with a trusted certificate, or give n8n the ' +
			'authority that signed it (NODE_EXTRA_CA_CERTS).'
		);
	}
	return `The link points to ${url.host}, not the dialer: check that n8n can reach that server.`;
}

// As many as a page's start needs to be told from audio (looksLikePage reads 64).
const SNIFFED_BYTES = 64;
const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

const RETRY_HINT = 'Retry later; if it persists, check the network between n8n and the server.';
const SIZE_HINT =
	'Raise Max File Size (MB) if files this large are expected; otherwise check the link.';
const PAGE_HINT =
	'The server answered a web page, not the file: often a login page, when the link needs a ' +
	'session the API token does not give, or an error page. Open the link in a browser to see it.';

function hintForFileStatus(status: number): string {
	if (status === 401 || status === 403) {
		return (
			'The server refused the download. Links on the dialer get the credential’s token; links ' +
			'to other servers get no token and must work without one.'
		);
	}
	if (status === 404 || status === 410) {
		return 'The file is not on the server (removed, or not written yet). Check the link.';
	}
	return status >= 500 ? RETRY_HINT : 'The server did not give the file. Check the link.';
}
