import fc from 'fast-check';

import { parseFichaIds, requireId, requireText } from '../../nodes/Dialer/helpers/ids';
import { ParameterError } from '../../nodes/Dialer/helpers/ParameterError';

describe('ficha ID lists', () => {
	it.each([
		['1200', '1200'],
		['1200,1203', '1200,1203'],
		[' 1200 , 1203 ,1210 - 1220 ', '1200,1203,1210-1220'],
		['7-7', '7-7'],
		['007', '7'],
	])('sends %p as %p', (input, sent) => {
		expect(parseFichaIds(input)).toBe(sent);
	});

	it.each([
		['', 'is empty'],
		['1,,2', 'empty entry'],
		['1,2,', 'empty entry'],
		['12-3', 'ends before it starts'],
		['abc', 'neither an ID nor a range'],
		['1;2', 'neither an ID nor a range'],
		['-5', 'neither an ID nor a range'],
		['1-2-3', 'neither an ID nor a range'],
		['0', 'not an ID'],
		['3.5', 'neither an ID nor a range'],
	])('rejects %p before sending anything', (input, problem) => {
		expect(() => parseFichaIds(input)).toThrow(ParameterError);
		expect(() => parseFichaIds(input)).toThrow(problem);
	});

	it('either sends a well-formed list or rejects the input (generated inputs)', () => {
		const wellFormed = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
		fc.assert(
			fc.property(
				fc.string({ unit: fc.constantFrom(...'0123456789,- a'.split('')), maxLength: 30 }),
				(input) => {
					let sent: string;
					try {
						sent = parseFichaIds(input);
					} catch (error) {
						expect(error).toBeInstanceOf(ParameterError);
						return;
					}
					expect(sent).toMatch(wellFormed);
					for (const part of sent.split(',')) {
						const [from, to] = part.split('-');
						if (to !== undefined) expect(BigInt(from) <= BigInt(to)).toBe(true);
						expect(from).not.toMatch(/^0/);
					}
				},
			),
			{ numRuns: 2000 },
		);
	});
});

describe('required values', () => {
	it('trims text and rejects blanks with an example', () => {
		expect(requireText('  1001 ', 'Extension', '1001')).toBe('1001');
		expect(() => requireText('   ', 'Extension', '1001')).toThrow('Extension: is empty');
		expect(() => requireText(undefined, 'Extension', '1001')).toThrow(ParameterError);
	});

	it('accepts positive whole-number IDs as text or numbers', () => {
		expect(requireId(7, 'Audio ID')).toBe('7');
		expect(requireId(' 0042 ', 'Audio ID')).toBe('42');
		for (const bad of ['0', '-1', '1.5', 'x7', '']) {
			expect(() => requireId(bad, 'Audio ID')).toThrow(/Audio ID/);
		}
	});
});
