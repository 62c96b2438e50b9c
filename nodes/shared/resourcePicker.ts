import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from './itemParameters';

type PickableResource = 'batch' | 'team';

const PICKERS: Record<
	PickableResource,
	{ searchListMethod: string; label: string; idExample: string; nameExample: string }
> = {
	batch: {
		searchListMethod: 'searchBatches',
		label: 'batch',
		idExample: '42',
		nameExample: 'Lote Novembro',
	},
	team: {
		searchListMethod: 'searchTeams',
		label: 'team',
		idExample: '3',
		nameExample: 'Equipe Vendas',
	},
};

/**
 * A batch or team picked from the dialer's list, or given by ID or by name (the API takes
 * either).
 */
export function resourcePicker(
	resource: PickableResource,
	property: Pick<INodeProperties, 'displayName' | 'name' | 'description'> & { required?: boolean },
): INodeProperties {
	const picker = PICKERS[resource];
	return {
		...property,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${picker.label}...`,
				typeOptions: { searchListMethod: picker.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${picker.idExample}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*\\d+\\s*$',
							errorMessage: `A ${picker.label} ID is a whole number`,
						},
					},
				],
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: `e.g. ${picker.nameExample}`,
			},
		],
	};
}

/** The picked value as sent to the API (ID or name), trimmed; empty when nothing was picked. */
export function readPicked(
	this: ItemParameters,
	name: string,
	itemIndex: number,
	fallback = '',
): string {
	const value = this.getNodeParameter(name, itemIndex, fallback, { extractValue: true });
	if (typeof value === 'object' && value !== null) {
		return String((value as IDataObject).value ?? '').trim();
	}
	return String(value ?? '').trim();
}
