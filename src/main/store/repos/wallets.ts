/**
 * Which exchange accounts read one wallet (docs/portfolio.md, "One wallet, two keys"). The API has
 * no endpoint that names a key's wallet, but a wallet's orders are the same orders whichever of
 * its keys reads them: two accounts on one exchange that hold an order with the same orderId and
 * clientOrderId read the same wallet. Worked out from the store each time it is asked, so it
 * follows every sync, add and removal; a wallet with no order yet is not recognised (there is
 * nothing of it to count twice either).
 *
 * Cheap at any size: only each account's newest orders are looked up in the other's (index
 * probes). Two complete syncs of one wallet hold each other's newest orders: the account synced
 * earlier holds no order the later one lacks.
 */
import { StatementCache, type Db } from '../connection.js';

/** How many of an account's newest orders are looked up in another account's. */
export const WALLET_PROBE_ORDERS = 32;

/** Accounts (store ids, ascending) that read one wallet; always two or more. */
export type SharedWallet = readonly number[];

export class WalletsRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /**
   * The exchange accounts on `baseUrl` (other than `except`) that hold any of the orders, by
   * orderId and clientOrderId: the accounts a new key with these newest orders shares a wallet
   * with.
   */
  holders(
    baseUrl: string,
    orders: readonly { orderId: string; clientOrderId: string }[],
    except?: number,
  ): number[] {
    const found = new Set<number>();
    const stmt = this.#sql.get(
      `SELECT a.id FROM accounts a JOIN orders o ON o.account_id = a.id
       WHERE a.base_url = ? AND a.is_paper = 0 AND a.id IS NOT ?
         AND o.order_id = ? AND o.client_order_id = ?`,
    );
    for (const o of orders.slice(0, WALLET_PROBE_ORDERS)) {
      for (const row of stmt.all(baseUrl, except ?? null, o.orderId, o.clientOrderId)) {
        found.add((row as { id: number }).id);
      }
    }
    return [...found].sort((x, y) => x - y);
  }

  /** Every group of exchange accounts that read one wallet, first added first. */
  groups(): SharedWallet[] {
    const accounts = this.#sql
      .get('SELECT id, base_url AS baseUrl FROM accounts WHERE is_paper = 0 ORDER BY id')
      .all() as { id: number; baseUrl: string }[];
    // Union-find over the pairs on one exchange that share an order.
    const root = new Map(accounts.map((a) => [a.id, a.id]));
    const find = (id: number): number => {
      let r = id;
      while (root.get(r) !== r) r = root.get(r)!;
      root.set(id, r);
      return r;
    };
    for (let i = 0; i < accounts.length; i++) {
      for (let j = i + 1; j < accounts.length; j++) {
        const [x, y] = [accounts[i]!, accounts[j]!];
        if (x.baseUrl !== y.baseUrl || find(x.id) === find(y.id)) continue;
        if (this.#shares(x.id, y.id) || this.#shares(y.id, x.id)) {
          root.set(find(y.id), find(x.id));
        }
      }
    }
    const byRoot = new Map<number, number[]>();
    for (const a of accounts) {
      const r = find(a.id);
      byRoot.set(r, [...(byRoot.get(r) ?? []), a.id]);
    }
    return [...byRoot.values()].filter((g) => g.length > 1);
  }

  /** The accounts that read the same wallet as `accountId`, not counting it; [] when none. */
  sameWalletAs(accountId: number): number[] {
    const group = this.groups().find((g) => g.includes(accountId));
    return group ? group.filter((id) => id !== accountId) : [];
  }

  /** Whether one of `a`'s newest orders is also `b`'s. */
  #shares(a: number, b: number): boolean {
    const row = this.#sql
      .get(
        `SELECT 1 FROM (
           SELECT order_id, client_order_id FROM orders INDEXED BY orders_by_created
           WHERE account_id = ? ORDER BY created_at DESC LIMIT ${WALLET_PROBE_ORDERS}
         ) n
         JOIN orders o ON o.account_id = ? AND o.order_id = n.order_id
           AND o.client_order_id = n.client_order_id
         LIMIT 1`,
      )
      .get(a, b);
    return row !== undefined;
  }
}
