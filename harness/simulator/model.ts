/** The simulator's live state: seeded at start, changed by API calls and the scripted shift. */

export type AgentState = 'online' | 'offline' | 'paused' | 'busy' | 'ringing';
export type ExtensionType = 'RS' | 'RP' | 'RI' | 'RK';
export type DialingType = 'PRE' | 'POW' | 'PRV' | 'MSG' | 'SGL';

export interface Operation {
	id: number;
	nome: string;
}

export interface Team {
	id: number;
	nome: string;
	operacaoId: number;
}

export interface Agent {
	id: number;
	login: string;
	nome: string;
	teamIds: number[];
	ramal: string;
	estado: AgentState;
	/** Set while paused. */
	pausaId?: number;
	/** Uid of the call in progress on the agent's extension (busy, or paused during a call). */
	callUid?: string;
}

export interface Extension {
	numero: string;
	tipo: ExtensionType;
	agentId?: number;
}

export interface Queue {
	id: number;
	descricao: string;
	operacaoId: number;
	/** Outbound queues take batches; inbound ones receive routed calls. */
	direcao: 'ativa' | 'receptiva';
	tipoDiscagem?: DialingType;
	/** Settings sent to criarFilaAtiva (defaults applied), as numbers or Y/N text. */
	config: Record<string, string | number>;
}

export interface Batch {
	id: number;
	descricao: string;
	filaId: number;
	ativo: boolean;
}

export interface CustomFieldDefinition {
	label: string;
}

export interface Prospect {
	codigo: string;
	nome: string;
	cpf: string;
	ddd_cel: string;
	tel_cel: string;
	ddd_com: string;
	tel_com: string;
	ddd_res: string;
	tel_res: string;
	loteId: number;
	/** Values of the customer-defined fields, aligned with SeededData.customFields. */
	custom: string[];
}

export interface Question {
	numero: number;
	label: string;
	/** Answers the seeded fichas draw from. */
	opcoes: readonly string[];
}

export interface Form {
	id: number;
	nome: string;
	questions: Question[];
}

export interface Ficha {
	id: number;
	formId: number;
	/** Epoch milliseconds. */
	data: number;
	status: string;
	agentId: number;
	teamId: number;
	prospect: number;
	/** Batch, queue and operation as they were when the ficha was filled. */
	loteId: number;
	filaId: number;
	operacaoId: number;
	pontos: number;
	/** Answers aligned with the form's questions. */
	answers: string[];
	/** Epoch milliseconds from which reports show the ficha (rows added while running); always when absent. */
	visibleFrom?: number;
	/** Epoch milliseconds of its last save after it was filled (its status changed), if any. */
	savedAt?: number;
}

export interface CallRecord {
	id: number;
	uid: string;
	protocolo: string;
	/** Epoch milliseconds. */
	horario: number;
	tipo: 'Gerada' | 'Recebida';
	ramal: string;
	agentId: number;
	teamId: number;
	numero: string;
	duracaoSegundos: number;
	desligadaPor: string;
	prospect: number;
	filaId: number;
	loteId: number;
	operacaoId: number;
	/** Classification by the agent (getRQ4); only answered outbound calls have one. */
	resultado?: string;
	fichaId?: number;
	dataAgendamento?: number;
	/** Epoch milliseconds from which getHC2 shows the call (rows added while running); always when absent. */
	visibleFrom?: number;
	/** Epoch milliseconds from which getRQ4 shows the classification; always when absent. */
	classifiedFrom?: number;
	/** Later classifications of the call: getRQ4 lists each as a row of its own. */
	reclassifications?: Reclassification[];
	/** Whether the call was recorded; when absent, answered calls are except one in eight. */
	recorded?: boolean;
}

export interface Reclassification {
	/** Epoch milliseconds: the row's `datahora`. */
	at: number;
	resultado: string;
	/** Epoch milliseconds from which getRQ4 shows it. */
	visibleFrom: number;
}

export interface InboundRoute {
	id: number;
	descricao: string;
	tipoDestino: 'FILA' | 'RAMAL' | 'URA';
	destino: string;
	filaId?: number;
}

export interface InboundCall {
	id: number;
	dataHora: number;
	origem: string;
	rotaId: number;
	prospectExistente: boolean;
	status: 'AT' | 'RA' | 'AB';
	tempoFila: number;
	tempoAtendimento: number;
	agentId?: number;
	resultado: string;
	/** Epoch milliseconds from which getRE2 shows the call (rows added while running); always when absent. */
	visibleFrom?: number;
}

export interface Audio {
	id: number;
	nome: string;
	ativo: boolean;
}

export interface ActiveCall {
	uid: string;
	ramal: string;
	agentId?: number;
	prospect: number;
	ddd: string;
	numero: string;
	loteId: number;
	filaId: number;
	inicio: number;
}

export interface Pause {
	id: number;
	nome: string;
	/** Limits in seconds, present when configured. */
	durmax?: number;
	durmin?: number;
}

export interface ReportUser {
	login: string;
	senha: string;
	teamIds: number[];
	operacaoIds: number[];
}

export interface SeededData {
	referenceDay: string;
	operations: Operation[];
	teams: Team[];
	agents: Agent[];
	extensions: Extension[];
	queues: Queue[];
	batches: Batch[];
	customFields: CustomFieldDefinition[];
	prospects: Prospect[];
	forms: Form[];
	fichas: Ficha[];
	calls: CallRecord[];
	inboundRoutes: InboundRoute[];
	inboundCalls: InboundCall[];
	audios: Audio[];
	pauses: Pause[];
	activeCalls: ActiveCall[];
	reportUsers: ReportUser[];
}
