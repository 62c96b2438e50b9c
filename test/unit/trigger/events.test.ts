import {
	AGENT_EVENTS,
	checkPayload,
	isKnownEventCode,
	parseAgentIds,
} from '../../../nodes/DialerTrigger/events';

const valid = { estado: 'online', t: 1763800000, evento: 'agente.login', usuario_id: 42 };

describe('the event list users pick from', () => {
	it('offers exactly the seven evento codes of the dialer, each with a name and description', () => {
		expect(AGENT_EVENTS.map((event) => event.value)).toEqual([
			'agente.login',
			'agente.logout',
			'agente.pause_in',
			'agente.pause_out',
			'agente.busy',
			'agente.ringing',
			'agente.online',
		]);
		for (const event of AGENT_EVENTS) {
			expect(event.name).not.toBe('');
			expect(event.description).not.toBe('');
		}
	});

	it('knows the catalogue codes and nothing else', () => {
		expect(isKnownEventCode('agente.pause_in')).toBe(true);
		expect(isKnownEventCode('agente.transfer')).toBe(false);
		expect(isKnownEventCode('AGENTE.LOGIN')).toBe(false);
	});
});

describe('a delivery is a dialer agent event only when', () => {
	it('accepts the four required fields with the contract types, and keeps any extra fields', () => {
		const body = {
			...valid,
			evento: 'agente.pause_in',
			pausa_id: 7,
			udate: 1763799700,
			extra: 'x',
		};
		expect(checkPayload(body)).toEqual({ valid: true, payload: body });
	});

	it('accepts an evento it does not know (it is ignored later, not rejected)', () => {
		expect(checkPayload({ ...valid, evento: 'agente.transfer' }).valid).toBe(true);
	});

	it.each([
		['null', null],
		['undefined (empty body)', undefined],
		['an array', [valid]],
		['a string (not JSON)', 'evento=agente.login'],
		['a number', 42],
	])('rejects a body that is %s', (_label, body) => {
		expect(checkPayload(body)).toEqual({ valid: false, reason: 'body must be a JSON object' });
	});

	it.each([
		['evento', 'missing', undefined],
		['evento', 'a number', 5],
		['evento', 'empty', ''],
		['evento', 'blank', '  '],
		['estado', 'missing', undefined],
		['estado', 'a number', 1],
		['estado', 'empty', ''],
		['t', 'missing', undefined],
		['t', 'words', 'yesterday'],
		['t', 'digits with a letter', '1763800000s'],
		['t', 'an exponent', '1.7638e9'],
		['t', 'a fraction', 1763800000.5],
		['t', 'a fraction as text', '1763800000.5'],
		['t', 'true', true],
		['t', 'negative', -1],
		['t', 'null', null],
		['usuario_id', 'missing', undefined],
		['usuario_id', 'a login', 'ana.souza'],
		['usuario_id', 'digits with a space inside', '4 2'],
		['usuario_id', 'a fraction', 4.2],
		['usuario_id', 'negative', -42],
		['usuario_id', 'negative as text', '-42'],
		['usuario_id', 'an object', { id: 42 }],
	])('rejects %s when it is %s, naming the field', (field, _label, value) => {
		const body: Record<string, unknown> = { ...valid, [field]: value };
		if (value === undefined) delete body[field];
		const result = checkPayload(body);
		expect(result.valid).toBe(false);
		expect(!result.valid && result.reason).toContain(`"${field}"`);
	});
});

