/**
 * A scripted working shift: random agents take their next plausible step (login, ring,
 * answer, hang up, pause, leave the pause, log out) at a steady number of events per second.
 */
import type { AgentStates } from './agent-states';
import type { SeededData } from './model';
import type { Random } from './random';
import type { AgentEvent, ShiftOptions } from './types';
import type { WebhookHub } from './webhooks';

/** Timer granularity: fine enough for smooth rates, coarse enough not to spin. */
const maxTickMs = 50;
const minTickMs = 5;

export class ScriptedShift {
	/** Events in the order they happened (deliveries finish in any order). */
	readonly events: AgentEvent[] = [];
	private timer?: NodeJS.Timeout;
	private startedAt = 0;
	private emittedThisRun = 0;
	private options: ShiftOptions = { eventsPerSecond: 1 };

	constructor(
		private readonly data: SeededData,
		private readonly states: AgentStates,
		private readonly hub: WebhookHub,
		private readonly random: Random,
	) {}

	get running(): boolean {
		return this.timer !== undefined;
	}

	start(options: ShiftOptions): void {
		if (!(options.eventsPerSecond > 0))
			throw new Error('eventsPerSecond must be a positive number');
		if (this.running) throw new Error('The shift is already running');
		this.options = options;
		this.startedAt = Date.now();
		this.emittedThisRun = 0;
		const tickMs = Math.min(maxTickMs, Math.max(minTickMs, 1000 / options.eventsPerSecond));
		this.timer = setInterval(() => this.tick(), tickMs);
	}

	async stop(): Promise<void> {
		clearInterval(this.timer);
		this.timer = undefined;
		await this.hub.settled();
	}

	private tick(): void {
		const { eventsPerSecond, maxEvents = Infinity, durationMs = Infinity } = this.options;
		const elapsed = Date.now() - this.startedAt;
		const due = Math.min(
			Math.floor((Math.min(elapsed, durationMs) * eventsPerSecond) / 1000),
			maxEvents,
		);
		while (this.emittedThisRun < due) {
			const event = this.states.step(this.random.pick(this.data.agents));
			this.events.push(event);
			this.emittedThisRun++;
			void this.hub.emit(event);
		}
		if (this.emittedThisRun >= maxEvents || elapsed >= durationMs) {
			clearInterval(this.timer);
			this.timer = undefined;
		}
	}
}
