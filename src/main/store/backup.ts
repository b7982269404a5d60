/**
 * Backups of the store with SQLite's online backup API, in `<store folder>/backups`:
 * `betdesk-2026-11-26T13-20-00Z.sqlite` (the daily one) or `...-schema-3.sqlite` (taken before a
 * migration, labelled with the schema it holds). The newest `BACKUP_KEEP` are kept.
 *
 * A backup copies a snapshot: its own read-only connection holds one read transaction for the
 * whole copy, so writes by the app or by another process (the CLI) never restart it, and it
 * never holds the writer. It is copied on a worker thread (in this thread, a step of pages
 * between turns of the event loop, when no worker can run) into a temporary name; it counts
 * only once SQLite's quick_check passed on the copy and it was renamed to its final name.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, openReader } from './connection.js';
import { checkFile, fileStamp, parseFileStamp, removeDatabase } from './integrity.js';
import { schemaVersion } from './migrations/index.js';
import { onWorker } from './worker.js';

/** How many backups are kept; older ones are removed once a newer one is verified. */
export const BACKUP_KEEP = 7;
/** A daily backup is due when the newest is this old. */
export const BACKUP_INTERVAL_MS = 24 * 3600_000;
export const BACKUP_FOLDER = 'backups';
/**
 * Pages copied per step: 256 pages of 4 KiB = 1 MiB. In this thread a step took 3 ms at most on
 * a store of a million settlements (bench/store-backup.ts), but the last one, which writes the
 * copy out, about 250 ms: hence the worker.
 */
export const BACKUP_PAGES_PER_STEP = 256;
/** A temporary file left this long is from a backup that died; it is removed. */
const STALE_PARTIAL_MS = 3600_000;

const NAME =
  /^betdesk-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)(?:-schema-(\d+))?(?:-(\d+))?\.sqlite$/;

export interface BackupFile {
  readonly file: string;
  /** When it was taken (from its name). */
  readonly takenAt: number;
  /** Taken before a migration: the schema version it holds. */
  readonly beforeMigrationOf?: number;
}

export interface BackupStep {
  /** How long this step held the event loop. */
  readonly ms: number;
  readonly remainingPages: number;
  readonly totalPages: number;
}

export interface BackupOptions {
  now?: () => number;
  /** Taken before migrating a store of this schema version (part of the name). */
  beforeMigrationOf?: number;
  nativeBinding?: string;
  keep?: number;
  pagesPerStep?: number;
  /**
   * Copy on this thread, a step at a time between turns of the event loop, instead of on a
   * worker (which is also the fallback when no worker can run). For measuring the steps.
   */
  inThread?: boolean;
  /** In this thread: called after every step but the last, with how long it took. */
  onStep?: (step: BackupStep) => void;
  /** How far the copy is, in pages, after each step (on the worker too): the start says it. */
  onProgress?: (pages: { done: number; total: number }) => void;
}

/** The backups folder of a store file. */
export function backupFolderOf(storeFile: string): string {
  return path.join(path.dirname(path.resolve(storeFile)), BACKUP_FOLDER);
}

/** The complete backups in `dir`, newest first. */
export function listBackups(dir: string): BackupFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const found: BackupFile[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    const takenAt = m ? parseFileStamp(m[1]!) : undefined;
    if (takenAt === undefined) continue;
    const file = path.join(dir, name);
    found.push(
      m![2] === undefined ? { file, takenAt } : { file, takenAt, beforeMigrationOf: +m![2] },
    );
  }
  return found.sort((a, b) => b.takenAt - a.takenAt || b.file.localeCompare(a.file));
}

/**
 * Copies the store at `storeFile` into `dir` (created if needed), verifies the copy, gives it
 * its final name and prunes to the newest `keep`.
 * @throws what SQLite or fs threw (a full disk: see isDiskFull); no partial file is left.
 */
export async function backupStore(
  storeFile: string,
  dir: string,
  options: BackupOptions = {},
): Promise<BackupFile> {
  const takenAt = (options.now ?? Date.now)();
  fs.mkdirSync(dir, { recursive: true });
  removeStalePartials(dir, takenAt);
  const label =
    options.beforeMigrationOf === undefined ? '' : `-schema-${options.beforeMigrationOf}`;
  const base = `betdesk-${fileStamp(takenAt)}${label}`;
  // The process id keeps two processes' backups of one second apart.
  const partial = path.join(dir, `${base}.${process.pid}.partial`);
  try {
    const problem = await copyAndCheck(storeFile, partial, options);
    if (problem !== undefined) throw new Error(`The backup did not pass its check: ${problem}`);
    let file = path.join(dir, `${base}.sqlite`);
    for (let n = 2; fs.existsSync(file); n++) file = path.join(dir, `${base}-${n}.sqlite`);
    fs.renameSync(partial, file);
    pruneBackups(dir, options.keep ?? BACKUP_KEEP);
    return options.beforeMigrationOf === undefined
      ? { file, takenAt }
      : { file, takenAt, beforeMigrationOf: options.beforeMigrationOf };
  } finally {
    removeDatabase(partial);
  }
}

/**
 * The copy on a worker thread: the event loop is never held, not even by the last step, which
 * writes the copy out to disk (~250 ms for 400 MB). The same steps as copySnapshot, then the
 * copy made a one-file database (the backup API copies its source's WAL mode) and checked.
 */
