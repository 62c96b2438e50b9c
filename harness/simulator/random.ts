/**
 * A small seeded PRNG (mulberry32). Faker is used for names and addresses; bulk rows
 * (100k fichas or calls) use this instead because it is an order of magnitude faster.
 */
export class Random {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** Uniform in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** Integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	digits(count: number): string {
		let text = '';
		for (let i = 0; i < count; i++) text += String(this.int(0, 9));
		return text;
	}
}
