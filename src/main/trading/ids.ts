/** clientOrderIds made here: unique without coordination, within the API's charset and length. */
import { randomBytes } from 'node:crypto';

/** "bd-" + time in base 36 + 48 random bits, e.g. "bd-m5x2k9qa-3f9c0a12b7de" (24 characters). */
export function newClientOrderId(now: () => number = Date.now): string {
  return `bd-${now().toString(36)}-${randomBytes(6).toString('hex')}`;
}

/**
 * The same value with object keys sorted at every level. Requests are built this way so that
 * the body sent first and the body resent after a restart (read back from the intent, which the
 * store keeps as sorted JSON) are the same bytes.
 */
export function sortedKeys<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }),
  ) as T;
}
