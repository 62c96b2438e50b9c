/**
 * Agent state machine shared by the API (logout, pauseout) and the scripted shift, so the
 * event stream and the state the API sees never disagree. Every change returns the event
 * a dialer would push; the caller delivers it.
 */
import { refusal } from './errors';
import type { Agent, AgentState, SeededData } from './model';
import type { Random } from './random';
import { makeWorkPicker, startActiveCall } from './seed/history';
import { unixSeconds } from './time';
import type { AgentEvent } from './types';

export const eventKinds = [
	'agente.login',
	'agente.logout',
	'agente.pause_in',
	'agente.pause_out',
	'agente.busy',
	'agente.ringing',
	'agente.online',
] as const;
export type EventKind = (typeof eventKinds)[number];

export class AgentStates {
	private readonly pickWork: ReturnType<typeof makeWorkPicker>;
	private callSequence = 900_000;

	constructor(
		private readonly data: SeededData,
		private readonly random: Random,
		private readonly now: () => number = Date.now,
	) {
		this.pickWork = makeWorkPicker({ ...data, random });
	}

	/** API logout: any logged-in agent; a call in progress is dropped with the session. */
	logout(agent: Agent): AgentEvent {
		if (agent.estado === 'offline') throw refusal(`Agente ${agent.login} não está logado`);
		this.endCall(agent);
		agent.pausaId = undefined;
		return this.change(agent, 'offline', 'agente.logout');
	}

	/** API pauseout: only a paused agent; back to the call if one is still in progress. */
	pauseOut(agent: Agent): AgentEvent {
		if (agent.estado !== 'paused') throw refusal(`Agente ${agent.login} não está em pausa`);
		agent.pausaId = undefined;
		return this.change(agent, agent.callUid ? 'busy' : 'online', 'agente.pause_out');
	}

	/** One plausible move of a working day for this agent. */
	step(agent: Agent): AgentEvent {
		const roll = this.random.next();
		switch (agent.estado) {
			case 'offline':
				return this.login(agent, roll < 0.85 ? 'online' : 'paused');
			case 'online':
				if (roll < 0.6) return this.change(agent, 'ringing', 'agente.ringing');
				if (roll < 0.85) return this.pauseIn(agent);
				return this.logout(agent);
			case 'ringing':
				// Most rings are answered; the rest time out and the agent is available again.
				return roll < 0.8 ? this.answer(agent) : this.change(agent, 'online', 'agente.online');
			case 'busy':
				// Pausing during a call keeps the call; pause_out will then report busy.
				if (roll < 0.85) {
					this.endCall(agent);
					return this.change(agent, 'online', 'agente.online');
				}
				return this.pauseIn(agent);
			case 'paused':
				return roll < 0.85 || agent.callUid ? this.pauseOut(agent) : this.logout(agent);
		}
	}

	/** A well-formed payload of the given kind for this agent, without changing any state (bursts). */
	sample(kind: EventKind, agent: Agent): AgentEvent {
		const t = unixSeconds(this.now());
		const estado: Record<EventKind, AgentState> = {
			'agente.login': 'online',
			'agente.logout': 'offline',
			'agente.pause_in': 'paused',
			'agente.pause_out': 'online',
			'agente.busy': 'busy',
			'agente.ringing': 'ringing',
			'agente.online': 'online',
		};
		const event: AgentEvent = { estado: estado[kind], t, evento: kind, usuario_id: agent.id };
		if (kind === 'agente.pause_in')
			return { ...event, ...this.pauseFields(this.random.pick(this.data.pauses).id, t) };
		if (kind === 'agente.busy') return { ...event, udate: t };
		return event;
	}

	private login(agent: Agent, estado: 'online' | 'paused'): AgentEvent {
		// The contract's example shows a login straight into a pause.
		if (estado === 'paused') agent.pausaId = this.random.pick(this.data.pauses).id;
		return this.change(agent, estado, 'agente.login');
	}

	private pauseIn(agent: Agent): AgentEvent {
		const pause = this.random.pick(this.data.pauses);
		agent.pausaId = pause.id;
		const event = this.change(agent, 'paused', 'agente.pause_in');
		return { ...event, ...this.pauseFields(pause.id, event.t) };
	}

	private pauseFields(pausaId: number, t: number) {
		const pause = this.data.pauses.find((candidate) => candidate.id === pausaId)!;
		const limits: Record<string, number> = {};
		if (pause.durmax !== undefined) limits.durmax = pause.durmax;
		if (pause.durmin !== undefined) limits.durmin = pause.durmin;
		return { pausa_id: pause.id, udate: t, ...limits };
	}

	private answer(agent: Agent): AgentEvent {
		const inicio = this.now();
		this.data.activeCalls.push(
			startActiveCall(this.random, agent, this.pickWork(agent), inicio, ++this.callSequence),
		);
		return { ...this.change(agent, 'busy', 'agente.busy'), udate: unixSeconds(inicio) };
	}

	private endCall(agent: Agent): void {
		if (!agent.callUid) return;
		const index = this.data.activeCalls.findIndex((call) => call.uid === agent.callUid);
		if (index >= 0) this.data.activeCalls.splice(index, 1);
		agent.callUid = undefined;
	}

	private change(agent: Agent, estado: AgentState, evento: EventKind): AgentEvent {
		agent.estado = estado;
		return { estado, t: unixSeconds(this.now()), evento, usuario_id: agent.id };
	}
}
