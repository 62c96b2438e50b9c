import { runNode } from '../../support/executeFunctions';

describe('Agent → Log Out', () => {
	it('logs an agent out with user and ip', async () => {
		const { path, form, items } = await runNode({
			parameters: {
				resource: 'agent',
				operation: 'logout',
				agent: ' maria.souza ',
				additionalFields: { ip: '10.0.0.15' },
			},
			responses: [{ body: { status: 'success', message: 'Agente deslogado' } }],
		});
		expect(path).toBe('logout');
		expect(form).toEqual({ user: 'maria.souza', ip: '10.0.0.15' });
		expect(items).toEqual([
			{
				json: {
					success: true,
					agent: 'maria.souza',
					status: 'success',
					message: 'Agente deslogado',
				},
				pairedItem: { item: 0 },
			},
		]);
	});
});
