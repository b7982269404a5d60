/**
 * Placeholder reserved for issue 18 (filled in by its own change before release): equity_points.
 */
import type { Db } from '../connection.js';

export const version = 7;
export const name = 'equity_points';

export function up(db: Db): void {
  void db;
}
