/** Stable keys the store derives from what it is given: dedup keys and parameter hashes. */
import { createHash } from 'node:crypto';
import type { Settlement } from '../../shared/api/schemas.js';

/**
 * JSON with object keys sorted at every level, so equal parameters hash equally whatever order
 * their keys were built in. `undefined` members are dropped, as JSON.stringify drops them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The identity of a settlement row: the exchange gives none, and GET /settlements is re-read page
 * by page, so the same row arrives many times. type|contractId|outcome|contracts|tx|time (in ms,
 * so two spellings of one instant agree) names one finished bet; 128 bits of SHA-256 of it make
 * a collision between two real rows practically impossible while keeping the index small.
 */
export function settlementKey(s: Settlement, timestampMs: number): Buffer {
  const text = `${s.type}|${s.contractId}|${s.outcome}|${s.contracts}|${s.tx}|${timestampMs}`;
  return createHash('sha256').update(text).digest().subarray(0, 16);
}
