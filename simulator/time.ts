/** Date handling. Wall-clock values are the process's local time, like a server in its own time zone. */

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** Parses the contract's `YYYYMMDDhhmmss`; undefined when not exactly 14 digits of a real calendar instant. */
export function parseCompactDateTime(text: string): number | undefined {
	const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
	if (!match) return undefined;
	const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
	const date = new Date(year, month - 1, day, hour, minute, second);
	// Date rolls 31/02 over into March; a round trip exposes such values.
	const roundTrips =
		date.getFullYear() === year &&
		date.getMonth() === month - 1 &&
		date.getDate() === day &&
		date.getHours() === hour &&
		date.getMinutes() === minute &&
		date.getSeconds() === second;
	return roundTrips ? date.getTime() : undefined;
}

/** `dd/mm/yyyy HH:MM:SS` */
export function formatBrazilianDateTime(epochMs: number): string {
	const d = new Date(epochMs);
	return `${formatBrazilianMinute(epochMs)}:${pad(d.getSeconds())}`;
}

/** `dd/mm/yyyy HH:MM` */
export function formatBrazilianMinute(epochMs: number): string {
	const d = new Date(epochMs);
	return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `yyyy-mm-dd HH:MM:SS` */
export function formatIsoLocal(epochMs: number): string {
	const d = new Date(epochMs);
	const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
	return `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `HH:MM:SS` for a duration; hours keep growing past 24. */
export function formatDuration(totalSeconds: number): string {
	const hours = Math.floor(totalSeconds / 3600);
	const minutes = Math.floor((totalSeconds % 3600) / 60);
	return `${pad(hours)}:${pad(minutes)}:${pad(totalSeconds % 60)}`;
}

/** Local midnight of the given day shifted by whole days (DST-safe: built from calendar fields). */
export function localMidnight(day: Date, offsetDays: number): number {
	return new Date(day.getFullYear(), day.getMonth(), day.getDate() + offsetDays).getTime();
}

export function isoDay(day: Date): string {
	return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

export const unixSeconds = (epochMs: number) => Math.floor(epochMs / 1000);
