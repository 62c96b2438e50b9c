import { runNode } from '../../support/executeFunctions';

describe('Agent → End Pause', () => {
	it('ends a pause through pauseout, without ip when none is given', async () => {
		const { path, form } = await runNode({
			parameters: { resource: 'agent', operation: 'endPause', agent: '101', additionalFields: {} },
		});
		expect(path).toBe('pauseout');
		expect(form).toEqual({ user: '101' });
	});
});
