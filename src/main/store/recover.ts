/**
 * Bringing a fresh store's local-only data back from a backup, after the store was found
 * damaged. What the exchange holds is not taken from the backup: the sync cursors start empty,
 * so the first sync reads orders, settlements, positions and fixtures again.
 *
 * Per table:
 * - accounts: restored. Only here (labels, base URLs, key ids, the paper wallet), and the
 *   keychain keeps each secret under the account's id, so ids are kept as they were.
 * - settings: restored (the active account, desk and alert settings, one-time notices).
 * - order_intents: restored. An open intent is the only record of a bet that may be on the
 *   exchange; with it, reconciliation runs at start and the order is found or said lost.
 * - alerts: restored. Alert history and read marks exist nowhere else, and keeping their dedup
 *   keys stops the first sync from raising alerts again for what was already said.
 * - orders, settlements (and their day counts and slots, kept by triggers), position_snapshots,
 *   fixtures: not restored; the exchange's record is read again, newer than any backup.
 * - sync_cursors: not restored, so that read starts from the beginning.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openWriter, type Db } from './connection.js';
import { removeDatabase } from './integrity.js';
import { runMigrations } from './migrations/index.js';
import type { Store } from './store.js';

/** The tables copied from a backup, parents first (the others refer to accounts). */
export const LOCAL_TABLES = ['accounts', 'settings', 'order_intents', 'alerts'] as const;
export type LocalTable = (typeof LOCAL_TABLES)[number];
export type RestoredRows = Record<LocalTable, number>;

/**
 * Copies the local-only tables of `backupFile` into `store`, which must be fresh (empty), in one
 * transaction. A backup of an older schema is migrated first, on a copy in `workDir`.
 */
export function restoreLocalData(
  store: Store,
  backupFile: string,
  workDir: string,
  nativeBinding?: string,
): RestoredRows {
  const copy = path.join(workDir, `restoring-${process.pid}-${Date.now()}.sqlite`);
  fs.copyFileSync(backupFile, copy);
  try {
    const db = openWriter(copy, nativeBinding);
    try {
      runMigrations(db);
    } finally {
      db.close();
    }
    store.db.prepare('ATTACH DATABASE ? AS backup').run(copy);
    try {
      return store.transaction(() => {
        const restored = {} as RestoredRows;
        for (const table of LOCAL_TABLES) {
          const cols = columnsOf(store.db, table)
            .map((c) => `"${c}"`)
            .join(', ');
          restored[table] = store.db
            .prepare(`INSERT INTO main.${table} (${cols}) SELECT ${cols} FROM backup.${table}`)
            .run().changes;
        }
        return restored;
      });
    } finally {
      store.db.exec('DETACH DATABASE backup');
    }
  } finally {
    removeDatabase(copy);
  }
}

function columnsOf(db: Db, table: LocalTable): string[] {
  return (db.pragma(`main.table_info(${table})`) as { name: string }[]).map((c) => c.name);
}
