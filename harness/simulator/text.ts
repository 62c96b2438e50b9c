/** Text helpers shared by seeding and report output. */

export function stripAccents(text: string): string {
	return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/**
 * getFP1 key normalisation: accents transliterated, lower case, every run of other
 * characters turned into one `_`, no leading or trailing `_` ("Valor (R$)" -> "valor_r").
 */
export function toSnakeKey(label: string): string {
	return stripAccents(label)
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '');
}

/** Case-insensitive comparison of names the way a database collation would match them. */
export function sameName(a: string, b: string): boolean {
	return a.trim().toLocaleLowerCase('pt-BR') === b.trim().toLocaleLowerCase('pt-BR');
}

/** `(11) 98765-4321` or `(11) 3456-7890` */
export function formatPhone(ddd: string, number: string): string {
	const split = number.length - 4;
	return `(${ddd}) ${number.slice(0, split)}-${number.slice(split)}`;
}
