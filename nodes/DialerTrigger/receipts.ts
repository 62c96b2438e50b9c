import { createHash, randomUUID } from 'node:crypto';

/**
 * Numbers the deliveries each trigger turns into executions, in the order this n8n process took
 * them. A workflow that saves every event with its number can tell a delivery n8n took and has
 * not saved yet: saved numbers 7 and 9 mean 8 is still on its way.
 *
 * Numbers run per process and trigger; `receivedBy` names the pair, so a restart, another
 * webhook process in queue mode or another workflow writing the same table counts on its own.
 */
export class Receipts {
	private readonly process = randomUUID();
	private readonly counts = new Map<string, { receivedBy: string; count: number }>();

	/** The next number of `trigger` (workflow and node), and the name its numbers run under. */
	next(trigger: string): { receivedBy: string; receiptNumber: number } {
		let counter = this.counts.get(trigger);
		if (!counter) {
			const name = createHash('sha256').update(`${this.process}\n${trigger}`).digest('hex');
			counter = { receivedBy: name.slice(0, 12), count: 0 };
			this.counts.set(trigger, counter);
		}
		counter.count += 1;
		return { receivedBy: counter.receivedBy, receiptNumber: counter.count };
	}
}
