/** A description that names the API field the parameter is sent as, then says the rest. */
export function sentAs(text: string, apiField: string, rest?: string): string {
	return `${text} (sent as ${apiField})${rest === undefined ? '' : `. ${rest}`}`;
}
