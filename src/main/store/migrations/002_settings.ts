/**
 * App settings: small named values the app remembers between runs (which account is active).
 * Never a secret: those live in the OS keychain.
 */
import type { Db } from '../connection.js';

export const version = 2;
export const name = 'settings';

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE settings (
      key         TEXT PRIMARY KEY,
      value       TEXT NOT NULL,
      updated_at  INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
  `);
}
