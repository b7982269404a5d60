/**
 * Where Betdesk keeps its local store and how every front end opens it: one file per data
 * folder (data-dir.ts), moved there once from where earlier versions kept it (store-move.ts),
 * checked, backed up and rebuilt when damaged (store/open.ts), with what was done said as notices
 * (store-notices.ts).
 */
import fs from 'node:fs';
import { join } from 'node:path';
import {
  BackupSchedule,
  openCheckedStore,
  type Store,
  type StoreRecovery,
} from '../store/index.js';
import type { StoreNotice } from '../../shared/ipc/contract.js';
import type { StartReport } from '../start/index.js';
import { legacyDataDirs } from './data-dir.js';
import { moveLegacyStore, sameFolder, STORE_FILE } from './store-move.js';
import { moveNotice, recoveryNotice, StoreNotices } from './store-notices.js';

export { STORE_FILE } from './store-move.js';

export interface DataStoreOptions {
  /** better-sqlite3 built for Electron's ABI, when running in Electron. */
  nativeBinding?: string;
  now?: () => number;
  /** Where earlier versions kept the store; default: legacyDataDirs(dataDir) for this OS. */
  legacyDirs?: readonly string[];
  /**
   * Told each phase of the opening (moving, checking, backing up, upgrading, rebuilding) and
   * how far it is: the start screen, the host's and the CLI's stderr (docs/data.md, "Start").
   */
  report?: StartReport;
}

export interface OpenedStore {
  store: Store;
  /** Where the backups go. */
  backupDir: string;
  notices: StoreNotices;
  /** The notices of this start (to print on stderr). */
  news: StoreNotice[];
  recovery?: StoreRecovery;
}

/**
 * Opens `<dataDir>/betdesk.sqlite`, moving a store an earlier version kept elsewhere there first.
 * @throws NewerSchemaError for a store of a newer Betdesk; StoreError when the old store cannot
 *   be moved (another program has it open) or backed up before a migration.
 */
export async function openDataStore(
  dataDir: string,
  options: DataStoreOptions = {},
): Promise<OpenedStore> {
  const now = options.now ?? Date.now;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const at = now();
  const legacyDirs = options.legacyDirs ?? legacyDataDirs(dataDir);
  if (options.report && movesAhead(dataDir, legacyDirs)) {
    options.report({ phase: 'moving', message: 'Moving your store to its new folder…' });
    // The move holds this thread: let the news go out to the window first.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const moves = moveLegacyStore(dataDir, legacyDirs, at, options.nativeBinding);
  const opened = await openStoreFile(join(dataDir, STORE_FILE), options);
  for (const m of moves) {
    const notice = moveNotice(m, at);
    opened.notices.add(notice);
    opened.news.unshift(notice);
  }
  return opened;
}

/** True when moveLegacyStore will move a store (this folder has none, an earlier one has). */
function movesAhead(dataDir: string, legacyDirs: readonly string[]): boolean {
  if (fs.existsSync(join(dataDir, STORE_FILE))) return false;
  return legacyDirs.some((d) => fs.existsSync(join(d, STORE_FILE)) && !sameFolder(d, dataDir));
}

/** Opens the store file `file` (the CLI's --db): checked, migrated after a backup, or rebuilt. */
export async function openStoreFile(
  file: string,
  options: Omit<DataStoreOptions, 'legacyDirs'> = {},
): Promise<OpenedStore> {
  const { store, backupDir, recovery } = await openCheckedStore(file, {
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.report === undefined ? {} : { report: options.report }),
  });
  const notices = new StoreNotices(store);
  const news: StoreNotice[] = [];
  if (recovery) {
    const notice = recoveryNotice(recovery);
    notices.add(notice);
    news.push(notice);
  }
  return { store, backupDir, notices, news, ...(recovery ? { recovery } : {}) };
}

/** The daily backup of an opened store while the app runs; stop() it before closing the store. */
export function dailyBackups(
  opened: Pick<OpenedStore, 'store' | 'backupDir'>,
  options: { nativeBinding?: string; onError?: (err: unknown) => void } = {},
): BackupSchedule {
  return new BackupSchedule({
    storeFile: opened.store.file,
    dir: opened.backupDir,
    ...options,
  });
}
