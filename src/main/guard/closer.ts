/**
 * A guardian's close, once claimed: a MARKET SELL of the rule's share through the trading service
 * (its own clientOrderId, the order intent written before the request, the exchange's dedup by
 * that id), followed to its end, and said in the log and in a `guard` alert. A refusal ends the
 * rule (failed, in words) and is never retried in a loop; an unknown fate stays `firing` and is
 * looked up again later under the same id. After a restart a claimed close is sent again under
 * its clientOrderId only when the exchange has no order for it (docs/guardians.md).
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import { isFinalStatus, type Order } from '../../shared/api/schemas.js';
import type { GuardLogEvent } from '../../shared/ipc/contract.js';
import { dec, formatUsd } from '../../shared/money.js';
import { silentLogger, type Logger } from '../../shared/log.js';
import { fixtureName } from '../desk/rows.js';
import type { GuardLogEntry, GuardRule, Store } from '../store/index.js';
import {
  NOT_PLACED_CODE,
  type OrderOutcome,
  type OutcomeError,
  type TradingService,
} from '../trading/index.js';
import { outcomeOfOrder } from '../trading/outcome.js';
import { contractsText, positionText, ruleText } from './messages.js';

export interface CloserOptions {
  store: Store;
  accountId: number;
  trading: Pick<TradingService, 'placeOrder' | 'waitForFinal'>;
  logger?: Logger;
  now: () => number;
  /** A `guard` alert was stored. */
  onAlert?: (alertId: number) => void;
  /** A rule's close moved on: the view may have changed. */
  changed: () => void;
  /** A close filled: the positions moved. */
  closed?: () => void;
  /** A guardian log row was written (`cli sync` prints it). */
  onLog?: (row: GuardLogEntry) => void;
}

/** An error as the end of a sentence. */
function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/[.\s]+$/, '');
}

/** First wait before an unknown fate is looked up again, ms; doubles up to RECHECK_MAX_MS. */
const RECHECK_MS = 5000;
const RECHECK_MAX_MS = 60_000;

export class GuardCloser {
  readonly #o: CloserOptions;
  readonly #log: Logger;
  /** Closes being sent or followed in this process, by rule id. */
  readonly #running = new Map<number, Promise<void>>();
  /** When an unknown fate may be looked up again, by rule id. */
  readonly #recheck = new Map<number, { at: number; waitMs: number }>();
  readonly #abort = new AbortController();
  #stopped = false;

  constructor(opts: CloserOptions) {
    this.#o = opts;
    this.#log = opts.logger ?? silentLogger;
  }

  isRunning(ruleId: number): boolean {
    return this.#running.has(ruleId);
  }

  /**
   * Sends (or sends again under the same clientOrderId) the close of a firing rule and follows
   * it; one run per rule at a time. `resume`: claimed before this process started.
   */
  run(ruleId: number, resume: boolean): void {
    if (this.#stopped || this.#running.has(ruleId)) return;
    this.#recheck.delete(ruleId);
    const p = this.#run(ruleId, resume)
      .catch((err: unknown) => {
        if (this.#abort.signal.aborted) return;
        this.#log.warn('a guardian close could not be followed', {
          ruleId,
          reason: reasonOf(err),
        });
      })
      .finally(() => {
        this.#running.delete(ruleId);
        this.#o.changed();
      });
    this.#running.set(ruleId, p);
  }

