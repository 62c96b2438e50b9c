import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resources as resourceTable } from '../../nodes/Dialer/actions/router';
import { Dialer } from '../../nodes/Dialer/Dialer.node';

const { description } = new Dialer();

/** The contract between users' workflows and the node: these values may never change. */
const CONTRACT: Array<[string, string]> = [
	['agent', 'logout'],
	['agent', 'endPause'],
	['call', 'getActive'],
	['queue', 'create'],
	['batch', 'getMany'],
	['batch', 'moveToQueue'],
	['team', 'getMany'],
	['audio', 'deactivate'],
	['recording', 'download'],
	['report', 'getFilledForms'],
	['report', 'getClassificationResults'],
	['report', 'getCallHistory'],
	['report', 'getInboundCalls'],
];

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	return (
		(!show.resource || show.resource.includes(resource)) &&
		(!show.operation || show.operation.includes(operation))
	);
}

describe('Dialer node description', () => {
	it('offers exactly the resource/operation pairs of the contract, each with a runner', () => {
		const offered: Array<[string, string]> = [];
		const resources = description.properties.find((property) => property.name === 'resource')!
			.options as INodePropertyOptions[];
		for (const resource of resources) {
			const selector = description.properties.find(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource.value),
			)!;
			for (const operation of selector.options as INodePropertyOptions[]) {
				offered.push([String(resource.value), String(operation.value)]);
				expect(operation.action).toBeTruthy();
				expect(
					resourceTable[String(resource.value)].operations[String(operation.value)].execute,
				).toBeInstanceOf(Function);
			}
		}
		expect(offered.sort()).toEqual([...CONTRACT].sort());
	});

	it.each(CONTRACT)(
		'shows each parameter of %s/%s once, with a description an AI agent can act on',
		(resource, operation) => {
			const shown = description.properties.filter((property) =>
				shownFor(property, resource, operation),
			);
			const names = shown.map((property) => property.name);
			expect(new Set(names).size).toBe(names.length);
			for (const property of shown) {
				if (['resource', 'operation'].includes(property.name) || property.type === 'collection')
					continue;
				expect(property.description?.length ?? 0).toBeGreaterThan(15);
			}
		},
	);
});
