/**
 * The sandbox exchange's state and business rules (exchange-api.md, sandbox-exchange.md): fixtures
 * and prices, quotes, orders and their blocks, positions built from lots, knockouts, resolution
 * and settlement rows. The HTTP layer calls it through the ExchangeDomain interface.
 */
import { createHmac } from 'node:crypto';
import { QUOTE_TTL_MS } from '../../shared/api/limits.js';
import {
  CLIENT_ORDER_ID_PATTERN,
  type Fixture,
  type FixtureList,
  type FixturesQuery,
  type Leg,
  type MarketUnit,
  type Order,
  type OrderList,
  type OrderQuery,
  type OrderRequest,
  type OrdersQuery,
  type OrderUpdates,
  type Position,
  type PositionList,
  type PositionsQuery,
  type Quote,
  type RfqRequest,
  type Settlement,
  type SettlementList,
  type SettlementsQuery,
  type Side,
} from '../../shared/api/schemas.js';
import { Dec, dec, isDecimalString, price, usd, usdFloor } from '../../shared/money.js';
import type {
  ApiKeyRecord,
  DomainOptions,
  ExchangeDomain,
  NewFixture,
  NewKey,
  PlacementFault,
} from './contract.js';
import { ApiError } from './errors.js';
import { EventHeap } from './heap.js';
import {
  emptyTally,
  positionId,
  type FixtureRec,
  type LotRec,
  type OrderRec,
  type PositionRec,
  type QuoteRec,
  type SettlementRec,
  type StoredKey,
  type WalletRec,
} from './model.js';
import { pageOf } from './paging.js';
import {
  CAPACITY_PER_OUTCOME,
  closeTerms,
  closeTermsAt,
  complementPrice,
  contractsForBudget,
  fillPrice,
  moreLotsThan,
  openTerms,
  openTermsAt,
  roundDownToLot,
  roundToNearestLot,
  settlementValue,
  type CloseSlice,
  type CloseTerms,
  type OpenTerms,
} from './pricing.js';
import { randomHex } from './rng.js';
import {
  DEFAULT_LOT_SIZE,
  DEFAULT_MIN_CONTRACTS,
  generateFixtures,
  leagueSpec,
  makeContractId,
} from './seed.js';
import { StateStore } from './store.js';

/** deadline = acceptance + blockMs + this. */
export const DEADLINE_WINDOW_MS = 30_000;
/** The transaction hash appears min(this, blockMs / 2) after acceptance. */
export const TX_DELAY_MAX_MS = 200;

const MAX_TIMER_MS = 2 ** 31 - 1;
const clientOrderIdRe = new RegExp(CLIENT_ORDER_ID_PATTERN);
const teamRe = /^[A-Z]{2,4}$/;

interface WalletState {
  rec: WalletRec;
  /** Creation order (oldest first). */
  orders: OrderRec[];
  byClientId: Map<string, OrderRec>;
  inFlight: Set<string>;
  positions: Map<string, PositionRec>;
  /** Oldest first. */
  settlements: SettlementRec[];
}

interface Intent {
  fixture: FixtureRec;
  outcome: string;
  side: Side;
  boost: number;
  marketUnit: MarketUnit;
  qty: string;
}

interface Plan {
  intent: Intent;
  indexPrice: string;
  capacity: number;
  contracts: number;
  open?: OpenTerms;
  close?: CloseTerms;
  /** Knockout of the position the trade would leave. */
  positionKnockout?: string;
}

function bad(msg: string): ApiError {
  return new ApiError(-1102, msg);
}

