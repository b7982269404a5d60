/**
 * Injected faults (POST /sandbox/faults): the next `count` requests to a route ("METHOD /path")
 * get the fault. A fault applies once a request has passed authentication, rate limits and
 * validation, i.e. where the real service would call its upstreams, and each such request uses
 * up one of the count.
 */
import { ErrorCodes, errorInfo } from '../../shared/api/errors.js';
import { ApiError } from '../domain/errors.js';

export const FAULT_MODES = ['latency', 'error', 'drop', 'revert', 'congested'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface Fault {
  route: string;
  mode: FaultMode;
  count: number;
  /** latency: how long to hold the answer. */
  ms?: number;
  /** error: the code to answer with. */
  code?: number;
}

/** What one request gets from the fault table. */
export interface ArmedFault {
  mode: FaultMode;
  ms: number;
  code: number;
}

/** Routes where a placed order exists, so revert and congested make sense. */
const ORDER_ROUTE = 'POST /order';

export class FaultTable {
  private readonly faults = new Map<string, Fault>();

  /** Replaces the fault on `fault.route`. Throws -1102 for a fault that cannot apply. */
  set(fault: Fault, knownRoutes: ReadonlySet<string>): void {
    if (!knownRoutes.has(fault.route)) {
      throw new ApiError(
        ErrorCodes.BAD_PARAMETER,
        `route: must be "METHOD /path" of a public endpoint, one of ${[...knownRoutes].join(', ')}`,
      );
    }
    if ((fault.mode === 'revert' || fault.mode === 'congested') && fault.route !== ORDER_ROUTE) {
      throw new ApiError(
        ErrorCodes.BAD_PARAMETER,
        `mode: ${fault.mode} applies only to ${ORDER_ROUTE}`,
      );
    }
    if (fault.mode === 'latency' && fault.ms === undefined) {
      throw new ApiError(ErrorCodes.BAD_PARAMETER, 'ms: is required for mode latency');
    }
    if (fault.mode === 'error') {
      if (fault.code === undefined) {
        throw new ApiError(ErrorCodes.BAD_PARAMETER, 'code: is required for mode error');
      }
      if (errorInfo(fault.code).name === 'UNKNOWN') {
        throw new ApiError(
          ErrorCodes.BAD_PARAMETER,
          `code: ${fault.code} is not an error code of the API`,
        );
      }
    }
    this.faults.set(fault.route, { ...fault });
  }

  clear(): void {
    this.faults.clear();
  }

  get empty(): boolean {
    return this.faults.size === 0;
  }

  /** Takes one use of the fault on `route`, if there is one. */
  take(route: string): ArmedFault | undefined {
    const f = this.faults.get(route);
    if (!f) return undefined;
    f.count -= 1;
    if (f.count <= 0) this.faults.delete(route);
    return { mode: f.mode, ms: f.ms ?? 0, code: f.code ?? ErrorCodes.INTERNAL };
  }
}

/** The answer of an `error` fault: the code with its HTTP status (and Retry-After for -1003). */
export function faultError(code: number): ApiError {
  const info = errorInfo(code);
  const headers: Record<string, string> =
    code === ErrorCodes.TOO_MANY_REQUESTS ? { 'retry-after': '1' } : {};
  return new ApiError(code, `Injected fault: ${info.meaning}`, { headers });
}
