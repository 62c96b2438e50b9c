import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from './itemParameters';
import { readPicked, resourcePicker } from './resourcePicker';
import { sentAs } from './sentAs';

/** A filter of a list: its parameter, and the API field it is sent as. */
export interface Filter {
	apiField: string;
	/** The parameter, without its description: each operation describes what it filters. */
	property: Omit<INodeProperties, 'description'>;
}

/** Filters the API takes by ID or name, offered by several lists and reports. */
export const sharedFilters = {
	operation: {
		apiField: 'operacao',
		property: {
			displayName: 'Operation (ID or Name)',
			name: 'operation',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2 or Operação Cobrança',
		},
	},
	queue: {
		apiField: 'fila',
		property: {
			displayName: 'Queue (ID or Name)',
			name: 'queue',
			type: 'string',
			default: '',
			placeholder: 'e.g. 12 or Fila Ativa Cobrança',
		},
	},
	batch: {
		apiField: 'lote',
		property: resourcePicker('batch', { displayName: 'Batch', name: 'batch' }),
	},
	team: {
		apiField: 'time',
		property: resourcePicker('team', { displayName: 'Team', name: 'team' }),
	},
	agent: {
		apiField: 'agente',
		property: {
			displayName: 'Agent (ID or Login)',
			name: 'agent',
			type: 'string',
			default: '',
			placeholder: 'e.g. 101 or maria.souza',
		},
	},
} satisfies Record<string, Filter>;

/** A filter as one operation offers it: what it keeps, and what else to say after the field. */
export type FilterOffer = [filter: Filter, keeps: string, rest?: string];

/** The Filters collection of an operation, and the reading of it into API fields. */
export interface OfferedFilters {
	property: INodeProperties;
	/** The filters set on this item as API fields; filters left empty are not sent. */
	read(context: ItemParameters, itemIndex: number): Record<string, string>;
}

export function offerFilters(
	offers: FilterOffer[],
	collection: Pick<INodeProperties, 'description'> = {},
): OfferedFilters {
	return {
		property: {
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			...collection,
			options: offers.map(([filter, keeps, rest]) => ({
				...filter.property,
				description: sentAs(keeps, filter.apiField, rest),
			})),
		},
		read(context, itemIndex) {
			const set = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
			const fields: Record<string, string> = {};
			for (const [{ apiField, property }] of offers) {
				if (!(property.name in set)) continue;
				const value = readPicked.call(context, `filters.${property.name}`, itemIndex);
				if (value !== '') fields[apiField] = value;
			}
			return fields;
		},
	};
}
