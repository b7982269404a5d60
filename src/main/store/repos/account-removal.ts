/**
 * What the store deletes with an account (AccountsRepo.remove: the cascade and its settings),
 * counted, so the confirmation names everything before anything goes (shared/rules/account-removal.ts).
 */
import type { RemovalCounts } from '../../../shared/rules/account-removal.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';

/** One count per kind, each an indexed read of the account's rows. */
const COUNTS_SQL = `SELECT
  (SELECT count(*) FROM guard_rules WHERE account_id = $a AND state IN ('armed', 'firing'))
    AS armedRules,
  (SELECT count(*) FROM guard_rules WHERE account_id = $a AND state NOT IN ('armed', 'firing'))
    AS otherRules,
  (SELECT count(*) FROM guard_log WHERE account_id = $a) AS guardLogLines,
  (SELECT count(*) FROM orders WHERE account_id = $a)
    + (SELECT count(*) FROM order_intents WHERE account_id = $a AND state <> 'done') AS orders,
  (SELECT count(*) FROM settlements WHERE account_id = $a) AS settlements,
  (SELECT count(*) FROM position_snapshots WHERE account_id = $a) AS positions,
  (SELECT count(*) FROM alerts WHERE account_id = $a) AS alerts,
  (SELECT count(*) FROM price_series WHERE account_id = $a) AS priceSeries,
  (SELECT count(*) FROM price_points p JOIN price_series s ON s.id = p.series_id
     WHERE s.account_id = $a)
    + (SELECT count(*) FROM price_buckets b JOIN price_series s ON s.id = b.series_id
     WHERE s.account_id = $a) AS pricePoints,
  (SELECT count(*) FROM equity_points WHERE account_id = $a) AS equityPoints,
  (SELECT count(*) FROM fixtures WHERE account_id = $a) AS fixtures`;

export class AccountRemovalRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /** What removing the account would delete. */
  counts(accountId: number): RemovalCounts {
    return this.#sql.get(COUNTS_SQL).get({ a: accountId }) as RemovalCounts;
  }
}
