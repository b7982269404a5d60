/**
 * Moving a database file to another folder while other programs may have it open: taken only
 * under an exclusive lock (no other connection), with its WAL copied in first; the old files
 * are kept, renamed `*.moved`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from './connection.js';
import { isSqliteCode, StoreError } from './errors.js';
import { isCorruption, SIDE_FILES } from './integrity.js';

/**
 * Copies the SQLite database `from` to `to` once no other connection has it open (an exclusive
 * lock, held while its WAL is copied into it and the file is copied), then renames the old
 * files to `*.moved`. A file SQLite cannot read is copied as it is: the check at start deals
 * with it in its new place.
 */
export function moveDatabase(from: string, to: string, nativeBinding?: string): void {
  const db = new Database(from, {
    fileMustExist: true,
    ...(nativeBinding === undefined ? {} : { nativeBinding }),
  });
  let readable = true;
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
    } catch (err) {
      if (!isSqliteCode(err, 'SQLITE_BUSY')) throw err;
      throw new StoreError(
        `Another program (an older Betdesk?) still has ${from} open, so it cannot be moved to ` +
          `${path.dirname(to)}: close it, then start Betdesk again.`,
        { cause: err },
      );
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    copyWhole(from, to);
  } catch (err) {
    if (!isCorruption(err)) throw err;
    readable = false;
  } finally {
    db.close();
  }
  if (!readable) {
    copyWhole(from, to);
    for (const side of SIDE_FILES) {
      if (fs.existsSync(from + side)) copyWhole(from + side, to + side);
    }
  }
  for (const f of [from, ...SIDE_FILES.map((side) => from + side)]) {
    if (fs.existsSync(f)) fs.renameSync(f, movedName(f));
  }
}

/** `betdesk.sqlite-wal` -> `betdesk.sqlite.moved-wal`, keeping SQLite's pairing of the files. */
function movedName(file: string): string {
  const side = SIDE_FILES.find((s) => file.endsWith(s));
  return side ? `${file.slice(0, -side.length)}.moved${side}` : `${file}.moved`;
}

/** A complete copy under a temporary name, then renamed: `to` is never half written. */
export function copyWhole(from: string, to: string): void {
  const partial = `${to}.moving`;
  fs.copyFileSync(from, partial);
  const fd = fs.openSync(partial, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(partial, to);
}
