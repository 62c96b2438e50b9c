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
		['t', 'a string', '1763800000'],
		['t', 'a fraction', 1763800000.5],
		['t', 'negative', -1],
		['t', 'null', null],
		['usuario_id', 'missing', undefined],
		['usuario_id', 'a string', '42'],
		['usuario_id', 'a fraction', 4.2],
		['usuario_id', 'negative', -42],
		['usuario_id', 'an object', { id: 42 }],
	])('rejects %s when it is %s, naming the field', (field, _label, value) => {
		const body: Record<string, unknown> = { ...valid, [field]: value };
		if (value === undefined) delete body[field];
		const result = checkPayload(body);
		expect(result.valid).toBe(false);
		expect(!result.valid && result.reason).toContain(`"${field}"`);
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
