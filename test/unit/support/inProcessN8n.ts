/**
 * n8n's engine in this process, as n8n's own node tests run it (n8n's NodeTestHarness in
 * packages/core/nodes-testing): a workflow of the package's node classes executed by n8n-core's
 * `WorkflowExecute`, with n8n's real execute context, expression evaluator, item pairing, HTTP
 * helpers and continue-on-fail handling, against the dialer simulator on 127.0.0.1. No HTTP
 * server, database or editor: what needs one stays in the real-n8n suites (test/e2e).
 *
 * The workflow is Input → Dialer: the items a run starts with are what the Input node (a pass
 * through, like the trigger n8n puts first) receives on the execution stack, as the output of a
 * trigger is in n8n.
 */
import './inProcessEnv';

import { randomUUID } from 'node:crypto';

import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ExecutionBaseError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import { Credentials, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { DialerApi } from '../../../credentials/DialerApi.credentials';
import { Dialer } from '../../../nodes/Dialer/Dialer.node';
import { startSimulator } from '../../../harness/simulator';
import type {
	DialerSimulator,
	RecordedRequest,
	SimulatorOptions,
} from '../../../harness/simulator/types';

export type Json = Record<string, unknown>;

/** The start node: passes on the items the run starts with, as a trigger's output. */
class InputNode implements INodeType {
	description = {
		displayName: 'Input',
		name: 'input',
		group: ['input'],
		version: 1,
		description: 'The items the run starts with',
		defaults: { name: 'Input' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

const INPUT_TYPE = 'n8n-nodes-dialer-test.input';
const DIALER_TYPE = 'n8n-nodes-dialer.dialer';

/** The node types n8n would load: this package's action node, and the Input node. */
class PackageNodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType> = {
		[INPUT_TYPE]: new InputNode(),
		[DIALER_TYPE]: new Dialer(),
	};

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type in an in-process run: ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

/**
 * The credentials of a run, by ID, as n8n's CredentialsHelper hands them to nodes: decrypted, with
 * the credential type's defaults for the fields left out. The package sets its Authorization
 * header itself (nodes/shared/transport/server.ts), so n8n's `authenticate` is never asked for.
 */
class DialerCredentialsHelper extends ICredentialsHelper {
	private readonly properties = new DialerApi().properties;

	constructor(private readonly byId: Map<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(): Promise<never> {
		throw new Error('The nodes set their Authorization header themselves: authenticate is unused');
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(details: INodeCredentialsDetails, type: string): Promise<Credentials> {
		return new Credentials(details, type, '');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = details.id === null ? undefined : this.byId.get(details.id);
		if (type !== 'dialerApi' || !data)
			throw new Error(`No ${type} credential with ID ${details.id} in this run`);
		return NodeHelpers.getNodeParameters(
			this.properties,
			data as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): INodeProperties[] {
		return this.properties;
	}
}

export interface InProcessRunOptions {
	/** The items the Dialer node receives (otherwise one empty item). */
	items?: Json[];
	/** A credential made with `createCredential` (otherwise the runner's own). */
	credential?: INodeCredentialsDetails;
	/** Settings → On Error → Continue (the node's `onError: continueRegularOutput`). */
	continueOnFail?: boolean;
	/** The workflow's timezone (otherwise the runner's). */
	timezone?: string;
}

export interface InProcessRun {
	/** The Dialer node's output items, as n8n passes them on. */
	output: INodeExecutionData[];
	/** Their JSON. */
	items: Json[];
	/** The error that stopped the workflow, as n8n records it on the execution. */
	error?: ExecutionBaseError;
	/** The execution's status, as n8n shows it in the executions list. */
	status: IRun['status'];
	/** What the simulator received during the run. */
	requests: RecordedRequest[];
	/** The execution's whole record, as n8n would save it. */
	execution: IRun;
}

/** Runs the Dialer node in n8n's engine, in this process, against a simulator it starts. */
export class InProcessN8n {
	private readonly credentials = new Map<string, ICredentialDataDecryptedObject>();

	private readonly nodeTypes = new PackageNodeTypes();

	private constructor(
		readonly sim: DialerSimulator,
		readonly token: string,
		readonly timezone: string,
		public credential: INodeCredentialsDetails,
	) {}

	/** Starts a simulator with a distinctive token and makes a credential for it. */
	static async start(
		options: { simulator?: SimulatorOptions; timezone?: string } = {},
	): Promise<InProcessN8n> {
		const token = `in-process-dialer-token-${randomUUID()}`;
		const sim = await startSimulator({ ...options.simulator, token });
		const runner = new InProcessN8n(
			sim,
			token,
			options.timezone ?? 'America/Sao_Paulo',
			undefined as never,
		);
		runner.credential = runner.createCredential();
		return runner;
	}

	/** A Dialer API credential for the simulator, with these fields changed. */
	createCredential(overrides: Json = {}): INodeCredentialsDetails {
		const id = randomUUID();
		this.credentials.set(id, {
			baseUrl: this.sim.baseUrl,
			pathSegment: this.sim.pathSegment,
			token: this.token,
			authScheme: 'raw',
			ignoreSslIssues: false,
			...overrides,
		} as ICredentialDataDecryptedObject);
		return { id, name: `Dialer in-process ${id.slice(0, 8)}` };
	}

	/** Runs Input → Dialer with these node parameters, and what n8n made of it. */
	async run(parameters: Json, options: InProcessRunOptions = {}): Promise<InProcessRun> {
		this.sim.clearRequests();
		const input: INode = {
			id: randomUUID(),
			name: 'Input',
			type: INPUT_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const dialer: INode = {
			id: randomUUID(),
			name: 'Dialer',
			type: DIALER_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: parameters as INode['parameters'],
			credentials: { dialerApi: options.credential ?? this.credential },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		};
		const workflow = new Workflow({
			id: 'in-process',
			name: 'In-process run',
			nodes: [input, dialer],
			connections: { Input: { main: [[{ node: 'Dialer', type: 'main', index: 0 }]] } },
			nodeTypes: this.nodeTypes,
			settings: { timezone: options.timezone ?? this.timezone },
			active: false,
		});
		const execution = await this.execute(workflow, input, options.items ?? [{}]);
		const output = execution.data.resultData.runData.Dialer?.at(-1)?.data?.main[0] ?? [];
		return {
			output,
			items: output.map((item) => item.json),
			error: execution.data.resultData.error,
			status: execution.status,
			requests: [...this.sim.requests],
			execution,
		};
	}

	private async execute(workflow: Workflow, start: INode, items: Json[]): Promise<IRun> {
		const mode: WorkflowExecuteMode = 'webhook';
		const executionId = randomUUID();
		const hooks = new ExecutionLifecycleHooks(mode, executionId, {
			id: workflow.id,
			name: workflow.name ?? 'In-process run',
			active: false,
			activeVersionId: null,
			isArchived: false,
			nodes: Object.values(workflow.nodes),
			connections: workflow.connectionsBySourceNode,
			createdAt: new Date(),
			updatedAt: new Date(),
		});
		const additionalData = {
			credentialsHelper: new DialerCredentialsHelper(this.credentials),
			hooks,
			executionId,
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://127.0.0.1/rest',
			instanceBaseUrl: 'http://127.0.0.1/',
			formBaseUrl: 'http://127.0.0.1/form',
			formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
			formTestBaseUrl: 'http://127.0.0.1/form-test',
			webhookBaseUrl: 'http://127.0.0.1/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
			mcpBaseUrl: 'http://127.0.0.1/mcp',
			mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
			variables: {},
			logAiEvent: () => {},
			executeWorkflow: unavailable('executeWorkflow'),
			getRunExecutionData: unavailable('getRunExecutionData'),
			getRuntimeCredential: unavailable('getRuntimeCredential'),
			startRunnerTask: unavailable('startRunnerTask'),
		} as unknown as IWorkflowExecuteAdditionalData;
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{
						node: start,
						data: { main: [items.map((json) => ({ json: json as IDataObject }))] },
						source: null,
					},
				],
			},
		});
		return await new WorkflowExecute(
			additionalData,
			mode,
			runExecutionData,
		).processRunExecutionData(workflow);
	}

	/** The simulator's own answer to the same request, unwrapped: the oracle for the node's items. */
	async direct(operation: string, fields: Record<string, string>): Promise<unknown> {
		const answer = await fetch(`${this.sim.apiUrl}/${operation}`, {
			method: 'POST',
			headers: { authorization: this.token, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields).toString(),
		});
		return ((await answer.json()) as Json).data;
	}

	async close(): Promise<void> {
		await this.sim.close();
	}
}

/** What an in-process run has no use for: asking for it is a test's mistake. */
const unavailable = (name: string) => () => {
	throw new Error(`${name} is not available in an in-process n8n run`);
};
