import { recordOf, rowsOf } from '../../../nodes/shared/rows';

describe('the rows of an answer', () => {
	it('takes a bare list as the rows, leaving out entries that are not records', () => {
		expect(rowsOf([{ id: 1 }, 'x', null, [2], { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
	});

	it('takes a list of names or IDs only as one row holding each', () => {
		expect(rowsOf(['Vendas', 7, '', null])).toEqual([{ value: 'Vendas' }, { value: 7 }]);
	});

	it('takes the list under the named key, even when the answer has other lists', () => {
		const answer = { lotes: [{ id: 1 }], filas: [{ id: 9 }] };
		expect(rowsOf(answer, 'lotes')).toEqual([{ id: 1 }]);
	});

	it('takes the only list of an object when the named key is not there', () => {
		expect(rowsOf({ total: 2, resultado: [{ a: 1 }, { a: 2 }] }, 'lotes')).toEqual([
			{ a: 1 },
			{ a: 2 },
		]);
	});

	it('reads an object with several lists and no named key as one row', () => {
		const answer = { a: [1], b: [2] };
		expect(rowsOf(answer)).toEqual([answer]);
	});

	it.each([undefined, null, '', false, {}])('reads an empty answer (%j) as no rows', (answer) => {
		expect(rowsOf(answer)).toEqual([]);
	});

	it('reads a count without its list ({"total":0} from an empty team list) as no rows', () => {
		expect(rowsOf({ total: 0 }, 'times')).toEqual([]);
		expect(rowsOf({ total: '0' })).toEqual([]);
		expect(rowsOf({ total: 3, nome: 'Vendas' }, 'times')).toEqual([{ total: 3, nome: 'Vendas' }]);
	});

	it('reads a single record as one row, and a bare value as one row holding it', () => {
		expect(rowsOf({ id: 7, nome: 'Ana' })).toEqual([{ id: 7, nome: 'Ana' }]);
		expect(rowsOf(42)).toEqual([{ value: 42 }]);
		expect(rowsOf('ok')).toEqual([{ value: 'ok' }]);
	});
});

describe('the record of an answer', () => {
	it('takes an object as it is', () => {
		expect(recordOf({ id: 88 })).toEqual({ id: 88 });
	});

	it.each([undefined, null, '', []])('reads an empty answer (%j) as an empty record', (answer) => {
		expect(recordOf(answer)).toEqual({});
	});

	it('takes the one record of a one-element list', () => {
		expect(recordOf([{ id: 3 }])).toEqual({ id: 3 });
	});

	it('keeps anything else under result', () => {
		expect(recordOf([{ id: 1 }, { id: 2 }])).toEqual({ result: [{ id: 1 }, { id: 2 }] });
		expect(recordOf(['a'])).toEqual({ result: ['a'] });
		expect(recordOf('done')).toEqual({ result: 'done' });
	});
});
