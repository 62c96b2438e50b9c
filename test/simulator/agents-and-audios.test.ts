/** Live agents and calls: the active call of an extension, logout, pauseout and their events; audios. */
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi, startReceiver, type Receiver } from './helpers';

let sim: DialerSimulator;
let bare: DialerSimulator;
let receiver: Receiver;

beforeAll(async () => {
	[sim, bare, receiver] = await Promise.all([
		startSimulator(),
		startSimulator({ envelope: 'bare', idsAsStrings: true }),
		startReceiver(),
	]);
	sim.webhooks.register({ url: receiver.url });
});
afterAll(() => Promise.all([sim?.close(), bare?.close(), receiver?.close()]));

const agentIn = (state: string, withCall?: boolean) =>
	sim.data.agents.find(
		(agent) =>
			agent.estado === state && (withCall === undefined || Boolean(agent.callUid) === withCall),
	)!;

describe('getLigacaoAtivaByRamal', () => {
	it('returns the call in progress with prospect, batch and queue under data', async () => {
		const call = sim.data.activeCalls[0];
		const answer = await callApi(sim, 'getLigacaoAtivaByRamal', { ramal: call.ramal });
		expect(answer.status).toBe(200);
		const data = answer.json().data;
		const prospect = sim.data.prospects[call.prospect];
		expect(data).toMatchObject({
			ddd: call.ddd,
			uid: call.uid,
			numero: call.numero,
			nome: prospect.nome,
			codigo: prospect.codigo,
			cpf: prospect.cpf,
		});
		expect(data.uid.split('-').length).toBeGreaterThanOrEqual(3);
		expect(data.lote).toEqual(expect.any(String));
		expect(data.fila).toEqual(expect.any(String));
		// The remaining prospect fields come along.
		expect(data).toHaveProperty('tel_cel', prospect.tel_cel);
		expect(data).toHaveProperty('cidade', prospect.custom[1]);
	});

	it('answers { data: {} } for a known extension with no call', async () => {
		const idle = sim.data.extensions.find(
			(extension) => !sim.data.activeCalls.some((call) => call.ramal === extension.numero),
		)!;
		const answer = await callApi(sim, 'getLigacaoAtivaByRamal', { ramal: idle.numero });
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({ data: {} });
	});

	it('in bare mode returns the call fields at the top level', async () => {
		const call = bare.data.activeCalls[0];
		const body = (await callApi(bare, 'getLigacaoAtivaByRamal', { ramal: call.ramal })).json();
		expect(body.uid).toBe(call.uid);
	});

	it('refuses an unknown extension with an HTTP 200 error body', async () => {
		expect((await callApi(sim, 'getLigacaoAtivaByRamal', { ramal: '9999' })).json()).toEqual({
			status: 'error',
			message: 'Ramal não encontrado: 9999',
		});
	});

	it.each<Record<string, string>>([{}, { ramal: 'SIP/1001' }])(
		'answers 400 for a missing or non-numeric extension (%o)',
		async (fields) => {
			expect((await callApi(sim, 'getLigacaoAtivaByRamal', fields)).status).toBe(400);
		},
	);
});

describe('logout', () => {
	it('logs an online agent out, answers the new state and pushes agente.logout', async () => {
		const agent = agentIn('online');
		const answer = await callApi(sim, 'logout', { user: agent.login, ip: '10.1.2.3' });
		expect(answer.json()).toEqual({
			status: 'success',
			data: { usuario_id: agent.id, login: agent.login, estado: 'offline' },
		});
		expect(agent.estado).toBe('offline');
		await sim.webhooks.settled();
		const event = receiver.calls.find((call) => call.body.usuario_id === agent.id)!.body;
		expect(event).toEqual({
			estado: 'offline',
			t: expect.any(Number),
			evento: 'agente.logout',
			usuario_id: agent.id,
		});
		expect(Number.isInteger(event.t)).toBe(true);
	});

	it('accepts the numeric id and ends a call in progress', async () => {
		const agent = agentIn('busy');
		const uid = agent.callUid;
		expect((await callApi(sim, 'logout', { user: String(agent.id) })).json().data.estado).toBe(
			'offline',
		);
		expect(sim.data.activeCalls.some((call) => call.uid === uid)).toBe(false);
	});

	it('refuses an agent already logged out with an HTTP 200 error body', async () => {
		const agent = agentIn('offline');
		const answer = await callApi(sim, 'logout', { user: agent.login });
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({
			status: 'error',
			message: `Agente ${agent.login} não está logado`,
		});
	});

	it('refuses an unknown agent with an HTTP 200 error body', async () => {
		expect((await callApi(sim, 'logout', { user: 'fulano' })).json().status).toBe('error');
	});

	it.each([
		['user is missing', { ip: '10.0.0.1' }],
		['ip is not an address', { user: '101', ip: '10.0.0' }],
	])('answers 400 when %s', async (_case, fields) => {
		expect((await callApi(sim, 'logout', fields)).status).toBe(400);
	});

	it('in bare mode answers status and agent fields together, id as a string', async () => {
		const agent = bare.data.agents.find((candidate) => candidate.estado === 'online')!;
		expect((await callApi(bare, 'logout', { user: agent.login })).json()).toEqual({
			status: 'success',
			usuario_id: String(agent.id),
			login: agent.login,
			estado: 'offline',
		});
	});
});

