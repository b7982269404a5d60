import { errorInfo } from '../../shared/api/errors.js';

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
