import { runNode } from '../../support/executeFunctions';

describe('Audio → Deactivate', () => {
	it('deactivates an audio by ID', async () => {
		const { path, form, items } = await runNode({
			parameters: { resource: 'audio', operation: 'deactivate', audioId: '7' },
			responses: [{ body: { data: { id: 7 } } }],
		});
		expect(path).toBe('desativarAudio');
		expect(form).toEqual({ id: '7' });
		expect(items[0].json).toEqual({ success: true, id: 7 });
	});
});
