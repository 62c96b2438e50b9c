/**
 * What the queue-mode test file gets from its global setup: the e2e connection (so the e2e
 * helpers such as DialerRunner work unchanged, with webhooks on the webhook processor) and each
 * worker's PID and log.
 */
import { readConnection, type E2eConnection } from '../../e2e/setup/connection';

/**
 * n8n's defaults declare a dead worker's jobs stalled after a 60 s lock and a 30 s check; shorter
 * here so the test sees it in seconds. The renewal stays well inside the lock.
 */
export const STALL_DETECTION = {
	QUEUE_WORKER_LOCK_DURATION: '15000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};
export interface QueueConnection extends E2eConnection {
	webhookLogFile: string;
	workers: Array<{ name: string; pid: number; logFile: string }>;
}

export function readQueueConnection(): QueueConnection {
	return readConnection() as QueueConnection;
}
