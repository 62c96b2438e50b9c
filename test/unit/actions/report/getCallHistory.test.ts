import { customPeriod, runNode } from '../../support/executeFunctions';

describe('Report → Get Call History', () => {
	it('returns call history one item per call, each carrying the extension and range', async () => {
		const chamadas = [
			{
				horario: '2026-11-21 10:00:00',
				tipo: 'Gerada',
				numero: '(11) 9999-0000',
				duracao_segundos: 30,
				duracao: '00:00:30',
				desligada_por: '1',
				protocolo: 'P1',
			},
			{
				horario: '2026-11-21 11:00:00',
				tipo: 'Recebida',
				numero: '(11) 9999-0001',
				duracao_segundos: 60,
				duracao: '00:01:00',
				desligada_por: '2',
				protocolo: 'P2',
			},
		];
		const { path, form, items } = await runNode({
			parameters: {
				resource: 'report',
				operation: 'getCallHistory',
				entityType: 'RS',
				extensionOrAgent: '1001',
				...customPeriod,
				returnAll: true,
				filters: { direction: 'G' },
			},
			responses: [
				{
					body: {
						data: {
							ramal_agente: 'SIP/1001',
							de: '01/11/2026 00:00',
							ate: '21/11/2026 23:59',
							total: 2,
							chamadas,
						},
					},
				},
			],
		});
		expect(path).toBe('getHC2');
		expect(form).toEqual({
			tipo_entidade: 'RS',
			ramal_agente: '1001',
			de: '20261101000000',
			ate: '20261121235959',
			tipo: 'G',
		});
		expect(items.map((item) => item.json)).toEqual(
			chamadas.map((call) => ({
				...call,
				ramal_agente: 'SIP/1001',
				de: '01/11/2026 00:00',
				ate: '21/11/2026 23:59',
			})),
		);
	});

	it('leaves out an empty direction so both directions come back', async () => {
		const { form } = await runNode({
			parameters: {
				resource: 'report',
				operation: 'getCallHistory',
				entityType: 'A',
				extensionOrAgent: 'maria',
				...customPeriod,
				returnAll: true,
				filters: { direction: '' },
			},
			responses: [{ body: { data: { chamadas: [] } } }],
		});
		expect(form).not.toHaveProperty('tipo');
	});
});
