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
 * - The migrations of an older store run on a worker thread (migrate-worker.ts), so the main
 *   thread keeps serving the window meanwhile; each phase (checking, backing up, upgrading,
 *   rebuilding) is told to `report` with how far it is (docs/data.md, "Start").
 */
import fs from 'node:fs';
import path from 'node:path';
import { backupFolderOf, backupStore, latestGoodBackup } from './backup.js';
import { openWriter } from './connection.js';
import { NewerSchemaError, StoreError } from './errors.js';
import { checkFile, isCorruption, moveAside } from './integrity.js';
import type { StartReport } from '../start/index.js';
import { migrateFile } from './migrate-worker.js';
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
  /** Told each phase of the opening and how far it is (the start screen, stderr). */
  report?: StartReport;
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
  const report = options.report ?? (() => {});
  let damage: string | undefined;
  if (fs.existsSync(file)) {
    report({ phase: 'checking', message: 'Checking your store…' });
    damage = await damageOf(file, options.nativeBinding);
  }
  if (damage === undefined) {
    try {
      return { store: await openMigrated(file, backupDir, options), backupDir };
    } catch (err) {
      if (!isCorruption(err)) throw err;
      damage = (err as Error).message;
    }
  }
  report({
    phase: 'rebuilding',
    message: 'Your store is damaged: setting it aside and rebuilding it from the newest backup…',
  });
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
  const report = options.report ?? (() => {});
  let db = openWriter(file, options.nativeBinding);
  try {
    const from = schemaVersion(db);
    const known = latestVersion();
    if (from > known) throw new NewerSchemaError(from, known);
    if (from > 0 && from < known) {
      const backingUp = 'Backing up your store before upgrading it…';
      report({ phase: 'backing-up', message: backingUp });
      let percent = -1;
      try {
        await backupStore(file, backupDir, {
          beforeMigrationOf: from,
          ...(options.now === undefined ? {} : { now: options.now }),
          ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
          // Once per percent, not per step of pages: each report goes to every window.
          onProgress: ({ done, total }) => {
            const now = total === 0 ? 100 : Math.floor((done * 100) / total);
            if (now === percent) return;
            percent = now;
            report({ phase: 'backing-up', message: backingUp, done, total, unit: 'pages' });
          },
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
      // Off this thread: the worker opens the file, migrates it and closes it; then it is
      // opened here again, migrated.
      db.close();
      await migrateFile(file, {
        ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
        onStep: ({ step, steps, name }) =>
          report({
            phase: 'upgrading',
            message: `Upgrading your store: step ${step} of ${steps} (${name})`,
            done: step - 1,
            total: steps,
            unit: 'steps',
          }),
      });
      db = openWriter(file, options.nativeBinding);
    }
    // A new store (and one another process upgraded meanwhile): nothing or little to do here.
    runMigrations(db);
  } catch (err) {
    if (db.open) db.close();
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
