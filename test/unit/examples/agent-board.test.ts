/**
 * The agent board (examples/agent-board.json): what its "Newest State per Agent" and "Board"
 * nodes make of the rows the live alerts saved, evaluated by n8n-workflow as n8n would.
 */
import type { IDataObject } from 'n8n-workflow';

import { ExampleExpressions } from '../support/exampleExpressions';

const board = new ExampleExpressions('agent-board.json');

/** A saved event of agent `agentId`: its `eventOrder` second, state and event. */
function row(
	agentId: number,
	second: number,
	evento: string,
	state: string,
	extra: IDataObject = {},
) {
	const at = new Date(second * 1000).toISOString();
	return {
		agentId,
		eventOrder: second * 10,
		state,
		lastEvent: `agente.${evento}`,
		lastEventAt: at,
		since: at,
		pauseId: null,
		endsPause: ['pause_in', 'pause_out', 'logout'].includes(evento) ? 1 : 0,
		...extra,
	};
}

function agents(rows: IDataObject[]): IDataObject[] {
	const assignment = (
		board.node('Newest State per Agent').parameters.assignments as {
			assignments: Array<{ value: string }>;
		}
	).assignments[0];
	return board.evaluate('Newest State per Agent', assignment.value, [], {
		'All Agents': rows,
	}) as IDataObject[];
}

const T = 1_796_126_400;

describe('the agent board', () => {
	it('shows an agent who took a call inside a pause as paused, on a call, since the pause began', () => {
		const shown = agents([
			row(7, T, 'pause_in', 'paused', { pauseId: '3' }),
			row(7, T + 20, 'ringing', 'ringing'),
			row(7, T + 21, 'busy', 'busy'),
		]);
		expect(shown).toEqual([
			expect.objectContaining({
				agentId: 7,
				state: 'paused',
				pauseId: '3',
				onCall: true,
				since: new Date(T * 1000).toISOString(),
				lastEvent: 'agente.busy',
			}),
		]);
	});

	it('shows the pause, no longer on a call, once the call inside it ends', () => {
		const [shown] = agents([
			row(7, T, 'pause_in', 'paused', { pauseId: '3' }),
			row(7, T + 21, 'busy', 'busy'),
			row(7, T + 40, 'online', 'online'),
		]);
		expect(shown).toMatchObject({ state: 'paused', onCall: false, pauseId: '3' });
	});

	it('shows a call after the pause ended as a call, whatever order the rows come in', () => {
		const [shown] = agents([
			row(7, T + 50, 'busy', 'busy'),
			row(7, T + 30, 'pause_out', 'online'),
			row(7, T, 'pause_in', 'paused', { pauseId: '3' }),
		]);
		expect(shown).toMatchObject({ state: 'busy', onCall: false, lastEvent: 'agente.busy' });
	});
});
