/** The refusals the domain throws: ApiError, and makers for the common ones (-1102, a bad leg). */
import { ErrorCodes, errorInfo } from '../../shared/api/errors.js';
import { apiMessage, type LegProblem } from '../../shared/api/leg.js';

/**
 * An error the exchange answers with `{code, msg}`. The HTTP status defaults to the one the
 * error table gives the code; a few codes have two statuses (-1003: 429 or 503).
 */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: number,
    msg: string,
    opts: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.status = opts.status ?? errorInfo(code).status;
    this.headers = opts.headers ?? {};
  }

  toBody(): { code: number; msg: string } {
    return { code: this.code, msg: this.message };
  }
}

/** A -1102 refusal: a field is missing or malformed. `msg` starts with the field's name. */
export function badParameter(msg: string): ApiError {
  return new ApiError(ErrorCodes.BAD_PARAMETER, msg);
}

/** The refusal of a leg the shared parser found wrong, in the API's words (-1102 or -2026). */
export function legRefusal(problem: LegProblem): ApiError {
  return new ApiError(problem.code, apiMessage(problem));
}
