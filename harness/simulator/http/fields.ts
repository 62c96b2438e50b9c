/** Reading and validating the form fields of one request; every failure is a 400. */
import { invalidRequest } from '../errors';
import type { WallClock } from '../time';

export interface DateRange {
	de: number;
	ate: number;
}

export class FieldReader {
	constructor(
		private readonly fields: Record<string, string>,
		private readonly clock: WallClock,
	) {}

	/** Trimmed value; blank counts as absent. */
	optional(name: string): string | undefined {
		const value = this.fields[name]?.trim();
		return value ? value : undefined;
	}

	required(name: string): string {
		const value = this.optional(name);
		if (value === undefined) throw invalidRequest(`Campo obrigatório não informado: ${name}`);
		return value;
	}

	choice<T extends string>(name: string, allowed: readonly T[], required: boolean): T | undefined {
		const value = required ? this.required(name) : this.optional(name);
		if (value === undefined) return undefined;
		if (!allowed.includes(value as T))
			throw invalidRequest(
				`Valor inválido para ${name}: ${value} (aceitos: ${allowed.join(', ')})`,
			);
		return value as T;
	}

	/** Non-negative whole number written with digits only. */
	integer(name: string, required: boolean): number | undefined {
		const value = required ? this.required(name) : this.optional(name);
		if (value === undefined) return undefined;
		if (!/^\d{1,15}$/.test(value))
			throw invalidRequest(`Campo ${name} deve ser numérico: ${value}`);
		return Number(value);
	}

	dateTime(name: string, required: boolean): number | undefined {
		const value = required ? this.required(name) : this.optional(name);
		if (value === undefined) return undefined;
		const instant = this.clock.parseCompactDateTime(value);
		if (instant === undefined)
			throw invalidRequest(`Data inválida em ${name}: ${value} (formato YYYYMMDDhhmmss)`);
		return instant;
	}

	/** `de`/`ate` together; both absent is allowed only when not required. */
	dateRange(required: boolean): DateRange | undefined {
		const de = this.dateTime('de', required || this.optional('ate') !== undefined);
		const ate = this.dateTime('ate', required || de !== undefined);
		if (de === undefined || ate === undefined) return undefined;
		if (ate < de) throw invalidRequest('Período inválido: ate é anterior a de');
		return { de, ate };
	}
}

export const yesNo = ['Y', 'N'] as const;
