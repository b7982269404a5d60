/** Named app settings (e.g. the active account): a few short values, never a secret. */
import { StatementCache, type Db } from '../connection.js';

export class SettingsRepo {
  readonly #sql: StatementCache;
  readonly #now: () => number;

  constructor(db: Db, now: () => number) {
    this.#sql = new StatementCache(db);
    this.#now = now;
  }

  get(key: string): string | undefined {
    return this.#sql.get('SELECT value FROM settings WHERE key = ?').pluck().get(key) as
      string | undefined;
  }

  set(key: string, value: string): void {
    this.#sql
      .get(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(key, value, this.#now());
  }

  /** False when there was no such setting. */
  delete(key: string): boolean {
    return this.#sql.get('DELETE FROM settings WHERE key = ?').run(key).changes === 1;
  }
}
