/**
 * Where the dialer's API is and how a request proves who sends it, both from the Dialer API
 * credential: the package's requests, its credential test and n8n's own use of the credential
 * (the HTTP Request node's Authorization header) follow the same rules.
 */
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import { dialerCredentials } from '../credentials';
import { secretsOf } from './secrets';

export type DialerContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** Where the API is: the credential's base URL and path segment, its TLS switch and token. */
export interface Server {
	baseUrl: string;
	pathSegment: string;
	skipTlsValidation: boolean;
	/** The Authorization header, for requests to the dialer's own origin only. */
	authorization: string;
	/** What the requests carry that the dialer's answers may repeat: never shown in messages. */
	secrets: string[];
}

// Users paste base URLs with a trailing slash and path segments with slashes around them.
const TRAILING_SLASHES = /\/+$/;
const EDGE_SLASHES = /^\/+|\/+$/g;

/** What each Authorization Header Style writes before the token. */
const TOKEN_PREFIXES: Record<string, string> = { raw: '', bearer: 'Bearer ', basic: 'Basic ' };

const prefixesLiteral = Object.entries(TOKEN_PREFIXES)
	.map(([scheme, prefix]) => `${scheme}: ${JSON.stringify(prefix)}`)
	.join(', ');
const prefixExpression = `({ ${prefixesLiteral} })[$credentials.authScheme] ?? ""`;

// Own keys only: a stored style such as "toString" is no style.
const prefixOf = (scheme: string) =>
	Object.hasOwn(TOKEN_PREFIXES, scheme) ? TOKEN_PREFIXES[scheme] : '';

/** The Authorization header as an expression on the credential, for n8n's own requests with it. */
export const AUTHORIZATION_EXPRESSION = `={{ ${prefixExpression} }}{{ $credentials.token }}`;

export function serverOf(credentials: ICredentialDataDecryptedObject): Server {
	return {
		baseUrl: String(credentials.baseUrl ?? '')
			.trim()
			.replace(TRAILING_SLASHES, ''),
		pathSegment: String(credentials.pathSegment ?? '')
			.trim()
			.replace(EDGE_SLASHES, ''),
		skipTlsValidation: credentials.ignoreSslIssues === true,
		authorization: prefixOf(String(credentials.authScheme)) + String(credentials.token ?? ''),
		secrets: secretsOf(credentials),
	};
}

/**
 * The server of the credential as read once for this run. The package sets the Authorization
 * header itself rather than through n8n's httpRequestWithAuthentication, which reads and decrypts
 * the credential again for every request and, in n8n 2.x, starts an expression isolate for it
 * in polls and list searches (about 100 ms of each Report Trigger poll).
 */
export async function serverFor(context: DialerContext): Promise<Server> {
	return serverOf(await dialerCredentials(context));
}
