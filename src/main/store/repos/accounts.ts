/**
 * Exchange accounts the user has added. Only what is safe to keep on disk lives here: the API
 * key id is public, the secret is kept by the OS keychain under the account id and never
 * reaches this table (it has no column that could hold it).
 */
import { camelCased } from '../columns.js';
import { StatementCache, type Db } from '../connection.js';
import { isSqliteCode, StoreError } from '../errors.js';
import { orNull } from '../paging.js';
import type { SettingsRepo } from './settings.js';

export type Permission = 'read' | 'trade';

export interface Account {
  id: number;
  label: string;
  baseUrl: string;
  /** The API key id sent in the key header; not a secret. */
  apiKey: string;
  /** What the key may do, once learnt from the exchange; null until then. */
  permission: Permission | null;
  wallet: string | null;
  /** A paper account trades against the local sandbox exchange. */
  isPaper: boolean;
  createdAt: number;
}

export interface NewAccount {
  label: string;
  baseUrl: string;
  apiKey: string;
  permission?: Permission | null;
  wallet?: string | null;
  isPaper?: boolean;
}

export type AccountPatch = Partial<NewAccount>;

interface AccountRow {
  id: number;
  label: string;
  base_url: string;
  api_key: string;
  permission: Permission | null;
  wallet: string | null;
  is_paper: number;
  created_at: number;
}

function toAccount(r: AccountRow): Account {
  return { ...camelCased(r), isPaper: r.is_paper === 1 };
}

export class AccountsRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;
  readonly #now: () => number;
  readonly #settings: SettingsRepo;

  constructor(db: Db, now: () => number, settings: SettingsRepo) {
    this.#db = db;
    this.#sql = new StatementCache(db);
    this.#now = now;
    this.#settings = settings;
  }

  /** @throws StoreError when the label is taken. */
  create(a: NewAccount): Account {
    // Fields are picked one by one: whatever else the caller's object carries (a secret typed
    // into the same form, say) is never written.
    try {
      return this.#db.transaction(() => {
        const account = this.#insert(a);
        // An id can be reused (the last account removed): settings a store of an older Betdesk
        // left behind for it are not this account's.
        this.#settings.deleteAccountSettings(account.id);
        return account;
      })();
    } catch (err) {
      if (isSqliteCode(err, 'SQLITE_CONSTRAINT_UNIQUE')) {
        throw new StoreError(`An account named "${a.label}" already exists.`, { cause: err });
      }
      throw err;
    }
  }

  #insert(a: NewAccount): Account {
    const row = this.#sql
      .get(
        `INSERT INTO accounts (label, base_url, api_key, permission, wallet, is_paper, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        a.label,
        a.baseUrl,
        a.apiKey,
        orNull(a.permission),
        orNull(a.wallet),
        a.isPaper ? 1 : 0,
        this.#now(),
      ) as AccountRow;
    return toAccount(row);
  }

  get(id: number): Account | undefined {
    const row = this.#sql.get('SELECT * FROM accounts WHERE id = ?').get(id) as
      AccountRow | undefined;
    return row && toAccount(row);
  }

  getByLabel(label: string): Account | undefined {
    const row = this.#sql.get('SELECT * FROM accounts WHERE label = ?').get(label) as
      AccountRow | undefined;
    return row && toAccount(row);
  }

  /** Every account, in the order they were added. */
  list(): Account[] {
    return (this.#sql.get('SELECT * FROM accounts ORDER BY id').all() as AccountRow[]).map(
      toAccount,
    );
  }

  /** Changes the given fields; returns the account as stored, or undefined when unknown. */
  update(id: number, patch: AccountPatch): Account | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next = { ...current, ...definedOnly(patch) };
    try {
      this.#sql
        .get(
          `UPDATE accounts SET label = ?, base_url = ?, api_key = ?, permission = ?, wallet = ?,
             is_paper = ? WHERE id = ?`,
        )
        .run(
          next.label,
          next.baseUrl,
          next.apiKey,
          next.permission ?? null,
          next.wallet ?? null,
          next.isPaper ? 1 : 0,
          id,
        );
    } catch (err) {
      if (isSqliteCode(err, 'SQLITE_CONSTRAINT_UNIQUE')) {
        throw new StoreError(`An account named "${next.label}" already exists.`, { cause: err });
      }
      throw err;
    }
    return this.get(id);
  }

  /**
   * Removes the account and, by cascade, everything kept of it: order intents, orders,
   * settlements, position snapshots, sync cursors, alerts; and its settings (alert settings),
   * in one transaction. The Accounts screen says so before the removal is confirmed.
   */
  remove(id: number): boolean {
    return this.#db.transaction(() => {
      this.#settings.deleteAccountSettings(id);
      return this.#sql.get('DELETE FROM accounts WHERE id = ?').run(id).changes === 1;
    })();
  }
}

function definedOnly(patch: AccountPatch): Partial<Account> {
  const out: Partial<Account> = {};
  if (patch.label !== undefined) out.label = patch.label;
  if (patch.baseUrl !== undefined) out.baseUrl = patch.baseUrl;
  if (patch.apiKey !== undefined) out.apiKey = patch.apiKey;
  if (patch.permission !== undefined) out.permission = patch.permission;
  if (patch.wallet !== undefined) out.wallet = patch.wallet;
  if (patch.isPaper !== undefined) out.isPaper = patch.isPaper;
  return out;
}
