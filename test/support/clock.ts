/**
 * The clock of this process moved by the test (jest.setSystemTime, jest.advanceTimersByTime), not by
 * the machine: Date, and with `intervals` setInterval (the scripted shift's tick). Timeouts,
 * immediates and ticks stay real, for HTTP. Undo with jest.useRealTimers().
 */
export function fakeClock({ intervals = false } = {}): void {
	jest.useFakeTimers({
		doNotFake: [
			'setTimeout',
			'clearTimeout',
			'setImmediate',
			'clearImmediate',
			'nextTick',
			'queueMicrotask',
			'hrtime',
			'performance',
			...(intervals ? [] : (['setInterval', 'clearInterval'] as const)),
		],
	});
}

/** Moves this process's clock forward at once (the trigger's and an in-process simulator's). */
export function clockForwardBy(ms: number): void {
	const now = Date.now();
	fakeClock();
	jest.setSystemTime(now + ms);
}
