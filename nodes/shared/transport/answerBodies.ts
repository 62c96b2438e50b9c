/**
 * What an answer's body says: a short description of it for an error message (secrets kept out),
 * and whether a 200 answer's body means the call failed.
 */
import type { IDataObject } from 'n8n-workflow';

import { withoutCutSecret } from './secrets';

function textField(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message a JSON body carries, under any of the names servers of this family use. */
function messageOf(body: unknown): string | undefined {
	if (!isRecord(body)) return undefined;
	return (
		textField(body.message) ??
		textField(body.mensagem) ??
		textField(body.error) ??
		textField(body.erro) ??
		textField(body.msg)
	);
}

/** The message of a failure body; an `error`/`erro` flag that says "no error" is not one. */
function failureText(body: IDataObject): string | undefined {
	return (
		textField(body.message) ??
		textField(body.mensagem) ??
		(flagsFailure(body.error) ? textField(body.error) : undefined) ??
		(flagsFailure(body.erro) ? textField(body.erro) : undefined) ??
		textField(body.msg)
	);
}

/**
 * Readable text from an error body (its JSON message, or HTML/plain text without markup), without
 * `secrets` nor the start of one a `cut` text ends with: they go before it is folded and cut short.
 */
export function describeBody(text: string, secrets: string[] = [], cut = false): string {
	const shown = withoutSecrets(text, secrets);
	const trimmed = (cut ? withoutCutSecret(shown, secrets) : shown).trim();
	if (trimmed === '') return 'empty answer';
	try {
		const message = messageOf(JSON.parse(trimmed));
		// Again: the message as JSON escapes decode it may spell a secret the raw text did not.
		if (message) return withoutSecrets(message, secrets);
	} catch {
		// Not JSON: the text itself is the best description.
	}
	const stripped = withoutSecrets(
		trimmed.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' '),
		secrets,
	);
	const plain = stripped.replace(/\s+/g, ' ').trim();
	return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

/** `text` without any of `secrets`: the longest first, so one that holds another goes whole. */
export const withoutSecrets = (text: string, secrets: string[]): string =>
	[...secrets]
		.sort((a, b) => b.length - a.length)
		.reduce((shown, secret) => shown.split(secret).join('…'), text);

const SUCCESS_STATUSES = new Set(['success', 'ok', 'sucesso', 'true']);
const FAILURE_STATUSES = new Set(['error', 'erro', 'fail', 'failed', 'failure', 'falha', 'false']);
/** Values of an `error`/`erro` field that say "no error". */
const NO_ERROR = new Set(['', '0', 'false', 'no', 'none', 'null', 'ok']);

/** Whether an `error`, `erro` or `success: false` field says the call failed. */
function flagsFailure(value: unknown): boolean {
	if (value === undefined || value === null || value === false) return false;
	if (typeof value === 'number') return value !== 0;
	if (typeof value === 'string') return !NO_ERROR.has(value.trim().toLowerCase());
	if (typeof value === 'object') return Object.keys(value).length > 0;
	return value === true;
}

/** Whether the body's `status` says failure. */
function statusFailed(body: IDataObject): boolean {
	// A status code may come as text ("200"), as some dialer builds send every number.
	const status =
		typeof body.status === 'string' && /^\s*\d+\s*$/.test(body.status)
			? Number(body.status)
			: body.status;
	if (typeof status === 'number') return status >= 400;
	if (status === false) return true;
	if (typeof status !== 'string' || status.trim() === '') return false;
	const word = status.trim().toLowerCase();
	if (SUCCESS_STATUSES.has(word)) return false;
	if (FAILURE_STATUSES.has(word)) return true;
	// Another word counts on an envelope (beside data or a message, or nearly alone), not on a bare
	// record that has its own status field (a prospect's "ATIVO", a ficha's "Pendente").
	return 'data' in body || messageOf(body) !== undefined || Object.keys(body).length <= 2;
}

/**
 * The message of a body that reports failure, or undefined when it does not: the one rule for
 * every request of the node and the triggers. A `status` other than success fails (even beside
 * an empty `data` list), as do `success: false` and an `error`/`erro` that is set (not 0, false,
 * "0" or empty).
 */
export function failureMessage(body: unknown): string | undefined {
	if (!isRecord(body)) return undefined;
	const failed =
		statusFailed(body) ||
		body.success === false ||
		body.success === 'false' ||
		flagsFailure(body.error) ||
		flagsFailure(body.erro);
	if (!failed) return undefined;
	const flag = [body.error, body.erro].find(flagsFailure);
	const text = failureText(body);
	if (text !== undefined) return text;
	if (flag !== undefined) return JSON.stringify(flag);
	return statusFailed(body) ? `status ${JSON.stringify(body.status)}` : '"success": false';
}
