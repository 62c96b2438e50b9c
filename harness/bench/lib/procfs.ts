/**
 * Memory and CPU of n8n's processes read from /proc: n8n runs in its own process group (main
 * process and task runner), so the group is what a run costs. Peaks come from the kernel's
 * per-process high-water mark (VmHWM), reset before each run through clear_refs, so no
 * short spike slips between two samples of a poller.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

function readOrEmpty(file: string): string {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		// The process ended between listing and reading.
		return '';
	}
}

/** Fields of /proc/<pid>/stat after the command name (which may contain spaces and parentheses). */
function statFields(file: string): string[] {
	const text = readOrEmpty(file);
	return text === '' ? [] : text.slice(text.lastIndexOf(')') + 2).split(' ');
}

export function groupPids(pgid: number): number[] {
	return (
		readdirSync('/proc')
			.filter((name) => /^\d+$/.test(name))
			.map(Number)
			// stat fields after the name: state, ppid, pgrp, …
			.filter((pid) => Number(statFields(`/proc/${pid}/stat`)[2]) === pgid)
	);
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readOrEmpty(`/proc/${pid}/status`));
	return match ? Number(match[1]) : 0;
}

export interface GroupMemory {
	/** Resident memory now, summed over the group, in MB. */
	rssMb: number;
	/** Sum of each process's peak since the last resetPeaks, in MB. */
	peakMb: number;
}

export function groupMemory(pgid: number): GroupMemory {
	const pids = groupPids(pgid);
	const sum = (field: 'VmRSS' | 'VmHWM') =>
		pids.reduce((total, pid) => total + statusKb(pid, field), 0) / 1024;
	return { rssMb: sum('VmRSS'), peakMb: sum('VmHWM') };
}

/** Sets every process's high-water mark back to its current RSS (Linux ≥ 4.0). */
export function resetPeaks(pgid: number): void {
	for (const pid of groupPids(pgid)) {
		try {
			writeFileSync(`/proc/${pid}/clear_refs`, '5');
		} catch {
			// Gone already.
		}
	}
}

export interface CpuTimes {
	/** n8n's main thread (its event loop): user + system milliseconds. */
	mainThreadMs: number;
	/** Every thread of every process in the group. */
	groupMs: number;
}

function cpuMs(statFile: string): number {
	const fields = statFields(statFile);
	// utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
	return fields.length
		? ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
		: 0;
}

export function cpuTimes(pgid: number): CpuTimes {
	return {
		mainThreadMs: cpuMs(`/proc/${pgid}/task/${pgid}/stat`),
		groupMs: groupPids(pgid).reduce((total, pid) => total + cpuMs(`/proc/${pid}/stat`), 0),
	};
}
