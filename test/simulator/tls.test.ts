/** HTTPS mode: a self-signed certificate for 127.0.0.1/localhost, generated at start. */
import { Agent } from 'undici';
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { callApi } from './helpers';

let sim: DialerSimulator;
const dispatchers: Agent[] = [];

beforeAll(async () => {
	sim = await startSimulator({ tls: true });
});
afterAll(() => Promise.all([sim?.close(), ...dispatchers.map((dispatcher) => dispatcher.close())]));

function agent(connect: { rejectUnauthorized?: boolean; ca?: string }) {
	const dispatcher = new Agent({ connect });
	dispatchers.push(dispatcher);
	return dispatcher;
}

it('serves the API over https', () => {
	expect(sim.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
	expect(sim.certificate).toContain('BEGIN CERTIFICATE');
});

it('is refused by a client that verifies certificates against the public CAs', async () => {
	await expect(callApi(sim, 'getTime')).rejects.toThrow();
});

it('answers a client that ignores TLS errors', async () => {
	const answer = await callApi(
		sim,
		'getTime',
		{},
		{ dispatcher: agent({ rejectUnauthorized: false }) },
	);
	expect(answer.status).toBe(200);
});

it('presents a certificate valid for 127.0.0.1 to a client that trusts it', async () => {
	const answer = await callApi(sim, 'getTime', {}, { dispatcher: agent({ ca: sim.certificate }) });
	expect(answer.status).toBe(200);
});
