/**
 * Opening the store as the app and the CLI do: checked first, backed up before a migration, and
 * rebuilt when damaged.
 *
 * - The file is checked with quick_check (on a worker thread: about a second for a million
 *   settlements). A file SQLite cannot read (SQLITE_NOTADB, SQLITE_CORRUPT) or that fails the
 *   check is moved aside with its -wal/-shm (integrity.ts), a fresh store is created and the
 *   local-only data comes back from the newest backup that passes its own check (recover.ts).
 * - A store of an older schema is backed up (labelled with its version) before it is migrated;
 *   when that backup cannot be made, nothing is migrated and the store is refused in words.
 * - A store written by a newer Betdesk is refused with NewerSchemaError, as before: it is not
 *   damaged, and is left untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { backupFolderOf, backupStore, latestGoodBackup } from './backup.js';
import { openWriter } from './connection.js';
import { NewerSchemaError, StoreError } from './errors.js';
import { checkFile, isCorruption, moveAside } from './integrity.js';
import { latestVersion, runMigrations, schemaVersion } from './migrations/index.js';
import { restoreLocalData, type RestoredRows } from './recover.js';
import { openStore, Store, type StoreOptions } from './store.js';

/** What was done about a damaged store file, for telling the user. */
export interface StoreRecovery {
  /** When it was found, local clock. */
  readonly at: number;
  /** What SQLite said about the file. */
  readonly damage: string;
  /** Where the damaged file now is (its -wal/-shm beside it). */
  readonly movedTo: string;
  /** The backup the local-only data came from; absent when there was no good one. */
  readonly restoredFrom?: { file: string; takenAt: number; rows: RestoredRows };
  /** Newer backups that failed their check, and why. */
  readonly skippedBackups: readonly { file: string; reason: string }[];
}

export interface CheckedStoreOptions extends StoreOptions {
  /** Default: `backups` beside the store file. */
  backupDir?: string;
}

export interface CheckedStore {
  store: Store;
  backupDir: string;
  recovery?: StoreRecovery;
}

/**
 * Opens (creating if needed) the store at `file`: checked, migrated after a backup, or rebuilt.
 * @throws NewerSchemaError when the file was written by a newer Betdesk (untouched).
 * @throws StoreError when the backup before a migration could not be made (untouched).
 */
export async function openCheckedStore(
  file: string,
  options: CheckedStoreOptions = {},
): Promise<CheckedStore> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const backupDir = options.backupDir ?? backupFolderOf(file);
  let damage = fs.existsSync(file) ? await damageOf(file, options.nativeBinding) : undefined;
  if (damage === undefined) {
    try {
      return { store: await openMigrated(file, backupDir, options), backupDir };
    } catch (err) {
      if (!isCorruption(err)) throw err;
      damage = (err as Error).message;
    }
  }
  return { ...(await rebuild(file, damage, backupDir, options)), backupDir };
}

/** Why `file` is taken for damaged; undefined when it is sound. */
async function damageOf(file: string, nativeBinding?: string): Promise<string | undefined> {
  try {
    return await checkFile(file, nativeBinding);
  } catch (err) {
    if (isCorruption(err)) return (err as Error).message;
    throw err;
  }
}

async function openMigrated(
  file: string,
  backupDir: string,
  options: CheckedStoreOptions,
): Promise<Store> {
  const db = openWriter(file, options.nativeBinding);
  try {
    const from = schemaVersion(db);
    const known = latestVersion();
    if (from > known) throw new NewerSchemaError(from, known);
    if (from > 0 && from < known) {
      try {
        await backupStore(file, backupDir, {
          beforeMigrationOf: from,
          ...(options.now === undefined ? {} : { now: options.now }),
          ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
        });
      } catch (err) {
        if (isCorruption(err)) throw err;
        throw new StoreError(
          `Betdesk could not back up its store before upgrading it (${(err as Error).message}); ` +
            'nothing was changed. Free some disk space in ' +
            `${backupDir} and start Betdesk again.`,
          { cause: err },
        );
      }
    }
    runMigrations(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return new Store(file, db, options);
}

async function rebuild(
  file: string,
  damage: string,
  backupDir: string,
  options: CheckedStoreOptions,
): Promise<{ store: Store; recovery: StoreRecovery }> {
  const at = (options.now ?? Date.now)();
  const movedTo = moveAside(file, at);
  const store = openStore(file, options);
  try {
    const known = latestVersion();
    const { backup, skipped } = await latestGoodBackup(backupDir, known, options.nativeBinding);
    const restoredFrom = backup && {
      file: backup.file,
      takenAt: backup.takenAt,
      rows: restoreLocalData(store, backup.file, backupDir, options.nativeBinding),
    };
    const recovery: StoreRecovery = {
      at,
      damage,
      movedTo,
      skippedBackups: skipped,
      ...(restoredFrom ? { restoredFrom } : {}),
    };
    return { store, recovery };
  } catch (err) {
    store.close();
    throw err;
  }
}
