/**
 * Sells by hand, as the guardian sees them (docs/guardians.md, "Sells by hand"): one rule for
 * every path (the slip's Close…, `cli order --side SELL`, a SELL placed elsewhere and seen by
 * the sync, a close by the guardian of another key of the wallet: wallet-closes.ts). While a sell by hand of a position is under way, and until the positions are read
 * again after it, its rules wait, as they wait for another rule's close; then they judge what is
 * left: a partial sell keeps them on the rest (the share is of the contracts held when a rule
 * fires), and a sell of everything ends them once the positions no longer show it. Read from
 * the store, so a sell from another process on the same store counts the same.
 */
import { isFinalStatus } from '../../shared/api/schemas.js';
import type { Order } from '../../shared/api/schemas.js';
import type { Store } from '../store/index.js';
import { positionKey } from './figures.js';
import { walletClosing } from './wallet-closes.js';

/** The prefix of a guardian's clientOrderId: its SELLs are not sells by hand. */
export const GUARD_ORDER_PREFIX = 'bdg-';

/**
 * How long a sell announced by the desk (before its intent is written) counts as under way
 * without the store showing it: the intent is written within the same placement.
 */
const ANNOUNCED_MS = 5000;

/** Why a position's rules ended when a sell by hand emptied it. */
export const SOLD_BY_HAND = 'you sold it by hand';

/** The exchange's clock and ours may differ by this much (a fill near a positions read). */
const CLOCK_MARGIN_MS = 2000;

export class HandSells {
  readonly #store: Store;
  readonly #accountId: number;
  readonly #now: () => number;
  /** Sells the desk announced as it placed them, by position, with when. */
  readonly #announced = new Map<string, number>();

  constructor(store: Store, accountId: number, now: () => number) {
    this.#store = store;
    this.#accountId = accountId;
    this.#now = now;
  }

  /** The desk is placing a SELL of this position by hand (before its intent is written). */
  announce(contractId: string, outcome: string): void {
    this.#announced.set(positionKey(contractId, outcome), this.#now());
  }

  /**
   * A sell by hand of the rule's position is under way, or ended after the positions were last
   * read (so they may still count what it sold): the rule waits. Asked only when a rule wants
   * to fire, so a quiet evaluation reads nothing more.
   */
  blocks(rule: RuleOnPosition, snapshotAt: number | null): boolean {
    const key = positionKey(rule.contractId, rule.outcome);
    const announced = this.#announced.get(key);
    if (announced !== undefined) {
      if (this.#now() - announced <= ANNOUNCED_MS) return true;
      this.#announced.delete(key);
    }
    // Another key of the wallet's guardian closing it counts as a sell from elsewhere.
    if (walletClosing(this.#store, this.#accountId, rule, snapshotAt)) return true;
    const since = snapshotAt ?? 0;
    const sells = this.#sellsSince(rule);
    if (sells.some((o) => !isFinalStatus(o.status) || o.updatedAt + CLOCK_MARGIN_MS >= since)) {
      return true;
    }
    return this.#store.intents.listOpen(this.#accountId).some((i) => {
      if (i.state === 'failed' || i.clientOrderId.startsWith(GUARD_ORDER_PREFIX)) return false;
      const bet = (i.params as { bet?: IntentBet | null } | null)?.bet;
      return (
        bet?.side?.toUpperCase() === 'SELL' &&
        bet.contractId?.toUpperCase() === rule.contractId &&
        bet.outcome?.toUpperCase() === rule.outcome
      );
    });
  }

  /** The position went because a sell by hand since the rule was armed sold what was left. */
  soldWhole(rule: RuleOnPosition): boolean {
    const last = this.#store.orders.listBetween(
      this.#accountId,
      rule.contractId,
      rule.outcome,
      rule.armedAt - CLOCK_MARGIN_MS,
      Number.MAX_SAFE_INTEGER,
    );
    const newest = last[last.length - 1];
    return newest !== undefined && isHandSell(newest) && newest.status === 'FILLED';
  }

  /** The store learnt these orders: a hand sell's end frees its announcement. */
  seen(orders: readonly Order[]): void {
    for (const o of orders) {
      if (isHandSell(o) && isFinalStatus(o.status)) {
        this.#announced.delete(positionKey(o.contractId, o.outcome));
      }
    }
  }

  /** The sells by hand of the rule's position placed since it was armed. */
  #sellsSince(rule: RuleOnPosition): Order[] {
    return this.#store.orders
      .listBetween(
        this.#accountId,
        rule.contractId,
        rule.outcome,
        rule.armedAt - CLOCK_MARGIN_MS,
        Number.MAX_SAFE_INTEGER,
      )
      .filter(isHandSell);
  }
}

interface RuleOnPosition {
  contractId: string;
  outcome: string;
  armedAt: number;
}

interface IntentBet {
  contractId?: string;
  outcome?: string;
  side?: string;
}

function isHandSell(o: Order): boolean {
  return o.side === 'SELL' && !o.clientOrderId.startsWith(GUARD_ORDER_PREFIX);
}