function upper(s: string): string {
  return s.toUpperCase();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A decimal string above zero: no minus sign and some non-zero digit. */
function isPositiveDecimal(s: string): boolean {
  return isDecimalString(s) && s[0] !== '-' && /[1-9]/.test(s);
}

function parseBoost(raw: Leg['boost']): number {
  if (raw === undefined) return 0;
  if (typeof raw === 'number') {
    if (Number.isInteger(raw) && raw >= 0 && raw <= 100) return raw;
  } else if (/^(100|[1-9]?[0-9])(\.0+)?$/.test(raw)) {
    return Number.parseInt(raw, 10);
  }
  throw bad(`boost: must be a whole number from 0 to 100, got ${JSON.stringify(raw)}`);
}

export class SandboxExchange implements ExchangeDomain {
  private readonly blockMs: number;
  private readonly seed: number;
  private advancedMs = 0;
  private lastStamp = 0;
  private seqCounter = 0;
  private readonly fixtures = new Map<string, FixtureRec>();
  private fixturesSorted: FixtureRec[] = [];
  private readonly openInterest = new Map<string, number>();
  private readonly positionsByFixture = new Map<string, Set<PositionRec>>();
  private readonly wallets = new Map<string, WalletState>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  private readonly ordersById = new Map<string, OrderRec>();
  private readonly ordersByRfq = new Map<string, OrderRec>();
  private readonly quotes = new Map<string, QuoteRec>();
  /** rfqIds claimed by a placement that is being held (PlacementFault.delayMs) -> clientOrderId. */
  private readonly claimedRfqs = new Map<string, string>();
  private readonly events = new EventHeap();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private closed = false;
  private readonly store: StateStore | undefined;
  private readonly masterSecret: Buffer;

  constructor(opts: DomainOptions) {
    this.blockMs = Math.max(0, Math.floor(opts.blockMs));
    this.seed = opts.seed;
    if (opts.dataFile !== undefined) {
      this.masterSecret = StateStore.masterSecret(opts.dataFile);
      this.store = new StateStore(opts.dataFile);
      const meta = this.store.meta();
      if (meta.has('seed')) this.load(meta);
      else this.seedFresh();
    } else {
      this.masterSecret = Buffer.from(randomHex(32), 'hex');
      this.store = undefined;
      this.seedFresh();
    }
    this.processDue();
    this.persist();
    this.armTimer();
  }

  // ------------------------------------------------------------------ clock and scheduling

  now(): number {
    return Date.now() + this.advancedMs;
  }

  advanceClock(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw bad('advanceMs: must be a non-negative number');
    this.advancedMs += Math.floor(ms);
    this.store?.setMeta('advancedMs', String(this.advancedMs));
    this.processDue();
    this.persist();
    this.armTimer();
  }

  /** A strictly increasing change stamp, never behind the clock: what updatedAt holds. */
  private stamp(): number {
    const s = Math.max(this.now(), this.lastStamp + 1);
    this.lastStamp = s;
    this.store?.setMeta('lastStamp', String(s));
    return s;
  }

  private nextSeq(): number {
    this.seqCounter += 1;
    this.store?.setMeta('seq', String(this.seqCounter));
    return this.seqCounter;
  }

  private armTimer(): void {
    if (this.closed) return;
    const next = this.events.peek();
    if (next === undefined) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    if (this.timer !== undefined && this.timerAt === next.at) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, next.at - this.now()));
    this.timerAt = next.at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.closed) return;
      this.processDue();
      this.persist();
      this.armTimer();
    }, delay);
    this.timer.unref();
  }

  private processDue(): void {
    const now = this.now();
    for (let e = this.events.peek(); e !== undefined && e.at <= now; e = this.events.peek()) {
      this.events.pop();
      const rec = this.ordersById.get(e.orderId);
      if (rec === undefined || rec.order.status !== 'SUBMITTED') continue;
      if (e.kind === 'tx') {
        if (rec.order.tx === '') {
          rec.order.tx = `0x${randomHex(32)}`;
          this.touchOrder(rec);
        }
      } else {
        this.executeBlock(rec);
      }
    }
  }

  private schedule(rec: OrderRec): void {
    if (rec.order.tx === '') {
      this.events.push({ at: rec.txAt, seq: rec.seq, kind: 'tx', orderId: rec.order.orderId });
    }
    this.events.push({ at: rec.dueAt, seq: rec.seq, kind: 'block', orderId: rec.order.orderId });
  }

  // ------------------------------------------------------------------ persistence

  private persist(): void {
    if (!this.closed) this.store?.flush();
  }

  private seedFresh(): void {
    for (const f of generateFixtures(this.seed, this.now())) this.addFixture(f);
    this.seqCounter = this.fixturesSorted.length;
    this.store?.setMeta('seed', String(this.seed));
    this.store?.setMeta('seq', String(this.seqCounter));
    this.store?.setMeta('advancedMs', '0');
  }

  private load(meta: Map<string, string>): void {
    const store = this.store!;
    this.advancedMs = Number(meta.get('advancedMs') ?? '0');
    this.lastStamp = Number(meta.get('lastStamp') ?? '0');
    this.seqCounter = Number(meta.get('seq') ?? '0');
    for (const f of store.load<FixtureRec>('fixture')) {
      this.fixtures.set(f.contractId, f);
      this.fixturesSorted.push(f);
    }
    this.sortFixtures();
    for (const w of store.load<WalletRec>('wallet')) this.wallets.set(w.address, this.newWallet(w));
    for (const k of store.load<StoredKey>('key')) {
      this.keys.set(k.apiKey, { ...k, secret: this.deriveSecret(k.apiKey) });
    }
    const orders = store.load<OrderRec>('order').sort((a, b) => a.seq - b.seq);
    for (const rec of orders) {
      const w = this.walletState(rec.wallet);
      w.orders.push(rec);
      if (rec.order.clientOrderId !== '') w.byClientId.set(rec.order.clientOrderId, rec);
      this.ordersById.set(rec.order.orderId, rec);
      if (rec.order.rfqId !== undefined) this.ordersByRfq.set(rec.order.rfqId, rec);
      if (rec.order.status === 'SUBMITTED') this.schedule(rec);
    }
    const positions = store.load<PositionRec>('position').sort((a, b) => a.seq - b.seq);
    for (const p of positions) {
      this.walletState(p.wallet).positions.set(positionKey(p.contractId, p.outcome), p);
      this.indexPosition(p);
      this.addOpenInterest(p.contractId, p.outcome, heldContracts(p));
    }
    const settlements = store.load<SettlementRec>('settlement').sort((a, b) => a.seq - b.seq);
    for (const s of settlements) this.walletState(s.wallet).settlements.push(s);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.events.clear();
    this.store?.close();
    return Promise.resolve();
  }

  // ------------------------------------------------------------------ wallets and keys

  createWallet(): string {
    const address = `0x${randomHex(20)}`;
    const rec: WalletRec = { address, createdAt: this.now() };
    this.wallets.set(address, this.newWallet(rec));
    this.store?.put('wallet', address, rec);
    this.persist();
    return address;
  }

  createKey(input: NewKey): ApiKeyRecord {
    const wallet = typeof input.wallet === 'string' ? input.wallet.toLowerCase() : '';
    if (!this.wallets.has(wallet)) throw bad(`wallet: unknown wallet ${String(input.wallet)}`);
    if (input.permission !== 'read' && input.permission !== 'trade') {
      throw bad('permission: must be "read" or "trade"');
    }
    if (
      input.expiresAt !== undefined &&
      (!Number.isInteger(input.expiresAt) || input.expiresAt < 0)
    ) {
      throw bad('expiresAt: must be milliseconds since epoch');
    }
    if (input.permission === 'trade' && input.expiresAt === undefined) {
      throw bad('expiresAt: required for a key with trade permission');
    }
    if (input.ipRestrictions !== undefined) {
      if (
        !Array.isArray(input.ipRestrictions) ||
        input.ipRestrictions.some((s) => typeof s !== 'string' || s === '')
      ) {
        throw bad('ipRestrictions: must be a list of addresses or CIDR blocks');
      }
    }
    const apiKey = randomHex(20);
    const stored: StoredKey = {
      apiKey,
      wallet,
      permission: input.permission,
      grantActive: true,
      createdAt: this.now(),
    };
    if (input.expiresAt !== undefined) stored.expiresAt = input.expiresAt;
    if (input.ipRestrictions !== undefined) stored.ipRestrictions = [...input.ipRestrictions];
    const rec: ApiKeyRecord = { ...stored, secret: this.deriveSecret(apiKey) };
    this.keys.set(apiKey, rec);
    this.store?.put('key', apiKey, stored);
    this.persist();
    return { ...rec };
  }

  getKey(apiKey: string): ApiKeyRecord | undefined {
    return this.keys.get(apiKey);
  }

  revokeGrant(apiKey: string): void {
    const rec = this.keys.get(apiKey);
    if (rec === undefined)
      throw new ApiError(-1102, `apiKey: unknown key ${apiKey}`, { status: 404 });
    rec.grantActive = false;
    const { secret: _secret, ...stored } = rec;
    this.store?.put('key', apiKey, stored);
    this.persist();
  }

  private deriveSecret(apiKey: string): string {
    return createHmac('sha256', this.masterSecret).update(apiKey).digest('hex');
  }

  private newWallet(rec: WalletRec): WalletState {
    return {
      rec,
      orders: [],
      byClientId: new Map(),
      inFlight: new Set(),
      positions: new Map(),
      settlements: [],
    };
  }

  /** The wallet's state for a read: an unknown wallet reads as empty and is not created. */
  private readWallet(wallet: string): WalletState {
    return (
      this.wallets.get(wallet.toLowerCase()) ??
      this.newWallet({ address: wallet.toLowerCase(), createdAt: 0 })
    );
  }

  /** The wallet's state; a wallet the domain has not seen is created (the HTTP layer vouches). */
  private walletState(wallet: string): WalletState {
    const address = wallet.toLowerCase();
    let w = this.wallets.get(address);
    if (w === undefined) {
      const rec: WalletRec = { address, createdAt: this.now() };
      w = this.newWallet(rec);
      this.wallets.set(address, w);
      this.store?.put('wallet', address, rec);
    }
    return w;
  }

  // ------------------------------------------------------------------ fixtures

  private addFixture(f: FixtureRec): void {
    this.fixtures.set(f.contractId, f);
    this.fixturesSorted.push(f);
    this.sortFixtures();
    this.store?.put('fixture', f.contractId, f);
  }

  private sortFixtures(): void {
    this.fixturesSorted.sort(
      (a, b) =>
        a.startsAt - b.startsAt ||
        (a.contractId < b.contractId ? -1 : a.contractId > b.contractId ? 1 : 0),
    );
  }

  private fixture(contractId: string): FixtureRec {
    const f = typeof contractId === 'string' ? this.fixtures.get(upper(contractId)) : undefined;
    if (f === undefined)
      throw new ApiError(-1121, `contractId: unknown contract ${String(contractId)}`);
    return f;
  }

  private outcomeOf(f: FixtureRec, outcome: string): string {
    const o = upper(String(outcome));
    if (o !== f.homeTeam && o !== f.awayTeam) {
      throw bad(`outcome: ${o} is not a team of ${f.contractId} (${f.homeTeam} or ${f.awayTeam})`);
    }
    return o;
  }

  private indexPrice(f: FixtureRec, outcome: string): string {
    return outcome === f.homeTeam ? f.homePrice : complementPrice(f.homePrice);
  }

  private fixtureView(f: FixtureRec): Fixture {
    const v: Fixture = {
      contractId: f.contractId,
      league: f.league,
      homeTeam: f.homeTeam,
      awayTeam: f.awayTeam,
      startsAt: f.startsAt,
      bettingOpen: f.status === 'OPEN',
      status: f.status,
      homePrice: f.homePrice,
      awayPrice: complementPrice(f.homePrice),
      lotSize: f.lotSize,
      minContracts: f.minContracts,
    };
    if (f.winner !== undefined) v.winner = f.winner;
    return v;
  }

  listFixtures(query: FixturesQuery): FixtureList {
    const league = query.league?.toUpperCase();
    const team = query.team?.toUpperCase();
    const open = query.bettingOpen === undefined ? undefined : query.bettingOpen === 'true';
    const matches = this.fixturesSorted.filter(
      (f) =>
        (open === undefined || (f.status === 'OPEN') === open) &&
        (league === undefined || f.league.toUpperCase() === league) &&
        (team === undefined || f.homeTeam === team || f.awayTeam === team),
    );
    const page = pageOf(matches, query.limit, query.offset);
    return {
      fixtures: page.items.map((f) => this.fixtureView(f)),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }

  createFixture(input: NewFixture): Fixture {
    const home = upper(String(input.homeTeam ?? ''));
    const away = upper(String(input.awayTeam ?? ''));
    if (!teamRe.test(home)) throw bad('homeTeam: must be a 2 to 4 letter abbreviation');
    if (!teamRe.test(away)) throw bad('awayTeam: must be a 2 to 4 letter abbreviation');
    if (home === away) throw bad('awayTeam: must differ from homeTeam');
    const league = typeof input.league === 'string' ? input.league.trim() : '';
    if (league === '' || league.length > 64) throw bad('league: required, at most 64 characters');
    if (input.startsAt !== undefined && (!Number.isInteger(input.startsAt) || input.startsAt < 0)) {
      throw bad('startsAt: must be milliseconds since epoch');
    }
    const spec = leagueSpec(league);
    let contractId: string;
    do contractId = makeContractId(league, home, away, randomHex(2));
    while (this.fixtures.has(contractId));
    const f: FixtureRec = {
      seq: this.nextSeq(),
      contractId,
      league: spec?.league ?? league,
      homeTeam: home,
      awayTeam: away,
      startsAt: input.startsAt ?? this.now() + 86_400_000,
      status: 'OPEN',
      homePrice: '0.5000',
      lotSize: spec?.lotSize ?? DEFAULT_LOT_SIZE,
      minContracts: spec?.minContracts ?? DEFAULT_MIN_CONTRACTS,
    };
    this.addFixture(f);
    this.persist();
    return this.fixtureView(f);
  }

  setPrice(contractId: string, outcome: string, indexPrice: string): { knockedOut: number } {
    const f = this.fixture(contractId);
    const o = this.outcomeOf(f, outcome);
    if (typeof indexPrice !== 'string' || !isDecimalString(indexPrice)) {
      throw bad('indexPrice: must be a decimal string between 0 and 1');
    }
    const p = dec(price(indexPrice));
    if (p.lte(0) || p.gte(1)) throw bad('indexPrice: must be above 0 and below 1 (4 places)');
    if (f.status === 'RESOLVED') throw bad(`contractId: ${f.contractId} is resolved`);
    f.homePrice = o === f.homeTeam ? price(p) : price(dec(1).minus(p));
    this.store?.put('fixture', f.contractId, f);
    const knockedOut = this.knockOut(f);
    this.persist();
    return { knockedOut };
  }

  closeFixture(contractId: string): Fixture {
    const f = this.fixture(contractId);
    if (f.status === 'OPEN') {
      f.status = 'CLOSED';
      this.store?.put('fixture', f.contractId, f);
      this.persist();
    }
    return this.fixtureView(f);
  }

  resolveFixture(contractId: string, winner: string): Fixture {
    const f = this.fixture(contractId);
    const w = upper(String(winner));
    if (w !== 'DRAW' && w !== f.homeTeam && w !== f.awayTeam) {
      throw bad(`winner: must be ${f.homeTeam}, ${f.awayTeam} or DRAW`);
    }
    if (f.status === 'RESOLVED') throw bad(`contractId: ${f.contractId} is already resolved`);
    f.status = 'RESOLVED';
    f.winner = w;
    this.store?.put('fixture', f.contractId, f);
    const held = [...(this.positionsByFixture.get(f.contractId) ?? [])];
    for (const p of held) {
      let payout = dec(0);
      for (const lot of p.lots) {
        const settle = w === 'DRAW' ? lot.entryPrice : w === p.outcome ? '1' : '0';
        payout = payout.plus(settlementValue(settle, lot));
      }
      const contracts = heldContracts(p);
      this.finishPosition(p, {
        type: 'SETTLEMENT',
        contractId: p.contractId,
        outcome: p.outcome,
        contracts,
        payout: usdFloor(payout),
        tx: `0x${randomHex(32)}`,
        timestamp: new Date(this.now()).toISOString(),
      });
    }
    this.persist();
    return this.fixtureView(f);
  }

  /** Knocks out every boosted lot on the fixture whose knockout the index has reached. */
  private knockOut(f: FixtureRec): number {
    const held = this.positionsByFixture.get(f.contractId);
    if (held === undefined) return 0;
    let count = 0;
    for (const p of [...held]) {
      const index = dec(this.indexPrice(f, p.outcome));
      const out = p.lots.filter((l) => l.knockout !== undefined && dec(l.knockout).gte(index));
      if (out.length === 0) continue;
      count += 1;
      const now = this.now();
      let contracts = 0;
      let cost = dec(p.knocked.cost);
      for (const lot of out) {
        contracts += lot.contracts;
        cost = cost.plus(lot.cost);
      }
      p.lots = p.lots.filter((l) => !out.includes(l));
      p.knocked = {
        ...p.knocked,
        contracts: p.knocked.contracts + contracts,
        cost: cost.toString(),
        price: price(index),
        tx: `0x${randomHex(32)}`,
      };
      p.updatedAt = now;
      this.addOpenInterest(p.contractId, p.outcome, -contracts);
      if (p.lots.length === 0) this.finishPosition(p, 'knock');
      else this.store?.put('position', p.id, p);
    }
    return count;
  }

  // ------------------------------------------------------------------ open interest and positions

  private addOpenInterest(contractId: string, outcome: string, delta: number): void {
    const key = positionKey(contractId, outcome);
    this.openInterest.set(key, (this.openInterest.get(key) ?? 0) + delta);
  }

  private capacity(contractId: string, outcome: string): number {
    const oi = this.openInterest.get(positionKey(contractId, outcome)) ?? 0;
    return Math.max(0, CAPACITY_PER_OUTCOME - oi);
  }

  private indexPosition(p: PositionRec): void {
    let set = this.positionsByFixture.get(p.contractId);
    if (set === undefined) {
      set = new Set();
      this.positionsByFixture.set(p.contractId, set);
    }
    set.add(p);
  }

  /**
   * Turns a flat (or resolved) position into settlement rows: a KNOCKED_OUT row for the lots
   * knocked out and a CLOSED row for the contracts sold during its life, then the SETTLEMENT row
   * when it resolved. The row of the event that made it flat is the newest.
   */
  private finishPosition(p: PositionRec, last: 'sell' | 'knock' | Settlement): void {
    const w = this.walletState(p.wallet);
    const timestamp = new Date(this.now()).toISOString();
    const rows: Settlement[] = [];
    const knockedRow = (): Settlement => ({
      type: 'KNOCKED_OUT',
      contractId: p.contractId,
      outcome: p.outcome,
      contracts: p.knocked.contracts,
      price: p.knocked.price,
      pnl: usd(dec(p.knocked.proceeds).minus(p.knocked.cost)),
      tx: p.knocked.tx,
      timestamp,
    });
    const closedRow = (): Settlement => ({
      type: 'CLOSED',
      contractId: p.contractId,
      outcome: p.outcome,
      contracts: p.sold.contracts,
      price: price(dec(p.sold.notional).dividedBy(p.sold.contracts)),
      pnl: usd(dec(p.sold.proceeds).minus(p.sold.cost)),
      tx: p.sold.tx,
      timestamp,
    });
    if (last === 'knock') {
      if (p.sold.contracts > 0) rows.push(closedRow());
      rows.push(knockedRow());
    } else {
      if (p.knocked.contracts > 0) rows.push(knockedRow());
      if (p.sold.contracts > 0) rows.push(closedRow());
      if (last !== 'sell') rows.push(last);
    }
    for (const row of rows) {
      const rec: SettlementRec = { seq: this.nextSeq(), wallet: p.wallet, row };
      w.settlements.push(rec);
      this.store?.put('settlement', String(rec.seq), rec);
    }
    this.addOpenInterest(p.contractId, p.outcome, -heldContracts(p));
    p.lots = [];
    w.positions.delete(positionKey(p.contractId, p.outcome));
    this.positionsByFixture.get(p.contractId)?.delete(p);
    this.store?.put('position', p.id, null);
  }

  private positionView(p: PositionRec): Position {
    const f = this.fixtures.get(p.contractId)!;
    const index = this.indexPrice(f, p.outcome);
    let contracts = 0;
    let weighted = dec(0);
    let collateral = dec(0);
    let maxPayout = dec(0);
    let costBasis = dec(0);
    let knockout: Dec | undefined;
    for (const lot of p.lots) {
      contracts += lot.contracts;
      weighted = weighted.plus(dec(lot.entryPrice).times(lot.contracts));
      collateral = collateral.plus(dec(lot.collateralPerContract).times(lot.contracts));
      maxPayout = maxPayout.plus(dec(1).minus(lot.loanPerContract).times(lot.contracts));
      costBasis = costBasis.plus(lot.cost);
      if (lot.knockout !== undefined && (knockout === undefined || knockout.lt(lot.knockout))) {
        knockout = dec(lot.knockout);
      }
    }
    const closing = fillPrice('SELL', index, contracts);
    const pnl = dec(closing).times(contracts).minus(weighted);
    const value = Dec.min(maxPayout, Dec.max(0, collateral.plus(pnl)));
    const v: Position = {
      contractId: p.contractId,
      outcome: p.outcome,
      contracts,
      entryPrice: price(weighted.dividedBy(contracts)),
      estimatedClosingPrice: closing,
      boosted: knockout !== undefined,
      costBasis: usd(costBasis),
      value: usd(value),
      pnl: usd(pnl),
      pnlPercent: collateral.isZero() ? '0.0000' : price(pnl.dividedBy(collateral).times(100)),
      maxPayout: usdFloor(maxPayout),
      updatedAt: p.updatedAt,
    };
    if (knockout !== undefined) v.knockout = price(knockout);
    return v;
  }

  positions(wallet: string, query: PositionsQuery): PositionList {
    const w = this.readWallet(wallet);
    const contractId = query.contractId?.toUpperCase();
    const league = query.league?.toUpperCase();
    const team = query.team?.toUpperCase();
    const matches = [...w.positions.values()].filter(
      (p) =>
        (contractId === undefined || p.contractId === contractId) &&
        (team === undefined || p.outcome === team) &&
        (league === undefined || this.fixtures.get(p.contractId)?.league.toUpperCase() === league),
    );
    const page = pageOf(matches, query.limit, query.offset);
    return {
      positions: page.items.map((p) => this.positionView(p)),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }

  settlements(wallet: string, query: SettlementsQuery): SettlementList {
    const w = this.readWallet(wallet);
    const contractId = query.contractId?.toUpperCase();
    const team = query.team?.toUpperCase();
    const matches: Settlement[] = [];
    for (let i = w.settlements.length - 1; i >= 0; i--) {
      const row = w.settlements[i]!.row;
      if (contractId !== undefined && row.contractId !== contractId) continue;
      if (team !== undefined && row.outcome !== team) continue;
      if (query.type !== undefined && row.type !== query.type) continue;
      matches.push(row);
    }
    const page = pageOf(matches, query.limit, query.offset);
    return {
      settlements: page.items.map((s) => ({ ...s })),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }

  // ------------------------------------------------------------------ quoting

  /** Reads and checks a request's leg and sizing, in the order a person would fix them. */
  private intent(
    legs: readonly Leg[] | undefined,
    qty: string | undefined,
    marketUnit: string | undefined,
  ): Intent {
    const list: readonly Leg[] = Array.isArray(legs) ? (legs as readonly Leg[]) : [];
    if (list.length > 1) {
      throw new ApiError(-2026, 'legs: only one leg per request is supported', { status: 501 });
    }
    const leg = list[0];
    if (leg === undefined || typeof leg !== 'object')
      throw bad('legs: exactly one leg is required');
    if (typeof leg.market !== 'string' || upper(leg.market) !== 'DRAW_NO_BET') {
      throw bad('market: only DRAW_NO_BET is accepted');
    }
    const side = typeof leg.side === 'string' ? upper(leg.side) : '';
    if (side !== 'BUY' && side !== 'SELL') throw bad('side: must be BUY or SELL');
    const boost = parseBoost(leg.boost);
    if (side === 'SELL' && boost !== 0) throw bad('boost: not accepted when side is SELL');
    if (marketUnit === undefined) throw bad('marketUnit: required (BASE or QUOTE)');
    const unit = upper(String(marketUnit));
    if (unit !== 'BASE' && unit !== 'QUOTE') throw bad('marketUnit: must be BASE or QUOTE');
    if (side === 'SELL' && unit === 'QUOTE') {
      throw bad('marketUnit: QUOTE is allowed only when opening (BUY); a close is always BASE');
    }
    if (qty === undefined) throw bad('qty: required');
    if (typeof qty !== 'string' || !isPositiveDecimal(qty)) {
      throw bad(`qty: must be a positive decimal string, got ${JSON.stringify(qty)}`);
    }
    const fixture = this.fixture(leg.contractId);
    const outcome = this.outcomeOf(fixture, leg.outcome);
    return { fixture, outcome, side, boost, marketUnit: unit, qty };
  }

  private opposite(f: FixtureRec, outcome: string): string {
    return outcome === f.homeTeam ? f.awayTeam : f.homeTeam;
  }

  /** The state checks every quote and order passes: betting open, what the wallet holds. */
  private checkState(w: WalletState, intent: Intent): PositionRec | undefined {
    const f = intent.fixture;
    if (f.status !== 'OPEN') {
      throw new ApiError(-2019, `betting on ${f.contractId} is closed`, { status: 503 });
    }
    const held = w.positions.get(positionKey(f.contractId, intent.outcome));
    if (intent.side === 'SELL') {
      if (held === undefined) {
        throw new ApiError(
          -2029,
          `nothing is held on ${intent.outcome} in ${f.contractId} to sell`,
        );
      }
    } else {
      const other = this.opposite(f, intent.outcome);
      if (w.positions.has(positionKey(f.contractId, other))) {
        throw new ApiError(
          -2030,
          `${other} is held in ${f.contractId}; close it before betting on ${intent.outcome}`,
        );
      }
    }
    return held;
  }

  /** Prices a trade by exactly the rules an order is placed by. */
  private plan(w: WalletState, intent: Intent): Plan {
    const held = this.checkState(w, intent);
    const f = intent.fixture;
    const indexPrice = this.indexPrice(f, intent.outcome);
    const capacity = this.capacity(f.contractId, intent.outcome);
    if (intent.side === 'SELL') {
      const have = held === undefined ? 0 : heldContracts(held);
      const wanted = roundDownToLot(intent.qty, f.lotSize);
      if (wanted <= 0) {
        throw bad(`qty: ${intent.qty} rounds down to 0 contracts (lot size ${f.lotSize})`);
      }
      const contracts = Math.min(wanted, have);
      const slices = takeSlices(held?.lots ?? [], contracts);
      const plan: Plan = {
        intent,
        indexPrice,
        capacity,
        contracts,
        close: closeTerms(indexPrice, slices),
      };
      const remaining = remainingKnockout(held?.lots ?? [], contracts);
      if (remaining !== undefined) plan.positionKnockout = remaining;
      return plan;
    }
    let contracts: number;
    if (intent.marketUnit === 'BASE') {
      if (moreLotsThan(intent.qty, f.lotSize, CAPACITY_PER_OUTCOME)) {
        throw overCapacity(intent.qty, capacity, intent.outcome);
      }
      contracts = roundToNearestLot(intent.qty, f.lotSize);
    } else {
      contracts = contractsForBudget(
        indexPrice,
        intent.qty,
        intent.boost,
        f.lotSize,
        capacity + f.lotSize,
      );
    }
    if (contracts > capacity) throw overCapacity(intent.qty, capacity, intent.outcome);
    if (contracts < f.minContracts) {
      throw bad(
        intent.marketUnit === 'QUOTE'
          ? `qty: ${intent.qty} USD buys ${contracts} contracts, below minContracts ${f.minContracts}`
          : `qty: ${intent.qty} rounds to ${contracts} contracts, below minContracts ${f.minContracts}`,
      );
    }
    const open = openTerms(indexPrice, contracts, intent.boost);
    if (open.knockout !== undefined && dec(open.knockout).gte(indexPrice)) {
      throw bad(
        `boost: ${intent.boost} puts the knockout (${open.knockout}) at or above the index price ${indexPrice}`,
      );
    }
    const plan: Plan = { intent, indexPrice, capacity, contracts, open };
    let knockout = open.knockout === undefined ? undefined : dec(open.knockout);
    for (const lot of held?.lots ?? []) {
      if (lot.knockout !== undefined && (knockout === undefined || knockout.lt(lot.knockout))) {
        knockout = dec(lot.knockout);
      }
    }
    if (knockout !== undefined) plan.positionKnockout = price(knockout);
    return plan;
  }

  requestQuote(wallet: string, request: RfqRequest): Quote {
    const w = this.walletState(wallet);
    if (request.orderType !== undefined) {
      const t = upper(String(request.orderType));
      if (t !== 'MARKET' && t !== 'FOK') throw bad('orderType: must be MARKET or FOK');
    }
    if (request.clientOrderId !== undefined && !clientOrderIdRe.test(request.clientOrderId)) {
      throw bad('clientOrderId: letters, digits and _ : . - only, at most 64 characters');
    }
    const intent = this.intent(request.legs, request.qty, request.marketUnit);
    const plan = this.plan(w, intent);
    const now = this.now();
    this.pruneQuotes(now);
    const rfqId = this.newRfqId(w.rec.address, now + QUOTE_TTL_MS);
    const f = intent.fixture;
    const quote: Quote = {
      rfqId,
      reqId: request.clientOrderId ?? '',
      contracts: plan.contracts,
      isOpen: intent.side === 'BUY',
      entryPrice: plan.open?.entryPrice ?? plan.close!.price,
      indexPrice: plan.indexPrice,
      minContracts: f.minContracts,
      expiresAt: now + QUOTE_TTL_MS,
    };
    if (plan.open !== undefined) {
      quote.cost = plan.open.cost;
      quote.maxWin = plan.open.maxWin;
      quote.exitValue = plan.open.exitValue;
      quote.exchangeCapacity = plan.capacity;
    }
    if (plan.positionKnockout !== undefined) quote.knockout = plan.positionKnockout;
    const rec: QuoteRec = {
      rfqId,
      wallet: w.rec.address,
      reqId: quote.reqId,
      contractId: f.contractId,
      outcome: intent.outcome,
      side: intent.side,
      boost: intent.boost,
      marketUnit: intent.marketUnit,
      qty: intent.qty,
      contracts: plan.contracts,
      entryPrice: quote.entryPrice,
      cost: plan.open?.cost ?? plan.close!.fee,
      maxWin: plan.open?.maxWin ?? '0',
      expiresAt: quote.expiresAt,
    };
    if (plan.open?.knockout !== undefined) rec.lotKnockout = plan.open.knockout;
    this.quotes.set(rfqId, rec);
    return quote;
  }

  /** Forgets lapsed quotes (their ids still answer -2031). Kept in creation (= expiry) order. */
  private pruneQuotes(now: number): void {
    for (const [id, q] of this.quotes) {
      if (q.expiresAt > now) break;
      this.quotes.delete(id);
    }
  }

  // ------------------------------------------------------------------ orders

  async placeOrder(wallet: string, request: OrderRequest, fault?: PlacementFault): Promise<Order> {
    if (this.closed) throw new ApiError(-1000, 'the exchange is shutting down');
    const w = this.walletState(wallet);
    const orderType = upper(String(request.orderType ?? ''));
    if (orderType !== 'MARKET' && orderType !== 'FOK')
      throw bad('orderType: must be MARKET or FOK');
    const rfqId = request.rfqId?.toLowerCase();
    if (rfqId !== undefined && (request.qty !== undefined || request.legs !== undefined)) {
      throw bad('rfqId: qty and legs must not accompany an rfqId');
    }
    if (orderType === 'FOK' && rfqId === undefined) {
      throw bad('rfqId: required for a FOK order (request a quote first)');
    }
    if (request.clientOrderId !== undefined && !clientOrderIdRe.test(request.clientOrderId)) {
      throw bad('clientOrderId: letters, digits and _ : . - only, at most 64 characters');
    }
    const clientOrderId = request.clientOrderId ?? rfqId ?? '';
    if (request.clientOrderId !== undefined) {
      const existing = w.byClientId.get(request.clientOrderId);
      if (existing !== undefined) return orderView(existing);
    }
    if (clientOrderId !== '' && w.inFlight.has(clientOrderId)) {
      throw new ApiError(
        -2028,
        `clientOrderId ${clientOrderId} is already being placed; retry shortly`,
      );
    }
    if (rfqId !== undefined) this.checkRfq(w, rfqId, clientOrderId);
    const delayMs = fault?.delayMs ?? 0;
    if (delayMs <= 0) return this.placeNow(w, request, orderType, rfqId, clientOrderId, fault);
    if (clientOrderId !== '') w.inFlight.add(clientOrderId);
    if (rfqId !== undefined) this.claimedRfqs.set(rfqId, clientOrderId);
    try {
      await sleep(delayMs);
      if (this.closed) throw new ApiError(-1000, 'the exchange is shutting down');
      return this.placeNow(w, request, orderType, rfqId, clientOrderId, fault);
    } finally {
      w.inFlight.delete(clientOrderId);
      if (rfqId !== undefined) this.claimedRfqs.delete(rfqId);
    }
  }

  /** Checks that an rfqId names a live, unused quote of this wallet. */
  private checkRfq(w: WalletState, rfqId: string, clientOrderId: string): QuoteRec {
    const used = this.ordersByRfq.get(rfqId);
    if (used !== undefined) {
      if (used.wallet !== w.rec.address)
        throw new ApiError(-2022, `rfqId ${rfqId} matches no live quote`);
      throw new ApiError(
        -2027,
        `rfqId ${rfqId} was already used by order ${used.order.orderId}` +
          (used.order.clientOrderId !== '' ? ` (clientOrderId ${used.order.clientOrderId})` : ''),
      );
    }
    const claimedBy = this.claimedRfqs.get(rfqId);
    if (claimedBy !== undefined) {
      if (claimedBy === clientOrderId) {
        throw new ApiError(
          -2028,
          `clientOrderId ${clientOrderId} is already being placed; retry shortly`,
        );
      }
      throw new ApiError(
        -2027,
        `rfqId ${rfqId} is already being executed by clientOrderId ${claimedBy}`,
      );
    }
    return this.liveQuote(w, rfqId);
  }

  /** The wallet's live quote with this id; -2031 when it lapsed, -2022 when there is none. */
  private liveQuote(w: WalletState, rfqId: string): QuoteRec {
    const q = this.quotes.get(rfqId);
    if (q !== undefined && q.wallet === w.rec.address && this.now() < q.expiresAt) return q;
    if ((q !== undefined && q.wallet === w.rec.address) || this.lapsedRfqId(rfqId, w.rec.address)) {
      throw new ApiError(-2031, `rfqId ${rfqId} expired; request a new quote`);
    }
    throw new ApiError(-2022, `rfqId ${rfqId} matches no live quote`);
  }

  /**
   * rfqId = expiry (12 hex) + random (12 hex) + a MAC (8 hex) over both and the wallet. Lapsed
   * quotes are forgotten at once, yet one of this wallet's rfqIds whose expiry passed is still
   * recognised (-2031 rather than -2022) without keeping it in memory.
   */
  private newRfqId(wallet: string, expiresAt: number): string {
    const body = expiresAt.toString(16).padStart(12, '0') + randomHex(6);
    return body + this.rfqMac(body, wallet);
  }

  private lapsedRfqId(rfqId: string, wallet: string): boolean {
    if (!/^[0-9a-f]{32}$/.test(rfqId)) return false;
    const body = rfqId.slice(0, 24);
    if (this.rfqMac(body, wallet) !== rfqId.slice(24)) return false;
    return Number.parseInt(rfqId.slice(0, 12), 16) <= this.now();
  }

  private rfqMac(body: string, wallet: string): string {
    return createHmac('sha256', this.masterSecret)
      .update(`${body}|${wallet}`)
      .digest('hex')
      .slice(0, 8);
  }

  private placeNow(
    w: WalletState,
    request: OrderRequest,
    orderType: 'MARKET' | 'FOK',
    rfqId: string | undefined,
    clientOrderId: string,
    fault: PlacementFault | undefined,
  ): Order {
    let order: Order;
    const now = this.now();
    const stampPending = (): number => this.stamp();
    if (rfqId !== undefined) {
      // Re-checked: a held placement may have outlived its quote.
      const q = this.liveQuote(w, rfqId);
      const fixture = this.fixture(q.contractId);
      const intent: Intent = {
        fixture,
        outcome: q.outcome,
        side: q.side,
        boost: q.boost,
        marketUnit: q.marketUnit,
        qty: q.qty,
      };
      this.checkState(w, intent);
      const stamp = stampPending();
      order = {
        clientOrderId,
        orderId: `0x${randomHex(16)}`,
        contractId: q.contractId,
        outcome: q.outcome,
        side: q.side,
        status: 'SUBMITTED',
        contracts: q.contracts,
        entryPrice: q.entryPrice,
        cost: q.cost,
        maxWin: q.maxWin,
        deadline: stamp + this.blockMs + DEADLINE_WINDOW_MS,
        tx: '',
        orderType,
        marketUnit: q.marketUnit,
        qty: q.qty,
        boost: q.boost,
        rfqId,
        createdAt: stamp,
        updatedAt: stamp,
      };
      if (q.lotKnockout !== undefined) order.knockout = q.lotKnockout;
      this.quotes.delete(rfqId);
    } else {
      const intent = this.intent(request.legs, request.qty, request.marketUnit);
      const plan = this.plan(w, intent);
      const stamp = stampPending();
      order = {
        clientOrderId,
        orderId: `0x${randomHex(16)}`,
        contractId: intent.fixture.contractId,
        outcome: intent.outcome,
        side: intent.side,
        status: 'SUBMITTED',
        contracts: plan.contracts,
        entryPrice: plan.open?.entryPrice ?? plan.close!.price,
        cost: plan.open?.cost ?? plan.close!.fee,
        maxWin: plan.open?.maxWin ?? '0',
        deadline: stamp + this.blockMs + DEADLINE_WINDOW_MS,
        tx: '',
        orderType,
        marketUnit: intent.marketUnit,
        qty: intent.qty,
        boost: intent.boost,
        createdAt: stamp,
        updatedAt: stamp,
      };
      if (plan.open?.knockout !== undefined) order.knockout = plan.open.knockout;
    }
    if (fault?.outcome === 'congested') {
      order.error = {
        code: -5004,
        msg: 'the chain was congested: the transaction was sent but not yet confirmed; the order stands',
      };
    }
    const rec: OrderRec = {
      order,
      seq: this.nextSeq(),
      wallet: w.rec.address,
      dueAt: now + this.blockMs,
      txAt: now + Math.min(TX_DELAY_MAX_MS, Math.floor(this.blockMs / 2)),
    };
    if (fault?.outcome === 'revert') rec.fault = 'revert';
    w.orders.push(rec);
    if (clientOrderId !== '') w.byClientId.set(clientOrderId, rec);
    this.ordersById.set(order.orderId, rec);
    if (rfqId !== undefined) this.ordersByRfq.set(rfqId, rec);
    this.store?.put('order', order.orderId, rec);
    this.schedule(rec);
    this.persist();
    this.armTimer();
    return orderView(rec);
  }

  /** The order's block has arrived: it fills, or ends CANCELED or REJECTED. */
  private executeBlock(rec: OrderRec): void {
    const o = rec.order;
    if (rec.fault === 'revert') {
      return this.endOrder(rec, 'REJECTED', {
        code: -2024,
        msg: 'the transaction reverted on chain',
      });
    }
    const f = this.fixtures.get(o.contractId);
    if (f === undefined || f.status !== 'OPEN') return this.endOrder(rec, 'CANCELED');
    const w = this.walletState(rec.wallet);
    const index = this.indexPrice(f, o.outcome);
    const held = w.positions.get(positionKey(o.contractId, o.outcome));
    if (o.side === 'BUY') {
      const other = this.opposite(f, o.outcome);
      if (w.positions.has(positionKey(o.contractId, other))) {
        return this.endOrder(rec, 'REJECTED', {
          code: -2030,
          msg: `${other} is held in ${o.contractId}; close it before betting on ${o.outcome}`,
        });
      }
      const capacity = this.capacity(o.contractId, o.outcome);
      let terms: OpenTerms;
      if (o.orderType === 'FOK') {
        if (o.contracts > capacity) return this.endOrder(rec, 'CANCELED');
        if (dec(fillPrice('BUY', index, o.contracts)).gt(o.entryPrice))
          return this.endOrder(rec, 'CANCELED');
        terms = openTermsAt(o.entryPrice, index, o.contracts, o.boost);
        if (o.marketUnit === 'QUOTE' && dec(terms.cost).gt(o.qty))
          return this.endOrder(rec, 'CANCELED');
        if (terms.knockout !== undefined && dec(terms.knockout).gte(index)) {
          return this.endOrder(rec, 'CANCELED');
        }
      } else {
        const room = Math.floor(capacity / f.lotSize) * f.lotSize;
        const contracts =
          o.marketUnit === 'BASE'
            ? Math.min(o.contracts, room)
            : contractsForBudget(index, o.qty, o.boost, f.lotSize, room);
        if (contracts < f.minContracts) {
          return this.endOrder(rec, 'REJECTED', {
            code: -2024,
            msg: `the transaction reverted: ${contracts} contracts fill at the current price, below minContracts ${f.minContracts}`,
          });
        }
        terms = openTerms(index, contracts, o.boost);
        if (terms.knockout !== undefined && dec(terms.knockout).gte(index)) {
          return this.endOrder(rec, 'REJECTED', {
            code: -2024,
            msg: `the transaction reverted: the knockout ${terms.knockout} is at or above the index price ${index}`,
          });
        }
      }
      this.fillBuy(rec, w, held, terms);
      return;
    }
    const have = held === undefined ? 0 : heldContracts(held);
    if (held === undefined || have === 0) {
      return this.endOrder(rec, 'REJECTED', {
        code: -2029,
        msg: `nothing is held on ${o.outcome} in ${o.contractId} to sell`,
      });
    }
    let terms: CloseTerms;
    if (o.orderType === 'FOK') {
      if (have < o.contracts) return this.endOrder(rec, 'CANCELED');
      if (dec(fillPrice('SELL', index, o.contracts)).lt(o.entryPrice))
        return this.endOrder(rec, 'CANCELED');
      terms = closeTermsAt(o.entryPrice, takeSlices(held.lots, o.contracts));
    } else {
      terms = closeTerms(index, takeSlices(held.lots, Math.min(o.contracts, have)));
    }
    this.fillSell(rec, held, terms);
  }

  private fillBuy(
    rec: OrderRec,
    w: WalletState,
    held: PositionRec | undefined,
    terms: OpenTerms,
  ): void {
    const o = rec.order;
    const now = this.now();
    const lot: LotRec = {
      orderId: o.orderId,
      contracts: terms.contracts,
      entryPrice: terms.entryPrice,
      boost: terms.boost,
      collateralPerContract: terms.collateralPerContract,
      loanPerContract: terms.loanPerContract,
      cost: terms.cost,
      openedAt: now,
    };
    if (terms.knockout !== undefined) lot.knockout = terms.knockout;
    let p = held;
    if (p === undefined) {
      p = {
        id: positionId(rec.wallet, o.contractId, o.outcome),
        seq: this.nextSeq(),
        wallet: rec.wallet,
        contractId: o.contractId,
        outcome: o.outcome,
        lots: [],
        openedAt: now,
        updatedAt: now,
        sold: emptyTally(),
        knocked: emptyTally(),
      };
      w.positions.set(positionKey(o.contractId, o.outcome), p);
      this.indexPosition(p);
    }
    p.lots.push(lot);
    p.updatedAt = now;
    this.addOpenInterest(o.contractId, o.outcome, terms.contracts);
    this.store?.put('position', p.id, p);
    o.contracts = terms.contracts;
    o.entryPrice = terms.entryPrice;
    o.cost = terms.cost;
    o.maxWin = terms.maxWin;
    if (terms.knockout !== undefined) o.knockout = terms.knockout;
    else delete o.knockout;
    this.endOrder(rec, 'FILLED');
  }

  private fillSell(rec: OrderRec, p: PositionRec, terms: CloseTerms): void {
    const o = rec.order;
    if (o.tx === '') o.tx = `0x${randomHex(32)}`;
    let left = terms.contracts;
    let cost = dec(0);
    const lots: LotRec[] = [];
    for (const lot of p.lots) {
      if (left === 0) {
        lots.push(lot);
        continue;
      }
      const take = Math.min(left, lot.contracts);
      left -= take;
      if (take === lot.contracts) {
        cost = cost.plus(lot.cost);
        continue;
      }
      const share = dec(lot.cost).times(take).dividedBy(lot.contracts);
      cost = cost.plus(share);
      lots.push({
        ...lot,
        contracts: lot.contracts - take,
        cost: dec(lot.cost).minus(share).toString(),
      });
    }
    p.lots = lots;
    p.updatedAt = this.now();
    p.sold = {
      ...p.sold,
      contracts: p.sold.contracts + terms.contracts,
      notional: dec(p.sold.notional).plus(dec(terms.price).times(terms.contracts)).toString(),
      proceeds: dec(p.sold.proceeds).plus(terms.proceeds).toString(),
      cost: dec(p.sold.cost).plus(cost).toString(),
      tx: o.tx,
    };
    this.addOpenInterest(p.contractId, p.outcome, -terms.contracts);
    if (p.lots.length === 0) this.finishPosition(p, 'sell');
    else this.store?.put('position', p.id, p);
    o.contracts = terms.contracts;
    o.entryPrice = terms.price;
    o.cost = terms.fee;
    o.maxWin = '0';
    o.proceeds = terms.proceeds;
    this.endOrder(rec, 'FILLED');
  }

  private endOrder(
    rec: OrderRec,
    status: 'FILLED' | 'CANCELED' | 'REJECTED',
    error?: { code: number; msg: string },
  ): void {
    const o = rec.order;
    o.status = status;
    if (error !== undefined) o.error = error;
    else delete o.error;
    if (o.tx === '') o.tx = `0x${randomHex(32)}`;
    this.touchOrder(rec);
  }

  private touchOrder(rec: OrderRec): void {
    rec.order.updatedAt = this.stamp();
    this.store?.put('order', rec.order.orderId, rec);
  }

  getOrder(wallet: string, query: OrderQuery): Order {
    const w = this.readWallet(wallet);
    const hasId = query.orderId !== undefined;
    const hasClientId = query.clientOrderId !== undefined;
    if (hasId === hasClientId) throw bad('orderId: pass exactly one of orderId or clientOrderId');
    const rec = hasId
      ? this.ordersById.get(query.orderId!.toLowerCase())
      : w.byClientId.get(query.clientOrderId!);
    if (rec === undefined || rec.wallet !== w.rec.address) {
      throw new ApiError(
        -2025,
        hasId
          ? `no order with orderId ${query.orderId}`
          : `no order with clientOrderId ${query.clientOrderId}`,
      );
    }
    return orderView(rec);
  }

  listOrders(wallet: string, query: OrdersQuery): OrderList {
    const w = this.readWallet(wallet);
    const contractId = query.contractId?.toUpperCase();
    const team = query.team?.toUpperCase();
    const matches: OrderRec[] = [];
    for (let i = w.orders.length - 1; i >= 0; i--) {
      const rec = w.orders[i]!;
      const o = rec.order;
      if (contractId !== undefined && o.contractId !== contractId) continue;
      if (team !== undefined && o.outcome !== team) continue;
      if (query.status !== undefined && o.status !== query.status) continue;
      matches.push(rec);
    }
    const page = pageOf(matches, query.limit, query.offset);
    return {
      orders: page.items.map(orderView),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }

  orderUpdates(wallet: string, since: number | undefined): OrderUpdates {
    const w = this.readWallet(wallet);
    const changed = w.orders.filter((rec) => since === undefined || rec.order.updatedAt > since);
    changed.sort((a, b) => a.order.updatedAt - b.order.updatedAt || a.seq - b.seq);
    // Every later change is stamped above the cursor handed out here, so none can be missed.
    const cursor = Math.max(this.now(), this.lastStamp);
    this.lastStamp = cursor;
    return { orders: changed.map(orderView), cursor };
  }
}

function positionKey(contractId: string, outcome: string): string {
  return `${contractId}|${outcome}`;
}

function heldContracts(p: PositionRec): number {
  let n = 0;
  for (const lot of p.lots) n += lot.contracts;
  return n;
}

/** The slices a close of `contracts` takes, oldest lot first. */
function takeSlices(lots: readonly LotRec[], contracts: number): CloseSlice[] {
  const slices: CloseSlice[] = [];
  let left = contracts;
  for (const lot of lots) {
    if (left <= 0) break;
    const take = Math.min(left, lot.contracts);
    slices.push({ contracts: take, loanPerContract: lot.loanPerContract });
    left -= take;
  }
  return slices;
}

/** The highest knockout among the lots a close of `contracts` (oldest first) leaves. */
function remainingKnockout(lots: readonly LotRec[], contracts: number): string | undefined {
  let left = contracts;
  let best: Dec | undefined;
  for (const lot of lots) {
    const take = Math.min(left, lot.contracts);
    left -= take;
    if (take === lot.contracts) continue;
    if (lot.knockout !== undefined && (best === undefined || best.lt(lot.knockout))) {
      best = dec(lot.knockout);
    }
  }
  return best === undefined ? undefined : price(best);
}

function overCapacity(qty: string, capacity: number, outcome: string): ApiError {
  return bad(`qty: ${qty} exceeds the exchange capacity of ${capacity} contracts on ${outcome}`);
}

function orderView(rec: OrderRec): Order {
  const v = { ...rec.order };
  if (v.error !== undefined) v.error = { ...v.error };
  return v;
}
