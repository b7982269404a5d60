/** Reading the exchange's rate-limit headers (docs/api.md sections 7.2 and 8.1). */

export type HeaderValue = string | string[] | number | undefined;
export type HeaderMap = Readonly<Record<string, HeaderValue>>;

function header(headers: HeaderMap | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  let v = headers[name];
  if (v === undefined) {
    const lower = name.toLowerCase();
    for (const [k, value] of Object.entries(headers)) {
      if (k.toLowerCase() === lower) {
        v = value;
        break;
      }
    }
  }
  if (Array.isArray(v)) v = v[0];
  return v === undefined ? undefined : String(v).trim();
}

/** Retry-After in milliseconds: delta-seconds (integer or decimal) or an HTTP date. */
export function parseRetryAfterMs(headers: HeaderMap | undefined, now: number): number | undefined {
  const raw = header(headers, 'retry-after');
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw) * 1000);
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

function parseCount(headers: HeaderMap | undefined, name: string): number | undefined {
  const raw = header(headers, name);
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

export function parseRateLimitRemaining(headers: HeaderMap | undefined): number | undefined {
  return parseCount(headers, 'x-ratelimit-remaining');
}

export function parseRateLimitLimit(headers: HeaderMap | undefined): number | undefined {
  return parseCount(headers, 'x-ratelimit-limit');
}
