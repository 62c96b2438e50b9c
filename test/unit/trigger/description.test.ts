import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IHookFunctions, INodeProperties } from 'n8n-workflow';

import { DialerTrigger } from '../../../nodes/DialerTrigger/DialerTrigger.node';

const node = new DialerTrigger();
const { description } = node;
const property = (name: string) =>
	description.properties.find((p) => p.name === name) as INodeProperties;

describe('what users see of the Dialer Trigger', () => {
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
