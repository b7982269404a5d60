/** Rows written the way versions 1 to 3 of the store wrote them, for the upgrade tests. */
import type Database from 'better-sqlite3';
import type { Settlement } from '../../../src/shared/api/schemas.js';

/**
 * Settlements as versions 1 to 3 stored them: the amounts as strings only (version 4 added
 * them in micros). Row i goes to account `accountOf(i)` with dedup key [i].
 */
export function insertOldSettlements(
  db: Database.Database,
  rows: readonly Settlement[],
  accountOf: (i: number) => number = () => 1,
): void {
  const insert = db.prepare(
    `INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
       price, pnl, payout, tx, timestamp, timestamp_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  rows.forEach((s, i) =>
    insert.run(
      accountOf(i),
      Buffer.from([i]),
      s.type,
      s.contractId,
      s.outcome,
      s.contracts,
      s.price ?? null,
      s.pnl ?? null,
      s.payout ?? null,
      s.tx,
      s.timestamp,
      Date.parse(s.timestamp),
    ),
  );
}
