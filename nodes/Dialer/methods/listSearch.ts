import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import * as batches from '../actions/batch/getMany.operation';
import * as teams from '../actions/team/getMany.operation';
import { rowsOf } from '../../shared/rows';
import { nameCalls } from '../../shared/transport/errors';
import { dialerApiRequest, type ApiEndpoint } from '../../shared/transport/request';

const firstText = (record: IDataObject, keys: string[]) =>
	keys
		.map((key) => record[key])
		.find((value) => value !== undefined && value !== null && String(value) !== '');

/** Lists records for a picker; the API has no search, so the filter applies here. */
async function search(
	context: ILoadOptionsFunctions,
	list: { endpoint: ApiEndpoint; listKey: string },
	title: string,
	filter?: string,
): Promise<INodeListSearchResult> {
	nameCalls(context, title);
	const needle = filter?.trim().toLowerCase() ?? '';
	const results: INodeListSearchItems[] = rowsOf(
		await dialerApiRequest.call(context, list.endpoint, {}),
		list.listKey,
	)
		.map((record) => {
			const id = firstText(record, ['id', 'codigo']);
			const name = firstText(record, ['descricao', 'nome', 'name', 'login']) ?? id;
			return { name: `${String(name)} (${String(id)})`, value: String(id) };
		})
		.filter((item) => item.value !== 'undefined' && item.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

export async function searchBatches(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, batches, 'Loading the batch list', filter);
}

export async function searchTeams(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, teams, 'Loading the team list', filter);
}