describe('numbers the dialer sends as text', () => {
	const pause = { ...valid, estado: 'paused', evento: 'agente.pause_in' };

	it('reads t and usuario_id sent as digits (spaces around them too) as numbers', () => {
		expect(checkPayload({ ...valid, t: ' 1763800000 ', usuario_id: '42' })).toEqual({
			valid: true,
			payload: valid,
		});
	});

	it('reads the pause start and limits sent as text as numbers, negative and zero limits too', () => {
		const check = checkPayload({
			...pause,
			pausa_id: '7',
			udate: '1763799700',
			durmax: '900',
			durmin: '-1',
		});
		expect(check).toEqual({
			valid: true,
			payload: { ...pause, pausa_id: 7, udate: 1763799700, durmax: 900, durmin: -1 },
		});
	});

	it('reads the call start of a busy agent sent as text as a number', () => {
		const busy = { ...valid, estado: 'busy', evento: 'agente.busy', udate: ' 1763799700' };
		expect(checkPayload(busy)).toEqual({
			valid: true,
			payload: { ...busy, udate: 1763799700 },
		});
	});

	it.each([
		['a name', 'almoço'],
		['digits with a leading zero', '007'],
		['a number', 7],
	])('keeps a pause ID that is %s as sent (the contract gives it no type)', (_label, id) => {
		const check = checkPayload({ ...pause, pausa_id: id });
		expect(check.valid && check.payload.pausa_id).toBe(id);
	});

	it.each([null, '', '  '])('leaves the optional pause fields alone when they are %j', (value) => {
		const body = { ...pause, udate: value, durmax: value, durmin: value };
		expect(checkPayload(body)).toEqual({ valid: true, payload: body });
	});

	it.each([
		['udate', 'agente.pause_in', 'soon', 'a Unix time in whole seconds'],
		['udate', 'agente.pause_in', '1763799700.5', 'a Unix time in whole seconds'],
		['udate', 'agente.busy', -5, 'a Unix time in whole seconds'],
		// Past year 5138 even in milliseconds: no time at all.
		['udate', 'agente.busy', '999999999999999', 'a Unix time in whole seconds'],
		['durmax', 'agente.pause_in', '15 min', 'seconds'],
		['durmin', 'agente.pause_in', { s: 60 }, 'seconds'],
	])('refuses %s of %s when it is %j, naming the field', (field, evento, value, meaning) => {
		expect(checkPayload({ ...valid, evento, [field]: value })).toEqual({
			valid: false,
			reason: `"${field}" must be ${meaning} (a number or digits)`,
		});
	});

	it.each([
		['t', 'agente.login', 1_764_612_345_678],
		['t', 'agente.login', '1764612345678'],
		['udate', 'agente.pause_in', 1_764_612_345_000],
		['udate', 'agente.busy', '1764612345000'],
	])(
		'refuses %s of %s sent in milliseconds (%j), saying the dialer must send seconds',
		(field, evento, value) => {
			expect(checkPayload({ ...valid, evento, [field]: value })).toEqual({
				valid: false,
				reason: `"${field}" is ${Number(value)}, which reads as Unix milliseconds: the dialer must send Unix seconds (10 digits)`,
			});
		},
	);

	it('takes every time up to year 5138 as seconds, and a later one as not a time', () => {
		expect(checkPayload({ ...valid, t: 99_999_999_999 }).valid).toBe(true);
		expect(checkPayload({ ...valid, t: '999999999999999' })).toEqual({
			valid: false,
			reason: '"t" must be a Unix time in whole seconds (a number or digits)',
		});
	});

	it('passes fields the contract does not define for the event through as sent', () => {
		const login = { ...valid, udate: 'soon', durmax: '900', pausa_id: '7' };
		expect(checkPayload(login)).toEqual({ valid: true, payload: login });
	});
});

describe('the Agent IDs option', () => {
	it.each(['', '   ', ' , '])('means every agent when empty (%j)', (text) => {
		expect(parseAgentIds(text)).toBeUndefined();
	});

	it('reads comma-separated IDs with any spacing', () => {
		expect(parseAgentIds('12')).toEqual(new Set([12]));
		expect(parseAgentIds(' 12,34 ,  56, ')).toEqual(new Set([12, 34, 56]));
	});

	it.each(['abc', '12.5', '-3', '1e3', '12 34', '99999999999999999999'])(
		'refuses %j and names the entry',
		(entry) => {
			expect(() => parseAgentIds(`1, ${entry}`)).toThrow(`"${entry}" is not an agent ID`);
		},
	);
});
