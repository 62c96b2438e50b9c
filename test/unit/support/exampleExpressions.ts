/**
 * An example workflow's expressions evaluated by n8n-workflow itself, as n8n evaluates them in a
 * run: `$json`, `$input`, `$('Node')`, `$now`, luxon, in the workflow's timezone, with the outputs
 * of earlier nodes given by the test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
	Workflow,
	type IConnections,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeTypes,
	type IRunExecutionData,
	type NodeParameterValueType,
} from 'n8n-workflow';

interface ExampleFile {
	nodes: INode[];
	connections: IConnections;
}

/** Every node type as one without parameters of its own: the example's parameters are used as they are. */
const nodeTypes: INodeTypes = {
	getByName: () => ({ description: { properties: [] } }) as never,
	getByNameAndVersion: () => ({ description: { properties: [] } }) as never,
	getKnownTypes: () => ({}),
};

export class ExampleExpressions {
	private readonly workflow: Workflow;
	private readonly nodes: Map<string, INode>;

	constructor(file: string, timezone = 'America/Sao_Paulo') {
		const example = JSON.parse(
			readFileSync(path.resolve(__dirname, '../../../examples', file), 'utf8'),
		) as ExampleFile;
		const nodes = example.nodes.map((node, i) => ({ ...node, id: node.id ?? `node-${i}` }));
		// Workflow keeps only the parameters a node type declares: the file's are read from here.
		this.nodes = new Map(structuredClone(nodes).map((node) => [node.name, node]));
		this.workflow = new Workflow({
			nodes,
			connections: example.connections,
			active: false,
			nodeTypes,
			settings: { timezone },
		});
	}

	node(name: string): INode {
		const node = this.nodes.get(name);
		if (!node) throw new Error(`the example has no node "${name}"`);
		return node;
	}

	/**
	 * The value `parameter` of node `nodeName` takes for its input `input`, when the nodes named in
	 * `outputs` have given those items.
	 */
	evaluate(
		nodeName: string,
		parameter: NodeParameterValueType,
		input: IDataObject[],
		outputs: Record<string, IDataObject[]> = {},
	): NodeParameterValueType {
		const runData = Object.fromEntries(
			Object.entries(outputs).map(([name, items]) => [
				name,
				[
					{
						startTime: 0,
						executionTime: 0,
						executionIndex: 0,
						source: [],
						data: { main: [items.map((json) => ({ json }))] },
					},
				],
			]),
		);
		const runExecutionData = { resultData: { runData } } as unknown as IRunExecutionData;
		const connectionInputData: INodeExecutionData[] = input.map((json) => ({ json }));
		return this.workflow.expression.getParameterValue(
			parameter,
			runExecutionData,
			0,
			0,
			nodeName,
			connectionInputData,
			'manual',
			{},
		);
	}
}
