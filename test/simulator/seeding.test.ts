/** Seeded data: deterministic per seed and day, dated in the 60 days before the reference day, fast at 100k rows. */
import { startSimulator, type DialerSimulator } from '../../harness/simulator';
import { seedData } from '../../harness/simulator/seed';
import { callApi, lastDays } from './helpers';

const referenceDate = new Date(2026, 10, 21, 15, 30);

describe('determinism', () => {
	it('gives the same data for the same seed, counts and day', () => {
		const options = { seed: 3, fichas: 200, calls: 200, referenceDate };
		expect(seedData(options)).toEqual(seedData(options));
	});

	it('gives other people and history for another seed', () => {
		const one = seedData({ seed: 1, fichas: 50, calls: 50, referenceDate });
		const two = seedData({ seed: 2, fichas: 50, calls: 50, referenceDate });
		expect(two.agents.map((agent) => agent.login)).not.toEqual(
			one.agents.map((agent) => agent.login),
		);
		expect(two.fichas).not.toEqual(one.fichas);
	});
});

describe('content', () => {
	const data = seedData({ seed: 1, fichas: 300, calls: 300, referenceDate });
	const firstDay = new Date(2026, 8, 22).getTime();
	const referenceMidnight = new Date(2026, 10, 21).getTime();

	it('dates fichas, calls and inbound calls between 60 days before and the day before the reference day, in business hours', () => {
		for (const instant of [
			...data.fichas.map((ficha) => ficha.data),
			...data.calls.map((call) => call.horario),
			...data.inboundCalls.map((call) => call.dataHora),
		]) {
			expect(instant).toBeGreaterThanOrEqual(firstDay);
			expect(instant).toBeLessThan(referenceMidnight);
			expect(new Date(instant).getHours()).toBeGreaterThanOrEqual(8);
			expect(new Date(instant).getHours()).toBeLessThan(20);
		}
		expect(data.referenceDay).toBe('2026-11-21');
	});

	it('has every extension type, accented operation names, several forms and valid CPFs', () => {
		expect(new Set(data.extensions.map((extension) => extension.tipo))).toEqual(
			new Set(['RS', 'RP', 'RI', 'RK']),
		);
		expect(data.operations.map((operation) => operation.nome)).toEqual(
			expect.arrayContaining(['Operação Cobrança', 'Operação 1']),
		);
		expect(new Set(data.forms.map((form) => form.questions.length)).size).toBeGreaterThan(1);
		for (const prospect of data.prospects)
			expect(prospect.cpf).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
		expect(new Set(data.agents.map((agent) => agent.login)).size).toBe(data.agents.length);
	});

	it('starts with agents in every state and a call on the extension of each busy agent', () => {
		expect(new Set(data.agents.map((agent) => agent.estado))).toEqual(
			new Set(['online', 'offline', 'paused', 'busy', 'ringing']),
		);
		for (const agent of data.agents.filter((candidate) => candidate.estado === 'busy')) {
			expect(data.activeCalls.find((call) => call.uid === agent.callUid)?.ramal).toBe(agent.ramal);
		}
	});
});

describe('100,000 fichas and 100,000 calls', () => {
	// Generous limits: correctness is asserted here, the times are only printed (machines and parallel suites vary).
	const bigDataTimeoutMs = 30_000;
	let sim: DialerSimulator;
	beforeAll(async () => {
		const started = Date.now();
		sim = await startSimulator({ fichas: 100_000, calls: 100_000 });
		console.log(`seeded and started with 100k fichas and 100k calls in ${Date.now() - started} ms`);
	}, bigDataTimeoutMs);
	afterAll(() => sim?.close());

	it('holds them all, numbered in date order', () => {
		expect(sim.data.fichas).toHaveLength(100_000);
		expect(sim.data.calls).toHaveLength(100_000);
		expect(
			sim.data.fichas.every(
				(ficha, index) =>
					ficha.id === index + 1 && (index === 0 || ficha.data >= sim.data.fichas[index - 1].data),
			),
		).toBe(true);
	});

	it(
		'serves a 60-day getFP1 of one form and a getRQ4 over everything',
		async () => {
			const period = lastDays(60);
			let started = Date.now();
			const fp1 = await callApi(sim, 'getFP1', { ...period, form: '41' });
			const fp1Ms = Date.now() - started;
			const rows = fp1.json().data;
			expect(rows).toHaveLength(sim.data.fichas.filter((ficha) => ficha.formId === 41).length);
			started = Date.now();
			const csv = await callApi(sim, 'getFP1', { ...period, form: '41', formato: 'csv' });
			const csvMs = Date.now() - started;
			expect(csv.text.split('\r\n')).toHaveLength(rows.length + 2);
			started = Date.now();
			const rq4 = (await callApi(sim, 'getRQ4', period)).json().data;
			const rq4Ms = Date.now() - started;
			expect(rq4).toHaveLength(
				sim.data.calls.filter((call) => call.resultado !== undefined).length,
			);
			console.log(
				`getFP1 json ${rows.length} rows (${(fp1.text.length / 1e6).toFixed(1)} MB) in ${fp1Ms} ms, csv in ${csvMs} ms; getRQ4 ${rq4.length} rows in ${rq4Ms} ms`,
			);
		},
		bigDataTimeoutMs,
	);
});
