/**
 * Placeholder reserved for issue 18 (filled in by its own change before release): price_history.
 */
import type { Db } from '../connection.js';

export const version = 8;
export const name = 'price_history';

export function up(db: Db): void {
  void db;
}