const COPY_AND_CHECK = `
  const source = open(workerData.source, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
    source.exec('BEGIN');
    source.prepare('SELECT count(*) FROM sqlite_schema').get();
    let total = 0;
    await source.backup(workerData.target, {
      progress: ({ totalPages, remainingPages }) => {
        total = totalPages;
        note({ done: totalPages - remainingPages, total: totalPages });
        return workerData.pagesPerStep;
      },
    });
    // The last step is not told to progress: the copy is whole (its check follows).
    if (total > 0) note({ done: total, total });
  } finally {
    if (source.inTransaction) source.exec('COMMIT');
    source.close();
  }
  const copy = open(workerData.target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const rows = copy.pragma('quick_check(1)');
    reply(rows[0] && rows[0].quick_check === 'ok' ? null : String(rows[0] && rows[0].quick_check));
  } finally {
    copy.close();
  }
`;

/** Copies a snapshot of `storeFile` to `target`; undefined when the copy passed its check. */
async function copyAndCheck(
  storeFile: string,
  target: string,
  options: BackupOptions,
): Promise<string | undefined> {
  if (!options.inThread) {
    const answer = await onWorker(
      COPY_AND_CHECK,
      {
        source: storeFile,
        target,
        pagesPerStep: options.pagesPerStep ?? BACKUP_PAGES_PER_STEP,
        busyTimeoutMs: BUSY_TIMEOUT_MS,
      },
      options.nativeBinding,
      options.onProgress &&
        ((news) => options.onProgress?.(news as { done: number; total: number })),
    );
    if (answer !== undefined) return answer ?? undefined;
  }
  await copySnapshot(storeFile, target, options);
  return verifyFile(target, options.nativeBinding, true);
}

/** The online backup of one snapshot of `storeFile` into `target`, a step at a time. */
async function copySnapshot(
  storeFile: string,
  target: string,
  options: BackupOptions,
): Promise<void> {
  const source = openReader(storeFile, options.nativeBinding);
  try {
    // One read transaction for the whole copy: the snapshot it reads never changes, so other
    // connections' writes never make SQLite restart the copy.
    source.exec('BEGIN');
    source.prepare('SELECT count(*) FROM sqlite_schema').get();
    const pages = options.pagesPerStep ?? BACKUP_PAGES_PER_STEP;
    let last = performance.now();
    let total = 0;
    await source.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        const now = performance.now();
        options.onStep?.({ ms: now - last, remainingPages, totalPages });
        options.onProgress?.({ done: totalPages - remainingPages, total: totalPages });
        total = totalPages;
        last = now;
        return pages;
      },
    });
    if (total > 0) options.onProgress?.({ done: total, total });
  } finally {
    if (source.inTransaction) source.exec('COMMIT');
    source.close();
  }
}

/**
 * Undefined when `file` is a sound database, else why not (the check runs on a worker thread).
 * `standalone` first turns the copy into a one-file database: the backup API copies the WAL
 * mode of its source.
 */
async function verifyFile(
  file: string,
  nativeBinding: string | undefined,
  standalone = false,
): Promise<string | undefined> {
  try {
    if (standalone) {
      const db = new Database(file, {
        fileMustExist: true,
        ...(nativeBinding === undefined ? {} : { nativeBinding }),
      });
      try {
        db.pragma('journal_mode = DELETE');
      } finally {
        db.close();
      }
    }
    return await checkFile(file, nativeBinding);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** A backup a store can be restored from: sound, and of a schema this build can read. */
export interface VerifiedBackup extends BackupFile {
  readonly schema: number;
}

/**
 * The newest backup in `dir` that passes quick_check and whose schema is at most `knownSchema`;
 * `skipped` lists the newer ones that did not, and why.
 */
export async function latestGoodBackup(
  dir: string,
  knownSchema: number,
  nativeBinding?: string,
): Promise<{ backup?: VerifiedBackup; skipped: { file: string; reason: string }[] }> {
  const skipped: { file: string; reason: string }[] = [];
  for (const b of listBackups(dir)) {
    const problem = await verifyFile(b.file, nativeBinding);
    if (problem !== undefined) {
      skipped.push({ file: b.file, reason: problem });
      continue;
    }
    const schema = schemaOf(b.file, nativeBinding);
    if (schema > knownSchema) {
      skipped.push({ file: b.file, reason: `written by a newer Betdesk (schema ${schema})` });
      continue;
    }
    return { backup: { ...b, schema }, skipped };
  }
  return { skipped };
}

function schemaOf(file: string, nativeBinding?: string): number {
  const db = openReader(file, nativeBinding);
  try {
    return schemaVersion(db);
  } finally {
    db.close();
  }
}

/**
 * Removes all but the newest `keep` backups. Only complete ones count, and each was verified
 * before it got its name, so the newest good backup is never the one removed.
 */
export function pruneBackups(dir: string, keep: number = BACKUP_KEEP): string[] {
  const removed: string[] = [];
  for (const b of listBackups(dir).slice(Math.max(1, keep))) {
    fs.rmSync(b.file, { force: true });
    removed.push(b.file);
  }
  return removed;
}

function removeStalePartials(dir: string, now: number): void {
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.partial')) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_PARTIAL_MS) fs.rmSync(file, { force: true });
    } catch {
      // Gone already (the other process finished it).
    }
  }
}
