/**
 * A request the dialer turns down. Two conventions exist on real servers and both are
 * reproduced: malformed input is an HTTP 4xx, business refusals are HTTP 200 whose body
 * says `"status":"error"`.
 */
export class ApiError extends Error {
	constructor(
		readonly httpStatus: number,
		message: string,
	) {
		super(message);
	}
}

/** Malformed request: missing field, bad date, value outside an enumeration. */
export const invalidRequest = (message: string) => new ApiError(400, message);

/** Well-formed request the dialer refuses: unknown entity, wrong state, not permitted. */
export const refusal = (message: string) => new ApiError(200, message);
