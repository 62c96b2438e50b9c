import type { IAuthenticateGeneric, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

import { AUTHORIZATION_EXPRESSION } from '../nodes/shared/transport/server';

/**
 * One dialer server (one customer tenant). The token goes in `Authorization` in one of the
 * three forms the API accepts; the webhook secrets (current and, during a rotation, previous)
 * and the report login are used by the trigger and by the filled-forms report, never sent
 * anywhere else. Its Test button runs the nodes' own test function
 * (nodes/shared/transport/credentialTest.ts), which says in words what failed and where.
 */
export class DialerApi implements ICredentialType {
	name = 'dialerApi';

	displayName = 'Dialer API';

	icon: Icon = { light: 'file:../icons/dialer.svg', dark: 'file:../icons/dialer.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-dialer/n8n-nodes-dialer#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://acme.dialer.example:8607',
			description:
				'Scheme, host and, when the server uses one, port of your dialer server. No path: the ' +
				'path segment is set below.',
		},
		{
			displayName: 'Path Segment',
			name: 'pathSegment',
			type: 'string',
			default: 'ipbox',
			required: true,
			description:
				'First path segment of the API, as in https://host:port/<segment>/api/getTime. Most ' +
				'servers use "ipbox".',
		},
		{
			displayName: 'API Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Token generated in the dialer console under API > Token',
		},
		{
			displayName: 'Authorization Header Style',
			name: 'authScheme',
			type: 'options',
			default: 'raw',
			options: [
				{
					name: 'Token Only',
					value: 'raw',
					description: 'Authorization: <token> (what most servers expect)',
				},
				{ name: 'Bearer', value: 'bearer', description: 'Authorization: Bearer <token>' },
				{ name: 'Basic', value: 'basic', description: 'Authorization: Basic <token>' },
			],
			description: 'How the token is written in the Authorization header',
		},
		{
			// Named like n8n's own credentials' switch; a name containing "cert" would be taken for a
			// secret by n8n's scanner.
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the server certificate cannot be validated, for on-premise ' +
				'servers with a self-signed certificate',
		},
		{
			displayName: 'Dialer Timezone',
			name: 'dialerTimezone',
			type: 'string',
			default: '',
			placeholder: 'America/Sao_Paulo',
			description:
				"IANA timezone of the dialer server's clock, such as America/Sao_Paulo: the zone of the " +
				'times its reports show (a ficha just filled shows the server clock; its administrator ' +
				'knows the zone). Report periods (de/ate) are sent in it and the Dialer Report Trigger ' +
				"reads row times in it. Leave empty to use the workflow's timezone.",
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Secret configured on the webhook in the dialer console. The Dialer Trigger rejects ' +
				'deliveries whose X-Webhook-Secret header differs and is not published without one ' +
				'(unless it accepts unauthenticated deliveries).',
		},
		{
			displayName: 'Previous Webhook Secret',
			name: 'previousWebhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Only while changing the secret: the old value, still accepted until the dialer ' +
				'console sends the new one. Put the new secret in Webhook Secret and the old one here, ' +
				'change the console, then clear this field.',
		},
		{
			displayName: 'Report User',
			name: 'reportUser',
			type: 'string',
			default: '',
			description:
				'Login sent as "user" to the filled-forms report when the server checks team or ' +
				"operation permissions; results then follow this user's teams",
		},
		{
			displayName: 'Report Password',
			name: 'reportPassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Password of the report user, sent as "senha" together with it',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				// The same header as the package's own requests (transport/server.ts).
				Authorization: AUTHORIZATION_EXPRESSION,
			},
		},
	};
}
