/**
 * A full disk and the store: a write that finds no room is rolled back whole and named a full
 * disk (isDiskFull), a checkpoint lets the next write reuse the room the WAL already takes, and
 * the file opens afterwards and passes its integrity check. The writes run in a child process
 * under a file-size limit (test/harness/file-size-limit.ts).
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DiskFullError,
  diskFullMessage,
  isDiskFull,
  openStore,
} from '../../../src/main/store/index.js';
import { spawnWithFileSizeLimit, tsxScript } from '../../harness/file-size-limit.js';
import { tempDir } from './support.js';

const BATCH = 200;

let cleanup = () => {};
afterEach(() => cleanup());

describe('isDiskFull', () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });

  it('knows SQLite’s and the file system’s ways of saying the disk is full', () => {
    expect(isDiskFull(new Database.SqliteError('database or disk is full', 'SQLITE_FULL'))).toBe(
      true,
    );
    // SQLITE_IOERR_WRITE only when there is no room: test/main/store/io-error.test.ts.
    for (const code of ['ENOSPC', 'EFBIG', 'EDQUOT']) expect(isDiskFull(withCode(code))).toBe(true);
    expect(isDiskFull(new DiskFullError('the export stopped after 3 rows.'))).toBe(true);
    expect(isDiskFull(new Error('Saving failed.', { cause: withCode('ENOSPC') }))).toBe(true);
  });

  it('does not take other failures for a full disk', () => {
    expect(isDiskFull(new Database.SqliteError('database is locked', 'SQLITE_BUSY'))).toBe(false);
    for (const code of ['EACCES', 'ENOENT', 'EROFS'])
      expect(isDiskFull(withCode(code))).toBe(false);
    expect(isDiskFull(new Error('database or disk is full'))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
    expect(isDiskFull('ENOSPC')).toBe(false);
  });

  it('says what could not be saved, in a sentence that starts the same way', () => {
    const full = new DiskFullError('Betdesk could not record the bet, so it was not sent.');
    expect(full.message).toBe(
      'The disk is full: Betdesk could not record the bet, so it was not sent.',
    );
    expect(diskFullMessage(full)).toBe(full.message);
    expect(diskFullMessage(withCode('ENOSPC'))).toBe(
      'The disk is full: Betdesk could not save the change. Free some space and try again.',
    );
  });
});

describe('a store whose disk is full', () => {
  it('rolls the write back whole, makes room with a checkpoint, and opens afterwards', async () => {
    const dir = tempDir('betdesk-full-');
    cleanup = dir.cleanup;
    const file = path.join(dir.dir, 'betdesk.sqlite');
    const child = spawnWithFileSizeLimit(
      1024 * 1024,
      ...tsxScript('test/main/store/fixtures/fill-child.ts', file, String(BATCH)),
    );
    const exit = await child.exited;
    expect(exit.code, child.stderr()).toBe(0);
    const said = JSON.parse(child.stdout()) as {
      stored: number;
      failedWith: string;
      diskFull: boolean;
      afterCheckpoint: boolean;
    };
    // SQLite says SQLITE_FULL for a short write and SQLITE_IOERR_WRITE for a refused one.
    expect(['SQLITE_FULL', 'SQLITE_IOERR_WRITE']).toContain(said.failedWith);
    expect(said.diskFull).toBe(true);
    expect(said.stored).toBeGreaterThan(0);
    // The WAL had taken the room; once copied into the database, the batch fitted in it.
    expect(said.afterCheckpoint).toBe(true);

    const store = openStore(file);
    try {
      expect(store.db.pragma('quick_check', { simple: true })).toBe('ok');
      const [account] = store.accounts.list();
      const rows = store.settlements.query(account!.id, { limit: 1 }).total;
      // Every batch whole or not at all, its cursor with it.
      expect(rows).toBe((said.stored + 1) * BATCH);
      expect(store.cursors.get(account!.id, 'settlements')?.cursor).toBe(rows);
    } finally {
      store.close();
    }
  });
});
