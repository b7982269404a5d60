import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { ExchangeDomain } from '../../../src/exchange/domain/contract.js';
import { createDomain } from '../../../src/exchange/domain/index.js';
import type { Fixture, Leg, Order, OrderRequest } from '../../../src/shared/api/schemas.js';

/** Long enough that no block arrives unless a test moves the clock. */
export const BLOCK_MS = 60_000;

const open: ExchangeDomain[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export async function domain(opts: { seed?: number; blockMs?: number; dataFile?: string } = {}) {
  const d = await createDomain({
    seed: opts.seed ?? 7,
    blockMs: opts.blockMs ?? BLOCK_MS,
    ...opts,
  });
  open.push(d);
  return d;
}

export function tempFile(name = 'state.sqlite'): string {
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-domain-'));
  dirs.push(dir);
  return join(dir, name);
}

/** A fresh fixture at index 0.5000 / 0.5000, lot size 1, minimum 1. */
export function fixture(d: ExchangeDomain, home = 'HOM', away = 'AWY', league = 'TEST'): Fixture {
  return d.createFixture({ homeTeam: home, awayTeam: away, league });
}

export function leg(f: Fixture, outcome: string, side: 'BUY' | 'SELL', boost?: number): Leg {
  const l: Leg = { contractId: f.contractId, outcome, side, market: 'DRAW_NO_BET' };
  if (boost !== undefined) l.boost = boost;
  return l;
}

export function buy(
  f: Fixture,
  outcome: string,
  qty: string,
  extra: Partial<OrderRequest> & { boost?: number } = {},
): OrderRequest {
  const { boost, ...rest } = extra;
  return {
    orderType: 'MARKET',
    legs: [leg(f, outcome, 'BUY', boost)],
    qty,
    marketUnit: 'BASE',
    ...rest,
  };
}

export function sell(
  f: Fixture,
  outcome: string,
  qty: string,
  extra: Partial<OrderRequest> = {},
): OrderRequest {
  return {
    orderType: 'MARKET',
    legs: [leg(f, outcome, 'SELL')],
    qty,
    marketUnit: 'BASE',
    ...extra,
  };
}

/** Places an order and moves the clock past its block; returns the order as it ended. */
export async function placeAndSettle(
  d: ExchangeDomain,
  wallet: string,
  req: OrderRequest,
  blockMs = BLOCK_MS,
): Promise<Order> {
  const o = await d.placeOrder(wallet, req);
  d.advanceClock(blockMs);
  return d.getOrder(wallet, { orderId: o.orderId });
}

/** Runs `fn` and returns the ApiError code it threw (fails the test when it does not throw). */
export async function codeOf(
  fn: () => unknown,
): Promise<{ code: number; status: number; msg: string }> {
  try {
    await fn();
  } catch (e) {
    const err = e as { code?: number; status?: number; message?: string };
    if (typeof err.code === 'number')
      return { code: err.code, status: err.status ?? 0, msg: err.message ?? '' };
    throw e;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}
