import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IHookFunctions, INodeProperties } from 'n8n-workflow';

import { DialerTrigger } from '../../../nodes/DialerTrigger/DialerTrigger.node';

const node = new DialerTrigger();
const { description } = node;
const property = (name: string) =>
	description.properties.find((p) => p.name === name) as INodeProperties;

describe('what users see of the Dialer Trigger', () => {
	it('is a trigger with no input, one output and the Dialer API credential', () => {
		expect(description).toMatchObject({
			displayName: 'Dialer Trigger',
			name: 'dialerTrigger',
			group: ['trigger'],
			inputs: [],
			outputs: ['main'],
			credentials: [{ name: 'dialerApi', required: true }],
			icon: { light: 'file:../../icons/dialer.svg', dark: 'file:../../icons/dialer.dark.svg' },
		});
		expect(description.usableAsTool).toBeUndefined();
	});

	it('listens on one POST webhook that answers as soon as it is received', () => {
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		]);
	});

	it('tells users where to paste the URL, to set the same secret, that publishing needs one, and when the test URL works', () => {
		const notice = property('notice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/Production URL/);
		expect(notice.displayName).toMatch(/dialer console/);
		expect(notice.displayName).toMatch(/Secret/);
		expect(notice.displayName).toMatch(/cannot be published/);
		expect(notice.displayName).toMatch(/Test URL only works while/);
	});

	it('tells users the n8n setting that kept bursts whole, that n8n calls it experimental, and when it was measured', () => {
		const notice = property('burstNotice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(
			/N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, which n8n labels experimental/,
		);
		expect(notice.displayName).toMatch(/lost none up to 600 \(2 cores, 2026-11-23\)/);
		expect(notice.displayName).toMatch(/every webhook processor/);
		expect(notice.displayName).toMatch(/gives up after 5 seconds/);
	});

	it('requires choosing events and offers an agent filter, allowed addresses and event-age limits, all off by default', () => {
		expect(property('events')).toMatchObject({ type: 'multiOptions', required: true, default: [] });
		expect(property('options').options).toEqual([
			expect.objectContaining({ name: 'agentIds', type: 'string', default: '' }),
			expect.objectContaining({ name: 'allowedAddresses', type: 'string', default: '' }),
			expect.objectContaining({ name: 'maxEventAge', type: 'number', default: 0 }),
			expect.objectContaining({ name: 'maxEventAhead', type: 'number', default: 0 }),
		]);
	});

	// n8n evaluates an expression on every webhook call to a version 1 start node.
	it('has one version, 2, not 1', () => {
		expect(description.version).toBe(2);
		expect(description.defaultVersion).toBeUndefined();
	});

	it('offers an off-by-default switch whose name says unauthenticated deliveries are accepted', () => {
		expect(property('acceptUnauthenticatedDeliveries')).toMatchObject({
			displayName: 'Accept Unauthenticated Deliveries (Insecure)',
			type: 'boolean',
			default: false,
		});
	});

	it('has one set of properties, none shown or hidden by version', () => {
		for (const { displayOptions } of description.properties)
			expect(JSON.stringify(displayOptions ?? {})).not.toContain('@version');
	});

	it('registers nothing with the dialer: the URL is pasted by hand', async () => {
		const hooks = {} as IHookFunctions;
		const methods = node.webhookMethods.default;
		await expect(methods.create.call(hooks)).resolves.toBe(true);
		await expect(methods.delete.call(hooks)).resolves.toBe(true);
	});

	it('ships a codex file naming this node type and its documentation', () => {
		const codex = JSON.parse(
			readFileSync(
				path.join(__dirname, '../../../nodes/DialerTrigger/DialerTrigger.node.json'),
				'utf8',
			),
		);
		expect(codex).toMatchObject({
			node: 'n8n-nodes-dialer.dialerTrigger',
			codexVersion: '1.0',
			categories: expect.arrayContaining(['Communication']),
			resources: {
				primaryDocumentation: [
					{
						url: 'https://github.com/n8n-nodes-dialer/n8n-nodes-dialer/blob/main/docs/dialer-trigger.md',
					},
				],
				credentialDocumentation: [
					{ url: 'https://github.com/n8n-nodes-dialer/n8n-nodes-dialer#dialer-trigger' },
				],
			},
		});
	});
});