  /**
   * A firing rule this process is not running: finished when the store shows its order's end
   * (the sync stored it, or another process sent it); when this process owns it, sent again
   * once a wait for an unknown fate is over.
   */
  follow(rule: GuardRule, mine: boolean): void {
    if (this.#running.has(rule.id) || rule.clientOrderId === null) return;
    const order = this.#order(rule);
    if (order !== undefined) {
      if (isFinalStatus(order.status)) this.#final(rule, order);
      return;
    }
    if (!mine) return;
    const due = this.#recheck.get(rule.id);
    if (due === undefined || due.at <= this.#o.now()) this.run(rule.id, false);
  }

  /** Resolves when no close is being sent or followed. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  /** Stops following (the intents stay; the next start resumes them) and waits for sends. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    await this.idle();
  }

  // ------------------------------------------------------------------ sending

  async #run(ruleId: number, resume: boolean): Promise<void> {
    const { store } = this.#o;
    const rule = store.guards.get(ruleId);
    if (rule?.state !== 'firing' || rule.clientOrderId === null || rule.contracts === null) return;
    const id = rule.clientOrderId;
    if (store.intents.get(id) === undefined) {
      const refusal = this.#knownRefusal(rule);
      if (refusal) return this.#failed(rule, refusal);
    }
    const params = {
      type: 'MARKET',
      contractId: rule.contractId,
      outcome: rule.outcome,
      side: 'SELL',
      qty: String(rule.contracts),
      unit: 'BASE',
      clientOrderId: id,
    };
    let outcome = await this.#place(rule, params);
    if (outcome === undefined) return;
    // Claimed before a restart, and the exchange has no order for it: send it now, once.
    if (resume && outcome.status === 'NOT_PLACED' && store.intents.reopen(id)) {
      this.#log.info('a guardian close claimed before a restart is sent again', { ruleId });
      outcome = await this.#place(rule, params);
      if (outcome === undefined) return;
    }
    await this.#settle(rule, outcome);
  }

  /** placeOrder; a throw before anything could be sent fails the rule, after it leaves it firing. */
  async #place(
    rule: GuardRule,
    params: Parameters<TradingService['placeOrder']>[0],
  ): Promise<OrderOutcome | undefined> {
    try {
      return await this.#o.trading.placeOrder(params);
    } catch (err) {
      const intent = this.#o.store.intents.get(rule.clientOrderId ?? '');
      if (intent !== undefined && intent.state !== 'failed') {
        this.#log.warn('a guardian close is not settled yet', {
          ruleId: rule.id,
          reason: reasonOf(err),
        });
        this.#later(rule.id);
        return undefined;
      }
      this.#failed(rule, { code: 'INTERNAL', message: `${reasonOf(err)}.` });
      return undefined;
    }
  }

  async #settle(rule: GuardRule, outcome: OrderOutcome): Promise<void> {
    const order = outcome.order;
    if (order !== undefined) {
      this.#sent(rule, order);
      if (isFinalStatus(order.status)) return this.#final(rule, order);
      if (this.#stopped) return;
      const final = await this.#o.trading.waitForFinal(order.orderId, {
        signal: this.#abort.signal,
      });
      // Still not final after the wait: the orders sync brings its end (follow()).
      if (final.order !== undefined && isFinalStatus(final.order.status)) {
        this.#final(rule, final.order);
      }
      return;
    }
    if (outcome.status === 'NOT_PLACED') {
      return this.#failed(rule, outcome.error ?? { code: NOT_PLACED_CODE, message: '' });
    }
    // UNKNOWN: the intent stays open; looked up again under the same id later.
    this.#later(rule.id);
  }

  #later(ruleId: number): void {
    const before = this.#recheck.get(ruleId)?.waitMs ?? RECHECK_MS / 2;
    const waitMs = Math.min(RECHECK_MAX_MS, before * 2);
    this.#recheck.set(ruleId, { at: this.#o.now() + waitMs, waitMs });
  }

  /** What the store already knows the exchange would refuse: nothing is sent. */
  #knownRefusal(rule: GuardRule): OutcomeError | undefined {
    const { store, accountId } = this.#o;
    if (store.accounts.get(accountId)?.permission === 'read') {
      return {
        code: 'READ_ONLY',
        message:
          'This account’s API key may only read, so the close was not sent. Add a key with trade permission in Accounts.',
      };
    }
    const f = store.fixtures.get(accountId, rule.contractId);
    if (f !== undefined && (!f.bettingOpen || f.status !== 'OPEN')) {
      return {
        code: ErrorCodes.MARKET_CLOSED,
        message: `Betting on ${f.homeTeam} v ${f.awayTeam} is closed, so the close was not sent.`,
      };
    }
    return undefined;
  }

  #order(rule: GuardRule): Order | undefined {
    const { store, accountId } = this.#o;
    return (
      (rule.orderId !== null ? store.orders.getByOrderId(accountId, rule.orderId) : undefined) ??
      (rule.clientOrderId !== null
        ? store.orders.getByClientOrderId(accountId, rule.clientOrderId)
        : undefined)
    );
  }

  // ------------------------------------------------------------------ saying what happened

  #where(rule: GuardRule): string {
    return positionText(rule.outcome, fixtureName(this.#o.store, rule.accountId, rule.contractId));
  }

  /** The exchange accepted the close: its order id, logged once. */
  #sent(rule: GuardRule, order: Order): void {
    const { store } = this.#o;
    const stored = store.guards.get(rule.id);
    if (stored === undefined || stored.orderId !== null) return;
    const row = store.transaction(() => {
      store.guards.setOrderId(rule.id, order.orderId);
      return this.#logRow(rule, 'sent', {
        message: `Sent: the exchange accepted the close of ${contractsText(rule.contracts ?? 0)} of ${this.#where(rule)} (order ${order.orderId}).`,
        orderId: order.orderId,
      });
    });
    this.#o.onLog?.(row);
    this.#o.changed();
  }

  #final(rule: GuardRule, order: Order): void {
    if (order.status !== 'FILLED') {
      const error = outcomeOfOrder(order).error ?? {
        code: order.status,
        message: `The order ended ${order.status}.`,
      };
      return this.#failed(rule, error, order.orderId);
    }
    const { store } = this.#o;
    const at = this.#o.now();
    const sold = `${contractsText(order.contracts)} of ${this.#where(rule)} at ${order.entryPrice}`;
    // A boosted bet sold at or below its loan returns nothing: said, so $0.00 is not a mystery.
    const gone =
      order.proceeds !== undefined && dec(order.proceeds).isZero() && rule.spec.kind === 'knockout'
        ? ' (what it fetched went to repay the boost’s loan)'
        : '';
    const proceeds =
      order.proceeds !== undefined ? `, proceeds ${formatUsd(order.proceeds)}${gone}` : '';
    const message = `Closed: sold ${sold}${proceeds}. The ${ruleText(rule.spec)} did its work.`;
    const done = store.transaction(() => {
      if (!store.guards.finish(rule.id, ['firing'], 'closed', at, `sold ${sold}`)) return null;
      if (rule.orderId === null) store.guards.setOrderId(rule.id, order.orderId);
      const row = this.#logRow(rule, 'filled', { message, orderId: order.orderId });
      return { row, alertId: this.#alert(rule, 'filled', message, order.orderId) };
    });
    this.#o.closed?.();
    this.#announce(done);
  }

  #failed(rule: GuardRule, error: OutcomeError, orderId?: string): void {
    const { store } = this.#o;
    const at = this.#o.now();
    const reason = error.message.trim() || 'The exchange did not place it.';
    // Advice to arm it again only where there is still something held to guard.
    const held = store.positions
      .list(rule.accountId, { contractId: rule.contractId, team: rule.outcome })
      .some((p) => p.outcome === rule.outcome && p.contracts > 0);
    const next = held
      ? 'It stops here; arm it again to try again.'
      : 'Nothing of the position is held any more, so there is nothing left to guard.';
    const message = `Not closed: the ${ruleText(rule.spec)} on ${this.#where(rule)} could not sell. ${reason} ${next}`;
    const done = store.transaction(() => {
      if (!store.guards.finish(rule.id, ['firing'], 'failed', at, reason)) return null;
      const row = this.#logRow(rule, 'failed', {
        message,
        orderId: orderId ?? null,
        errorCode: typeof error.code === 'number' ? error.code : null,
      });
      return { row, alertId: this.#alert(rule, 'failed', message, orderId ?? null) };
    });
    this.#announce(done);
  }

  #logRow(
    rule: GuardRule,
    event: GuardLogEvent,
    e: { message: string; orderId?: string | null; errorCode?: number | null },
  ): GuardLogEntry {
    return this.#o.store.guards.log({
      accountId: rule.accountId,
      ruleId: rule.id,
      at: this.#o.now(),
      kind: rule.spec.kind,
      contractId: rule.contractId,
      outcome: rule.outcome,
      event,
      message: e.message,
      observation: rule.observation,
      contracts: rule.contracts,
      clientOrderId: rule.clientOrderId,
      orderId: e.orderId ?? rule.orderId,
      errorCode: e.errorCode ?? null,
    });
  }

  #alert(rule: GuardRule, event: string, message: string, orderId: string | null): number | null {
    return (
      this.#o.store.alerts.insertOnce({
        accountId: rule.accountId,
        kind: 'guard',
        contractId: rule.contractId,
        outcome: rule.outcome,
        orderId,
        message,
        dedupKey: `guard|${event}|${rule.id}`,
        createdAt: this.#o.now(),
      })?.id ?? null
    );
  }

  /** After the rule's end committed: its log row and alert go out. */
  #announce(done: { row: GuardLogEntry; alertId: number | null } | null): void {
    if (done !== null) {
      this.#o.onLog?.(done.row);
      if (done.alertId !== null) this.#o.onAlert?.(done.alertId);
    }
    this.#o.changed();
  }
}
