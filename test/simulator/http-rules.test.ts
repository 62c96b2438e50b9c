/** What a client sees at the HTTP level: token forms, unknown paths, wrong method or body type, recording. */
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi, send } from './helpers';

let sim: DialerSimulator;

beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(() => sim?.close());

describe('the token in Authorization', () => {
	it.each([
		['the bare token', 'sim-token-0123456789'],
		['Bearer <token>', 'Bearer sim-token-0123456789'],
		['Basic <token>', 'Basic sim-token-0123456789'],
		['a lower-case scheme', 'bearer sim-token-0123456789'],
	])('is accepted as %s', async (_form, authorization) => {
		const answer = await callApi(sim, 'getTime', {}, { authorization });
		expect(answer.status).toBe(200);
		expect(answer.json().data.times.length).toBeGreaterThan(0);
	});

	it.each([
		['no header', null],
		['an empty header', ''],
		['a wrong token', 'wrong-token'],
		['Bearer with a wrong token', 'Bearer wrong-token'],
		['another scheme', 'Token sim-token-0123456789'],
		[
			'Basic with the token base64-encoded',
			`Basic ${Buffer.from('sim-token-0123456789').toString('base64')}`,
		],
		['the token with a suffix', 'sim-token-0123456789x'],
	])('is refused with 401 and a JSON error for %s', async (_case, authorization) => {
		const answer = await callApi(sim, 'getTime', {}, { authorization });
		expect(answer.status).toBe(401);
		expect(answer.contentType).toMatch(/^application\/json/);
		expect(answer.json()).toEqual({ status: 'error', message: expect.any(String) });
		expect(answer.text).not.toContain('sim-token');
	});
});

describe('paths, methods and body types', () => {
	it('answers an unknown operation with a 404 HTML page', async () => {
		const answer = await callApi(sim, 'getNothing');
		expect(answer.status).toBe(404);
		expect(answer.contentType).toMatch(/^text\/html/);
		expect(answer.text).toContain('<h1>Not Found</h1>');
	});

	it('answers a wrong first path segment with a 404 HTML page', async () => {
		const answer = await send(`${sim.baseUrl}/service/api/getTime`, sim.token);
		expect(answer.status).toBe(404);
		expect(answer.contentType).toMatch(/^text\/html/);
	});

	it('answers GET with 405 and Allow: POST', async () => {
		const answer = await callApi(sim, 'getTime', {}, { method: 'GET' });
		expect(answer.status).toBe(405);
		expect(answer.headers.allow).toBe('POST');
		expect(answer.json().status).toBe('error');
	});

	it.each(['application/json', 'multipart/form-data; boundary=x', 'text/plain'])(
		'answers a %s body with 415',
		async (contentType) => {
			const answer = await callApi(sim, 'getTime', {}, { contentType, body: '{}' });
			expect(answer.status).toBe(415);
			expect(answer.json().status).toBe('error');
		},
	);

	it('accepts the form content type with a charset parameter', async () => {
		const answer = await callApi(
			sim,
			'getTime',
			{},
			{ contentType: 'application/x-www-form-urlencoded; charset=UTF-8' },
		);
		expect(answer.status).toBe(200);
	});

	it('checks the token before the body type', async () => {
		const answer = await callApi(
			sim,
			'getTime',
			{},
			{ authorization: null, contentType: 'application/json' },
		);
		expect(answer.status).toBe(401);
	});
});

describe('request recording', () => {
	it('keeps method, path, raw headers, content type, decoded fields and status', async () => {
		sim.clearRequests();
		await callApi(
			sim,
			'criarFilaAtiva',
			{ descricao: 'Gravação', operacao: 'Operação 1' },
			{ authorization: 'Bearer sim-token-0123456789' },
		);
		await callApi(sim, 'getNothing');
		expect(sim.requests).toHaveLength(2);
		const [create, unknown] = sim.requests;
		expect(create).toMatchObject({
			operation: 'criarFilaAtiva',
			method: 'POST',
			path: '/ipbox/api/criarFilaAtiva',
			contentType: 'application/x-www-form-urlencoded',
			fields: { descricao: 'Gravação', operacao: 'Operação 1' },
			status: 400,
		});
		expect(create.headers.authorization).toBe('Bearer sim-token-0123456789');
		expect(create.receivedAt).toBeLessThanOrEqual(Date.now());
		expect(unknown).toMatchObject({ operation: '', status: 404 });
	});
});

describe('a simulator with its own path segment and token', () => {
	let custom: DialerSimulator;
	beforeAll(async () => {
		custom = await startSimulator({ pathSegment: 'callcenter', token: 'other-token' });
	});
	afterAll(() => custom?.close());

	it('serves under that segment and accepts only that token', async () => {
		expect(custom.apiUrl).toBe(`${custom.baseUrl}/callcenter/api`);
		expect((await callApi(custom, 'getTime')).status).toBe(200);
		expect((await callApi(custom, 'getTime', {}, { authorization: sim.token })).status).toBe(401);
		expect((await send(`${custom.baseUrl}/ipbox/api/getTime`, custom.token)).status).toBe(404);
	});

	it('refuses to listen anywhere but loopback', async () => {
		await expect(startSimulator({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
	});
});
