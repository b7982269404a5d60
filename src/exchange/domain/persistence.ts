/**
 * Filling the state at start: from the seed (a fresh exchange), or from the state file a
 * previous process left, rebuilding every index and queueing the orders still SUBMITTED. Writing
 * goes through the StateStore as records change (store.ts); ExchangeState.persist flushes it.
 */
import { schedule } from './clock.js';
import { addFixture, sortFixtures } from './fixtures.js';
import { deriveSecret } from './keys.js';
import type {
  FixtureRec,
  OrderRec,
  PositionRec,
  SettlementRec,
  StoredKey,
  WalletRec,
} from './model.js';
import { addOpenInterest, indexPosition } from './positions.js';
import { generateFixtures } from './seed.js';
import { heldContracts, newWallet, positionKey, type ExchangeState } from './state.js';

/** Fills the state: from its state file when that holds one, otherwise from the seed. */
export function loadOrSeed(s: ExchangeState): void {
  const meta = s.store?.meta();
  if (meta?.has('seed')) load(s, meta);
  else seedFresh(s);
}

function seedFresh(s: ExchangeState): void {
  for (const f of generateFixtures(s.seed, s.now())) addFixture(s, f);
  s.seqCounter = s.fixturesSorted.length;
  s.store?.setMeta('seed', String(s.seed));
  s.store?.setMeta('seq', String(s.seqCounter));
  s.store?.setMeta('advancedMs', '0');
}

function load(s: ExchangeState, meta: Map<string, string>): void {
  const store = s.store!;
  s.advancedMs = Number(meta.get('advancedMs') ?? '0');
  s.lastStamp = Number(meta.get('lastStamp') ?? '0');
  s.seqCounter = Number(meta.get('seq') ?? '0');
  for (const f of store.load<FixtureRec>('fixture')) {
    s.fixtures.set(f.contractId, f);
    s.fixturesSorted.push(f);
  }
  sortFixtures(s);
  for (const w of store.load<WalletRec>('wallet')) s.wallets.set(w.address, newWallet(w));
  for (const k of store.load<StoredKey>('key')) {
    s.keys.set(k.apiKey, { ...k, secret: deriveSecret(s, k.apiKey) });
  }
  const orders = store.load<OrderRec>('order').sort((a, b) => a.seq - b.seq);
  for (const rec of orders) {
    const w = s.walletState(rec.wallet);
    w.orders.push(rec);
    if (rec.order.clientOrderId !== '') w.byClientId.set(rec.order.clientOrderId, rec);
    s.ordersById.set(rec.order.orderId, rec);
    if (rec.order.rfqId !== undefined) s.ordersByRfq.set(rec.order.rfqId, rec);
    if (rec.order.status === 'SUBMITTED') schedule(s, rec);
  }
  const positions = store.load<PositionRec>('position').sort((a, b) => a.seq - b.seq);
  for (const p of positions) {
    s.walletState(p.wallet).positions.set(positionKey(p.contractId, p.outcome), p);
    indexPosition(s, p);
    addOpenInterest(s, p.contractId, p.outcome, heldContracts(p));
  }
  const settlements = store.load<SettlementRec>('settlement').sort((a, b) => a.seq - b.seq);
  for (const row of settlements) s.walletState(row.wallet).settlements.push(row);
}
