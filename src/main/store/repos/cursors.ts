/**
 * Where each sync stream of an account left off: for `orders` the GET /orders/updates cursor
 * (exchange clock, ms); other streams keep whatever integer their sync needs.
 */
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';

export type SyncStream = 'orders' | 'settlements' | 'positions' | 'fixtures' | (string & {});

export interface SyncCursor {
  cursor: number;
  /** Local time of the sync that stored it. */
  lastSyncAt: number;
}

export class CursorsRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  get(accountId: number, stream: SyncStream): SyncCursor | undefined {
    const row = this.#sql
      .get(
        `SELECT cursor, last_sync_at AS lastSyncAt FROM sync_cursors
         WHERE account_id = ? AND stream = ?`,
      )
      .get(accountId, stream) as SyncCursor | undefined;
    return row;
  }

  /** Stores the cursor as given (a deliberate replay may move it back). */
  set(accountId: number, stream: SyncStream, cursor: number, at: number): void {
    this.#sql
      .get(
        `INSERT INTO sync_cursors (account_id, stream, cursor, last_sync_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (account_id, stream) DO UPDATE SET cursor = excluded.cursor,
           last_sync_at = excluded.last_sync_at`,
      )
      .run(accountId, stream, cursor, at);
  }

  /** Forgets the stream's cursor: the next sync starts from the beginning. */
  reset(accountId: number, stream: SyncStream): void {
    this.#sql
      .get('DELETE FROM sync_cursors WHERE account_id = ? AND stream = ?')
      .run(accountId, stream);
  }
}
