/**
 * Date handling. Wall-clock values are the dialer's local time: a `WallClock` of its zone (by
 * default this process's, like a server in its own time zone), so one process can play a dialer
 * whose clock reads differently from n8n's.
 */

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

const DAY_MS = 86_400_000;
/** Offsets change at whole quarter hours: one lookup per quarter hour and zone. */
const QUARTER_HOUR_MS = 900_000;

export class WallClock {
	private readonly format: Intl.DateTimeFormat;
	private readonly offsets = new Map<number, number>();

	/** `zone`: an IANA name; throws on an unknown zone. */
	constructor(readonly zone: string = Intl.DateTimeFormat().resolvedOptions().timeZone) {
		this.format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
	}

	/** Milliseconds the wall clock is ahead of UTC at this instant. */
	offsetMs(epochMs: number): number {
		const quarter = Math.floor(epochMs / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
		let offset = this.offsets.get(quarter);
		if (offset === undefined) {
			const part: Record<string, number> = {};
			for (const { type, value } of this.format.formatToParts(quarter)) part[type] = Number(value);
			const wall = Date.UTC(
				part.year,
				part.month - 1,
				part.day,
				part.hour,
				part.minute,
				part.second,
			);
			offset = wall - quarter;
			this.offsets.set(quarter, offset);
		}
		return offset;
	}

	/** The wall-clock fields of an instant, read with the UTC getters of the returned Date. */
	wall(epochMs: number): Date {
		return new Date(epochMs + this.offsetMs(epochMs));
	}

	/**
	 * The instant a wall-clock time names (fields overflow like Date.UTC's): the earlier one where
	 * clocks go back. Where they jump forward, the time does not exist: undefined when `strict`,
	 * else read with the offset before the jump (like JavaScript's Date).
	 */
	instant(
		year: number,
		month: number,
		day: number,
		hour = 0,
		minute = 0,
		second = 0,
		strict = false,
	): number | undefined {
		const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
		const candidates = [asUtc - DAY_MS, asUtc + DAY_MS].map((near) => asUtc - this.offsetMs(near));
		const existing = candidates.filter((at) => this.wall(at).getTime() === asUtc);
		if (existing.length > 0) return Math.min(...existing);
		return strict ? undefined : candidates[0];
	}

	/** Parses the contract's `YYYYMMDDhhmmss`; undefined when not exactly 14 digits of a real wall-clock time. */
	parseCompactDateTime(text: string): number | undefined {
		const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
		if (!match) return undefined;
		const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
		// Date.UTC rolls 31/02 over into March: a real calendar value reads back the same.
		const calendar = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
		const real =
			calendar.getUTCFullYear() === year &&
			calendar.getUTCMonth() === month - 1 &&
			calendar.getUTCDate() === day &&
			calendar.getUTCHours() === hour &&
			calendar.getUTCMinutes() === minute &&
			calendar.getUTCSeconds() === second;
		return real ? this.instant(year, month, day, hour, minute, second, true) : undefined;
	}

	/** `dd/mm/yyyy HH:MM:SS` */
	formatBrazilianDateTime(epochMs: number): string {
		return `${this.formatBrazilianMinute(epochMs)}:${pad(this.wall(epochMs).getUTCSeconds())}`;
	}

	/** `dd/mm/yyyy HH:MM` */
	formatBrazilianMinute(epochMs: number): string {
		const d = this.wall(epochMs);
		return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
	}

	/** `yyyy-mm-dd HH:MM:SS` */
	formatIsoLocal(epochMs: number): string {
		const d = this.wall(epochMs);
		return `${this.isoDay(epochMs)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
	}

	/** `yyyy-mm-dd` of the instant's wall-clock day. */
	isoDay(epochMs: number): string {
		const d = this.wall(epochMs);
		return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
	}

	/** `yyyymmdd` of the instant's wall-clock day. */
	compactDay(epochMs: number): string {
		return this.isoDay(epochMs).replaceAll('-', '');
	}

	/** Midnight of the instant's wall-clock day shifted by whole days (built from calendar fields). */
	midnight(epochMs: number, offsetDays: number): number {
		const d = this.wall(epochMs);
		return this.instant(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate() + offsetDays)!;
	}
}

/** `HH:MM:SS` for a duration; hours keep growing past 24. */
export function formatDuration(totalSeconds: number): string {
	const hours = Math.floor(totalSeconds / 3600);
	const minutes = Math.floor((totalSeconds % 3600) / 60);
	return `${pad(hours)}:${pad(minutes)}:${pad(totalSeconds % 60)}`;
}

export const unixSeconds = (epochMs: number) => Math.floor(epochMs / 1000);
