/** Command-line flags shared by the benchmark's scripts. */

/** The value after `flag`, if given. */
export function flagValue(argv: string[], flag: string): string | undefined {
	const index = argv.indexOf(flag);
	return index >= 0 ? argv[index + 1] : undefined;
}

/** n8n settings from `--env NAME=VALUE` (repeatable; the value may contain `=`). */
export function envFlags(argv: string[]): Record<string, string> {
	const env: Record<string, string> = {};
	argv.forEach((arg, index) => {
		if (arg !== '--env') return;
		const [name, ...rest] = argv[index + 1].split('=');
		env[name] = rest.join('=');
	});
	return env;
}
