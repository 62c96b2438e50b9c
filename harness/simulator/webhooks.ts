/**
 * Webhook delivery as the contract's Events section describes it: POST JSON, the secret
 * header only when configured, one attempt, a timeout (5 s), no retry. Every attempt is
 * recorded with its outcome and duration.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { AgentEvent, Delivery, WebhookReceiver } from './types';

export const contractTimeoutMs = 5000;

export class WebhookHub {
	readonly deliveries: Delivery[] = [];
	private readonly receivers = new Map<string, WebhookReceiver>();
	private readonly inFlight = new Set<Promise<unknown>>();
	// Pooled keep-alive connections: a shift at hundreds of events/s would otherwise open a socket per event.
	private readonly dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 256 });

	constructor(private readonly timeoutMs = contractTimeoutMs) {}

	register(receiver: WebhookReceiver): string {
		const url = new URL(receiver.url);
		if (url.protocol !== 'http:' && url.protocol !== 'https:')
			throw new Error(`Webhook URL must be http(s): ${receiver.url}`);
		const id = randomUUID();
		const { secret, events, numbersAsText } = receiver;
		this.receivers.set(id, { url: receiver.url, secret, events, numbersAsText });
		return id;
	}

	unregister(id: string): boolean {
		return this.receivers.delete(id);
	}

	clear(): void {
		this.receivers.clear();
	}

	get receiverCount(): number {
		return this.receivers.size;
	}

	/** Delivers to every receiver subscribed to the event; resolves with this event's deliveries. */
	emit(event: AgentEvent): Promise<Delivery[]> {
		const targets = [...this.receivers].filter(
			([, receiver]) => !receiver.events || receiver.events.includes(event.evento),
		);
		const all = Promise.all(targets.map(([id, receiver]) => this.deliver(id, receiver, event)));
		this.inFlight.add(all);
		void all.finally(() => this.inFlight.delete(all));
		return all;
	}

	async settled(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
	}

	async close(): Promise<void> {
		await this.settled();
		await this.dispatcher.close();
	}

	private async deliver(
		receiverId: string,
		receiver: WebhookReceiver,
		event: AgentEvent,
	): Promise<Delivery> {
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		const secretSent = Boolean(receiver.secret);
		if (receiver.secret) headers['x-webhook-secret'] = receiver.secret;
		const started = performance.now();
		const signal = AbortSignal.timeout(this.timeoutMs);
		const delivery: Delivery = { receiverId, event, ms: 0, secretSent };
		try {
			const response = await request(receiver.url, {
				method: 'POST',
				headers,
				body: JSON.stringify(event, receiver.numbersAsText ? numbersAsText : undefined),
				dispatcher: this.dispatcher,
				signal,
			});
			await response.body.text();
			delivery.status = response.statusCode;
		} catch (error) {
			delivery.error = signal.aborted
				? 'timeout'
				: ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
		}
		delivery.ms = Math.round((performance.now() - started) * 10) / 10;
		this.deliveries.push(delivery);
		return delivery;
	}
}

function numbersAsText(_key: string, value: unknown): unknown {
	return typeof value === 'number' ? String(value) : value;
}
