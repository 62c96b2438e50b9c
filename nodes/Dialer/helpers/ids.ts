import { ParameterError } from './ParameterError';

const WHOLE_NUMBER = /^\d+$/;
const ID_RANGE = /^(\d+)\s*-\s*(\d+)$/;

/** Trimmed text; an empty required value fails here rather than on the server. */
export function requireText(value: unknown, parameter: string, example: string): string {
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (text === '') {
		throw new ParameterError(parameter, 'is empty', `Enter a value, for example ${example}.`);
	}
	return text;
}

/** A positive whole number given as text or number, returned in the API's text form. */
export function requireId(value: unknown, parameter: string): string {
	const text = requireText(value, parameter, '42');
	if (!WHOLE_NUMBER.test(text) || /^0+$/.test(text)) {
		throw new ParameterError(
			parameter,
			`"${text}" is not an ID`,
			'Use a positive whole number, for example 42.',
		);
	}
	return text.replace(/^0+/, '');
}

/**
 * Ficha IDs as the API takes them: comma-separated IDs and hyphen ranges ("10, 12, 20-25").
 * Returned in canonical form ("10,12,20-25") so the request is never malformed.
 */
export function parseFichaIds(value: unknown, parameter = 'Ficha IDs'): string {
	const fix =
		'Use IDs separated by commas, with hyphen ranges where useful, for example 1200,1203,1210-1220.';
	const text = requireText(value, parameter, '1200,1203,1210-1220');
	return text
		.split(',')
		.map((part) => {
			const token = part.trim();
			if (token === '') {
				throw new ParameterError(parameter, 'contains an empty entry', fix);
			}
			const range = ID_RANGE.exec(token);
			if (range) {
				const [from, to] = [requireId(range[1], parameter), requireId(range[2], parameter)];
				if (BigInt(from) > BigInt(to)) {
					throw new ParameterError(parameter, `range "${token}" ends before it starts`, fix);
				}
				return `${from}-${to}`;
			}
			if (!WHOLE_NUMBER.test(token)) {
				throw new ParameterError(parameter, `"${token}" is neither an ID nor a range`, fix);
			}
			return requireId(token, parameter);
		})
		.join(',');
}
