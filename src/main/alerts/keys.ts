/**
 * Dedup keys of knockout alerts. The alerts table stores one row per key and account, so an
 * alert found twice (two polls, two paths, a restart) is stored and emitted once.
 *
 *   near|C|O|K|L|n          level L of position C/O with knockout K, the n-th time it fired
 *   knocked_out|C|O|s:T     a KNOCKED_OUT settlement row at exchange time T (ms)
 *   knocked_out|C|O|p:U:N   N contracts knocked out of a position still open, updated at U
 *   knocked_out|C|O|v:U:N   a position last updated at U vanished, N contracts, no row for it
 */
export function nearKey(
  contractId: string,
  outcome: string,
  knockout: string,
  level: string,
  n: number,
): string {
  return `near|${contractId}|${outcome}|${knockout}|${level}|${n}`;
}

export function nearPrefix(contractId: string, outcome: string, knockout: string): string {
  return `near|${contractId}|${outcome}|${knockout}|`;
}

export type KnockedOutKind = 's' | 'p' | 'v';

export function knockedOutKey(
  contractId: string,
  outcome: string,
  kind: KnockedOutKind,
  at: number,
  contracts?: number,
): string {
  const tail = kind === 's' ? `s:${at}` : `${kind}:${at}:${contracts ?? 0}`;
  return `knocked_out|${contractId}|${outcome}|${tail}`;
}

export function knockedOutPrefix(contractId: string, outcome: string): string {
  return `knocked_out|${contractId}|${outcome}|`;
}

/** The time and contracts of a position-path knockout key ('p' or 'v'); null for others. */
export function parsePositionKnockout(
  key: string,
  prefix: string,
): { at: number; contracts: number } | null {
  if (!key.startsWith(prefix)) return null;
  const m = /^[pv]:(\d+):(\d+)$/.exec(key.slice(prefix.length));
  return m ? { at: Number(m[1]), contracts: Number(m[2]) } : null;
}

/** The n of a near key under `prefix` + level + '|'. */
export function parseNearCount(key: string, levelPrefix: string): number | null {
  if (!key.startsWith(levelPrefix)) return null;
  const n = Number(key.slice(levelPrefix.length));
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/** One position of an account: `contractId|outcome`. */
export function positionKey(p: { contractId: string; outcome: string }): string {
  return `${p.contractId}|${p.outcome}`;
}
