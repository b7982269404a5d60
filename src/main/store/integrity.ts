/**
 * Telling a damaged store file from a healthy one, and putting a damaged one aside (kept, never
 * deleted) so a fresh store can take its place.
 */
import fs from 'node:fs';
import { BUSY_TIMEOUT_MS, openReader, type Db } from './connection.js';
import { isSqliteCode } from './errors.js';
import { onWorker } from './worker.js';

/** The files SQLite keeps for a database in WAL mode besides the database itself. */
export const SIDE_FILES = ['-wal', '-shm'] as const;

/** Removes a scratch database `file` and whichever of the files SQLite keeps beside it exist. */
export function removeDatabase(file: string): void {
  for (const side of ['', '-journal', ...SIDE_FILES]) fs.rmSync(file + side, { force: true });
}

/**
 * True for the errors a damaged file raises: SQLITE_NOTADB ("file is not a database": garbage,
 * a lost header) and SQLITE_CORRUPT with its extended codes ("database disk image is malformed":
 * overwritten or missing pages, a truncated file).
 */
export function isCorruption(err: unknown): boolean {
  if (isSqliteCode(err, 'SQLITE_NOTADB')) return true;
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : null;
  return typeof code === 'string' && code.startsWith('SQLITE_CORRUPT');
}

/**
 * `PRAGMA quick_check`: the b-trees and the records' format, without comparing indexes with
 * their tables (integrity_check's slow part). Undefined when the file is sound, else its first
 * complaint. Throws what SQLite throws for a file it cannot read at all (see isCorruption).
 */
export function quickCheck(db: Db): string | undefined {
  const rows = db.pragma('quick_check(1)', { simple: false }) as { quick_check: string }[];
  const first = rows[0]?.quick_check;
  return first === 'ok' ? undefined : (first ?? 'quick_check returned nothing');
}

/** quick_check on the worker: undefined when sound, else its first complaint. */
const CHECK = `
  const db = open(workerData.file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
    const rows = db.pragma('quick_check(1)');
    reply(rows[0] ? rows[0].quick_check : 'quick_check returned nothing');
  } finally {
    db.close();
  }
`;

/**
 * quickCheck of the database file `file`, on a worker thread (about a second for a store of a
 * million settlements; in this thread when no worker can run). Undefined when sound, else the
 * first complaint; throws SQLite's error for a file it cannot read at all.
 */
export async function checkFile(file: string, nativeBinding?: string): Promise<string | undefined> {
  const answer = await onWorker(CHECK, { file, busyTimeoutMs: BUSY_TIMEOUT_MS }, nativeBinding);
  if (answer === undefined) return checkHere(file, nativeBinding);
  return answer === 'ok' ? undefined : (answer ?? 'quick_check returned nothing');
}

function checkHere(file: string, nativeBinding?: string): string | undefined {
  const db = openReader(file, nativeBinding);
  try {
    return quickCheck(db);
  } finally {
    db.close();
  }
}

/** `2026-11-26T13-20-00Z`: a UTC time that sorts as text and is a valid file name everywhere. */
export function fileStamp(at: number): string {
  return new Date(at)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
}

/** The time in a `fileStamp`; undefined when `stamp` is not one. */
export function parseFileStamp(stamp: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z$/.exec(stamp);
  if (!m) return undefined;
  const at = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Renames the damaged `file` and its -wal/-shm to `<file>.corrupt-<stamp>` (keeping the WAL
 * beside its database, as SQLite pairs them by name). Returns the new name of the database.
 * Call with no connection open on the file.
 */
export function moveAside(file: string, at: number): string {
  let target = `${file}.corrupt-${fileStamp(at)}`;
  // Two in one second (a second damage right after a restore): never overwrite the first.
  for (let n = 2; fs.existsSync(target); n++) target = `${file}.corrupt-${fileStamp(at)}-${n}`;
  fs.renameSync(file, target);
  for (const side of SIDE_FILES) {
    if (fs.existsSync(file + side)) fs.renameSync(file + side, target + side);
  }
  return target;
}
