import type { IExecuteFunctions } from 'n8n-workflow';

/** Options → Parallel Requests: how many items (or files) at a time; one without the option. */
export function parallelRequestsOf(context: IExecuteFunctions): number {
	return Math.max(
		1,
		Math.floor(Number(context.getNodeParameter('options.parallelRequests', 0, 1)) || 1),
	);
}

/**
 * Runs `task` for indexes 0 to count - 1, at most `parallel` at a time, in index order. Once
 * `stop` says so, no new task starts; those under way finish.
 */
export async function inParallel(
	count: number,
	parallel: number,
	task: (index: number) => Promise<void>,
	stop: () => boolean = () => false,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count && !stop()) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(Math.max(1, parallel), count) }, worker));
}
