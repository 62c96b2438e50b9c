import type { INodeProperties } from 'n8n-workflow';

import { AGENT_EVENTS } from './events';

const PASTE_URL =
	'Paste the Production URL above into the webhook settings of the dialer console and choose ' +
	'the same events there. Set a Secret there and the same value as Webhook Secret in this ' +
	"node's credential: ";
const TEST_URL =
	' The Test URL only works while this node is listening for a test event in the editor.';

const CAPACITY_URL =
	'https://github.com/n8n-nodes-dialer/n8n-nodes-dialer/blob/main/docs/capacity.md' +
	'#production-settings';

export const ACCEPT_UNAUTHENTICATED = 'acceptUnauthenticatedDeliveries';

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			`${PASTE_URL}without one, the workflow cannot be published and the Test URL does not ` +
			`listen, unless Accept Unauthenticated Deliveries is on.${TEST_URL}`,
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		// n8n's defaults build an expression isolate for every call to a community trigger before
		// its code runs; nothing in the node avoids that (docs/capacity.md), so users must be told.
		displayName:
			'Many agents acting at once (shift start, breaks)? The dialer waits only seconds for each ' +
			'answer and never sends that event again. Check that the n8n serving this URL keeps up ' +
			'with your dialer: what to set for your case, and queue mode for more, in <a href="' +
			`${CAPACITY_URL}" target="_blank">Capacity</a>.`,
		name: 'burstNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [],
		options: [...AGENT_EVENTS],
		description:
			'Agent events that start the workflow. Other events the dialer sends to this URL are ' +
			'acknowledged and ignored.',
	},
	{
		displayName: 'Accept Unauthenticated Deliveries (Insecure)',
		name: ACCEPT_UNAUTHENTICATED,
		type: 'boolean',
		default: false,
		description:
			'Whether to accept deliveries without any secret when the credential has no Webhook ' +
			'Secret: anyone who learns the URL can then start this workflow. Off, the workflow cannot ' +
			'be published (nor the Test URL listen) until a secret is set.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Agent IDs',
				name: 'agentIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. 12, 34',
				description:
					'Only start the workflow for these agents: their numeric IDs (usuario_id), ' +
					'separated by commas. Leave empty for all agents.',
			},
			{
				displayName: 'Allowed Addresses',
				name: 'allowedAddresses',
				type: 'string',
				default: '',
				placeholder: 'e.g. 203.0.113.7, 198.51.100.0/24, 2001:db8::/32',
				description:
					'Only accept deliveries from these IP addresses or CIDR ranges (IPv4 or IPv6), ' +
					'separated by commas; any other address is answered 403. Behind a reverse proxy, ' +
					"n8n sees the proxy's address unless N8N_PROXY_HOPS is set (README, Security). " +
					'Leave empty for any address.',
			},
			{
				displayName: 'Max Event Age (Seconds)',
				name: 'maxEventAge',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					'Refuse (400) a delivery whose event time t is more than this many seconds before ' +
					"n8n's clock: a replayed or long-delayed delivery. 0 is off. A dialer whose clock " +
					'is behind by more than this has every event refused.',
			},
			{
				displayName: 'Max Event Time Ahead (Seconds)',
				name: 'maxEventAhead',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					'Refuse (400) a delivery whose event time t is more than this many seconds after ' +
					"n8n's clock (a dialer clock running fast). 0 is off.",
			},
		],
	},
];
