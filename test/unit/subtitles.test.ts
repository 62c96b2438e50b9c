/**
 * What the canvas shows under each node's name: its subtitle expression evaluated by n8n-workflow
 * as n8n's editor evaluates it (the node's parameters with their defaults, mode "internal").
 */
import type { INode, INodeParameters, INodeType, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { Dialer } from '../../nodes/Dialer/Dialer.node';
import { DialerReportTrigger } from '../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { DialerTrigger } from '../../nodes/DialerTrigger/DialerTrigger.node';

function canvasSubtitle(nodeType: INodeType, parameters: INodeParameters): unknown {
	const { description } = nodeType;
	const typeVersion = description.defaultVersion ?? [description.version].flat().at(-1) ?? 1;
	const node: INode = {
		id: 'subtitle',
		name: description.defaults.name ?? description.displayName,
		type: `n8n-nodes-dialer.${description.name}`,
		typeVersion,
		position: [0, 0],
		parameters: {},
	};
	node.parameters =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

describe('the subtitle under each node on the canvas', () => {
	it.each([
		[
			{ resource: 'report', operation: 'getClassificationResults' },
			'Get call classification results',
		],
		[{ resource: 'recording', operation: 'download' }, 'Download a call recording'],
		[{ resource: 'agent', operation: 'logout' }, 'Log out an agent'],
		[{ resource: 'batch', operation: 'getMany' }, 'Get many batches'],
		[{ resource: 'team', operation: 'getMany' }, 'Get many teams'],
		[{}, 'Get filled forms'],
	])('Dialer with %j shows "%s"', (parameters, shown) => {
		expect(canvasSubtitle(new Dialer(), parameters)).toBe(shown);
	});

	it.each([
		[['agente.pause_in'], 'Agent Paused'],
		[['agente.login'], 'Agent Logged In'],
		[['agente.login', 'agente.logout', 'agente.pause_in'], '3 events'],
		[[], '0 events'],
	])('Dialer Trigger with events %j shows "%s"', (events, shown) => {
		expect(canvasSubtitle(new DialerTrigger(), { events })).toBe(shown);
	});

	it.each([
		[{ event: 'newClassificationResult' }, 'New Classification Result'],
		[{ event: 'newCallInHistory' }, 'New Call in History'],
		[{}, 'New Filled Form'],
	])('Dialer Report Trigger with %j shows "%s"', (parameters, shown) => {
		expect(canvasSubtitle(new DialerReportTrigger(), parameters)).toBe(shown);
	});
});
