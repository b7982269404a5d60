/** Named app settings (e.g. the active account): a few short values, never a secret. */
import { StatementCache, type Db } from '../connection.js';

/**
 * Settings that belong to one account, kept under "<name>.<accountId>". They go with the account
 * (AccountsRepo.remove), so an account added later under a reused id starts from the defaults.
 */
export const ACCOUNT_SETTINGS = ['alerts', 'guards'] as const;
export type AccountSettingName = (typeof ACCOUNT_SETTINGS)[number];

export function accountSettingKey(name: AccountSettingName, accountId: number): string {
  return `${name}.${accountId}`;
}

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

  /** Removes every setting of the account (ACCOUNT_SETTINGS). */
  deleteAccountSettings(accountId: number): void {
    for (const name of ACCOUNT_SETTINGS) this.delete(accountSettingKey(name, accountId));
  }
}