describe('pauseout', () => {
	it('takes a paused agent without a call back online and pushes agente.pause_out', async () => {
		const agent = agentIn('paused', false);
		const answer = await callApi(sim, 'pauseout', { user: agent.login, ip: '192.168.0.10' });
		expect(answer.json()).toEqual({
			status: 'success',
			data: { usuario_id: agent.id, login: agent.login, estado: 'online' },
		});
		expect(agent).toMatchObject({ estado: 'online', pausaId: undefined });
		await sim.webhooks.settled();
		const event = receiver.calls.find((call) => call.body.usuario_id === agent.id)!.body;
		expect(event).toEqual({
			estado: 'online',
			t: expect.any(Number),
			evento: 'agente.pause_out',
			usuario_id: agent.id,
		});
	});

	it('returns an agent paused during a call to busy', async () => {
		const agent = agentIn('paused', true);
		expect((await callApi(sim, 'pauseout', { user: String(agent.id) })).json().data.estado).toBe(
			'busy',
		);
		await sim.webhooks.settled();
		const event = sim.webhooks.deliveries.find(
			(delivery) => delivery.event.usuario_id === agent.id,
		)!.event;
		expect(event).toMatchObject({ evento: 'agente.pause_out', estado: 'busy' });
	});

	it('refuses an agent who is not paused with an HTTP 200 error body and no event', async () => {
		const agent = agentIn('ringing');
		const before = sim.webhooks.deliveries.length;
		const answer = await callApi(sim, 'pauseout', { user: agent.login });
		expect(answer.status).toBe(200);
		expect(answer.json()).toEqual({
			status: 'error',
			message: `Agente ${agent.login} não está em pausa`,
		});
		await sim.webhooks.settled();
		expect(sim.webhooks.deliveries.length).toBe(before);
		expect(agent.estado).toBe('ringing');
	});
});

describe('desativarAudio', () => {
	it('deactivates an active audio and answers { data: { id } }', async () => {
		const audio = sim.data.audios.find((candidate) => candidate.ativo)!;
		const answer = await callApi(sim, 'desativarAudio', { id: String(audio.id) });
		expect(answer.json()).toEqual({ data: { id: audio.id } });
		expect(audio.ativo).toBe(false);
	});

	it('refuses the same audio the second time', async () => {
		const audio = sim.data.audios.find((candidate) => candidate.ativo)!;
		await callApi(sim, 'desativarAudio', { id: String(audio.id) });
		const again = await callApi(sim, 'desativarAudio', { id: String(audio.id) });
		expect(again.status).toBe(200);
		expect(again.json()).toEqual({
			status: 'error',
			message: `Áudio ${audio.id} já está desativado`,
		});
	});

	it('refuses an unknown audio, and answers 400 for a missing or non-numeric id', async () => {
		expect((await callApi(sim, 'desativarAudio', { id: '1' })).json().status).toBe('error');
		expect((await callApi(sim, 'desativarAudio', {})).status).toBe(400);
		expect((await callApi(sim, 'desativarAudio', { id: 'abc' })).status).toBe(400);
	});

	it('in bare mode answers { id } as a string', async () => {
		expect((await callApi(bare, 'desativarAudio', { id: '61' })).json()).toEqual({ id: '61' });
	});
});
