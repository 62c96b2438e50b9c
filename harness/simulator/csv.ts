/** CSV as the product family exports it: `;` separated, UTF-8 with a byte order mark, CRLF lines. */

const needsQuotes = /[;"\r\n]/;

function cell(value: string): string {
	return needsQuotes.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(header: string[], rows: string[][]): string {
	const lines = [header, ...rows].map((values) => values.map(cell).join(';'));
	return `\uFEFF${lines.join('\r\n')}\r\n`;
}
