/** Optional "id or name" filters of the report operations. */
import type { FieldReader } from '../http/fields';
import type { SeededData } from '../model';

type Finder = (data: SeededData, reference: string) => { id: number };

/** Id of the referenced entity, or undefined when the filter was not sent (unknown references are refused by the finder). */
export function filterId(
	fields: FieldReader,
	data: SeededData,
	name: string,
	find: Finder,
): number | undefined {
	const reference = fields.optional(name);
	return reference === undefined ? undefined : find(data, reference).id;
}

/** True when the filter is absent or matches. */
export const passes = (wanted: number | undefined, actual: number | undefined) =>
	wanted === undefined || wanted === actual;
