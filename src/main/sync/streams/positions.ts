/**
 * Positions: every page of GET /positions, stored as the account's snapshot (the exchange's
 * answer is the whole truth: a position missing from it is closed). The pass reports the
 * snapshot it replaced, read from the store, so a change that happened while the app was
 * closed is still seen as a change on the first pass after a restart.
 */
import type { Position } from '../../../shared/api/schemas.js';
import type { StoredPosition } from '../../store/index.js';
import { PAGE_LIMIT, readAllPages, type StreamContext } from './context.js';

export interface PositionsPass {
  positions: StoredPosition[];
  previous: StoredPosition[];
  changed: boolean;
  boostedOpen: boolean;
  /** Some position of `previous` is gone or holds fewer contracts now. */
  shrank: boolean;
}

export async function syncPositions(ctx: StreamContext): Promise<PositionsPass> {
  const { items } = await readAllPages<Position>(async (offset) => {
    const p = await ctx.client.positions({ limit: PAGE_LIMIT, offset }, { signal: ctx.signal });
    return { items: p.positions, total: p.total };
  });
  const previous = ctx.store.positions.list(ctx.accountId);
  ctx.store.replacePositions(ctx.accountId, items, ctx.now());
  const positions = ctx.store.positions.list(ctx.accountId);
  return {
    positions,
    previous,
    changed: fingerprint(previous) !== fingerprint(positions),
    boostedOpen: positions.some((p) => p.boosted),
    shrank: shrank(previous, positions),
  };
}

export function positionKey(p: { contractId: string; outcome: string }): string {
  return `${p.contractId}|${p.outcome}`;
}

/** The snapshot's content without the time it was taken. */
function fingerprint(list: readonly StoredPosition[]): string {
  return JSON.stringify(list.map(({ snapshotAt: _at, ...p }) => p));
}

function shrank(previous: readonly Position[], current: readonly Position[]): boolean {
  const now = new Map(current.map((p) => [positionKey(p), p.contracts]));
  return previous.some((p) => (now.get(positionKey(p)) ?? 0) < p.contracts);
}
