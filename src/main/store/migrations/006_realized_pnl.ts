/**
 * Placeholder reserved for issue 18 (filled in by its own change before release): realized_pnl.
 */
import type { Db } from '../connection.js';

export const version = 6;
export const name = 'realized_pnl';

export function up(db: Db): void {
  void db;
}
