import { Receipts } from '../../../nodes/DialerTrigger/receipts';

describe('receipts: the deliveries a trigger took, numbered', () => {
	it('numbers 1, 2, 3… per trigger, each under a name of its own', () => {
		const receipts = new Receipts();
		const alerts = [1, 2, 3].map(() => receipts.next('workflow 1, Agent Events'));
		const board = receipts.next('workflow 2, Agent Events');
		expect(alerts.map(({ receiptNumber }) => receiptNumber)).toEqual([1, 2, 3]);
		expect(new Set(alerts.map(({ receivedBy }) => receivedBy)).size).toBe(1);
		expect(board.receiptNumber).toBe(1);
		expect(board.receivedBy).not.toBe(alerts[0].receivedBy);
	});

	it('counts under another name after a restart (another process)', () => {
		const before = new Receipts().next('workflow 1, Agent Events');
		const after = new Receipts().next('workflow 1, Agent Events');
		expect(after.receiptNumber).toBe(1);
		expect(after.receivedBy).not.toBe(before.receivedBy);
		expect(after.receivedBy).toMatch(/^[0-9a-f]{12}$/);
	});
});
