/**
 * The examples' Dialer nodes are at the versions the package's nodes have: n8n shows a node of
 * an unknown version as "not installed" and cannot run it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { Dialer } from '../../../nodes/Dialer/Dialer.node';
import { DialerReportTrigger } from '../../../nodes/DialerReportTrigger/DialerReportTrigger.node';
import { DialerTrigger } from '../../../nodes/DialerTrigger/DialerTrigger.node';

const EXAMPLES = path.join(__dirname, '../../../examples');
const PACKAGE = 'n8n-nodes-dialer';

const versions = ({ version }: INodeTypeDescription) => [version].flat();
const dialer = versions(new Dialer().description);
const VERSIONS: Record<string, number[]> = {
	[`${PACKAGE}.dialer`]: dialer,
	// n8n's tool variant of a usableAsTool node keeps the node's versions.
	[`${PACKAGE}.dialerTool`]: dialer,
	[`${PACKAGE}.dialerTrigger`]: versions(new DialerTrigger().description),
	[`${PACKAGE}.dialerReportTrigger`]: versions(new DialerReportTrigger().description),
};

const packageNodes = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.flatMap((file) => {
		const { nodes } = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
			nodes: Array<{ name: string; type: string; typeVersion: number }>;
		};
		return nodes
			.filter((node) => node.type.startsWith(`${PACKAGE}.`))
			.map((node) => ({ file, ...node }));
	});

describe("the examples' Dialer nodes", () => {
	it('include every node of the package', () => {
		expect(new Set(packageNodes.map((node) => node.type))).toEqual(new Set(Object.keys(VERSIONS)));
	});

	it.each(packageNodes)('$file: "$name" is at a version $type has', ({ type, typeVersion }) => {
		expect(VERSIONS[type]).toContain(typeVersion);
	});
});
