/** Why the trigger refused a delivery, as counted in n8n's log. */
export type Refusal = 'address' | 'secret' | 'noSecret' | 'stale';

const MEANING: Record<Refusal, string> = {
	address: 'from an address not in Allowed Addresses',
	secret: 'without the right X-Webhook-Secret',
	noSecret: 'while the credential has no Webhook Secret',
	stale: 'with an event time outside Max Event Age or Max Event Time Ahead',
};

interface Window {
	startedAt: number;
	counts: Map<Refusal, number>;
}

/**
 * Counts refused deliveries per trigger and says when to write a line to n8n's log: at the
 * first refusal, then one summary at most every `intervalMs`, so a flood costs no more than a
 * counter. Lines carry counts and reasons only: never an address, a header or a secret.
 */
export class RefusalCounter {
	private readonly windows = new Map<string, Window>();

	constructor(
		private readonly intervalMs: number,
		private readonly now: () => number = () => Date.now(),
	) {}

	/** Counts one refusal by `trigger`; returns the log line due now, if any. */
	count(trigger: string, refusal: Refusal): string | undefined {
		const window = this.windows.get(trigger);
		if (!window) {
			this.windows.set(trigger, { startedAt: this.now(), counts: new Map() });
			return (
				`${trigger} refused a delivery ${MEANING[refusal]}; further refusals are counted ` +
				`and logged at most every ${this.intervalMs / 1000} s`
			);
		}
		window.counts.set(refusal, (window.counts.get(refusal) ?? 0) + 1);
		const elapsed = this.now() - window.startedAt;
		if (elapsed < this.intervalMs) return undefined;
		const parts = [...window.counts].map(([reason, count]) => `${count} ${MEANING[reason]}`);
		const total = [...window.counts.values()].reduce((sum, count) => sum + count, 0);
		this.windows.set(trigger, { startedAt: this.now(), counts: new Map() });
		return (
			`${trigger} refused ${total} deliveries in the last ${Math.round(elapsed / 1000)} s: ` +
			parts.join(', ')
		);
	}
}
