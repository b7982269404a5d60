/**
 * Realized P&L worked out again (docs/pnl.md, "The upgrade"): the SETTLEMENT rows worked out
 * before issue 28 took every knockout after all the orders, so a knockout between two trades
 * left some rows wrong or unknown. This opens the backfill's queue (`realized_backfill`,
 * migration 006) over every SETTLEMENT row; the backfill works each out again by the method of
 * src/main/pnl/replay.ts, after the store is open, with the progress History shows. A queue
 * still open from migration 006 is restarted from the first row, which covers it.
 */
import type { Db } from '../connection.js';

export const version = 10;
export const name = 'realized P&L, again';

export function up(db: Db): void {
  db.exec(`
    DELETE FROM realized_backfill;
    INSERT INTO realized_backfill SELECT 0, max(id) FROM settlements
      WHERE type = 'SETTLEMENT' HAVING count(*) > 0;
  `);
}
