/**
 * An I/O error is not a full disk (docs/data.md): SQLite says SQLITE_IOERR_WRITE for any write
 * the disk refused, so Betdesk looks at the room of the store's file system before it calls one
 * a full disk. On a disk with room it is worded as what it is, with what was kept, everywhere a
 * full disk was: the bridge, the CLI, the sync status, placing a bet and exports. A full disk
 * (SQLITE_FULL, ENOSPC, no room left, a file-size limit) is still a full disk.
 *
 * The faults: a real EIO from the OS (a write to /proc/self/mem at an address that is not
 * mapped, Linux) for an export; for the store, a real store whose write throws what
 * better-sqlite3 throws for SQLITE_IOERR_WRITE (failingWrite: SQLite itself cannot be made to
 * fail a write with an I/O error on a healthy disk); the room is either the real statfs of the
 * temp folder or a RoomProbe.
 */
import fs from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportFailure, Output } from '../../../src/main/cli/output.js';
import { exportSettlementsCsv } from '../../../src/main/export/csv.js';
import { failureMessage } from '../../../src/main/export/jobs.js';
import { toBridgeError } from '../../../src/main/ipc/errors.js';
import {
  DiskFullError,
  IoError,
  isDiskFull,
  isIoError,
  writeFaultMessage,
  writeFaultOf,
} from '../../../src/main/store/index.js';
import { MIN_ROOM_BYTES, systemRoom, type RoomProbe } from '../../../src/main/store/room.js';
import { failureSentence, historyFailure } from '../../../src/main/sync/errors.js';
import { settlement, tempStore } from './support.js';

/** What better-sqlite3 throws when the disk fails SQLite's write (EIO, EFBIG, EDQUOT). */
const ioerrWrite = () => new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE');
const sqliteFull = () => new Database.SqliteError('database or disk is full', 'SQLITE_FULL');

const room = (free: number, limited = false): RoomProbe => ({
  fileSizeLimited: () => limited,
  freeBytes: () => free,
});

let done = () => {};
afterEach(() => {
  vi.restoreAllMocks();
  done();
});

/** A real store in a temp folder; this process writes it without a file-size limit. */
function storeWithRoom() {
  const t = tempStore();
  done = t.done;
  return t;
}

describe('telling an I/O error from a full disk', () => {
  it('looks at the room of the file system the write went to', () => {
    const plenty = room(10 * 1024 ** 3);
    const at = '/data/betdesk.sqlite';
    expect(writeFaultOf(ioerrWrite(), { at, probe: plenty })).toBe('io-error');
    expect(writeFaultOf(ioerrWrite(), { at, probe: room(MIN_ROOM_BYTES - 1) })).toBe('disk-full');
    // Past a file-size limit the OS says EFBIG, which SQLite reports as SQLITE_IOERR_WRITE.
    expect(writeFaultOf(ioerrWrite(), { probe: room(10 * 1024 ** 3, true) })).toBe('disk-full');
    const eio = Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    expect(writeFaultOf(eio, { probe: plenty })).toBe('io-error');
    expect(writeFaultOf(new Error('Saving failed.', { cause: eio }), { probe: plenty })).toBe(
      'io-error',
    );
    expect(
      writeFaultOf(new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_FSYNC'), {
        probe: plenty,
      }),
    ).toBe('io-error');
  });

  it('calls a full disk full whatever statfs says', () => {
    const plenty = room(10 * 1024 ** 3);
    expect(writeFaultOf(sqliteFull(), { probe: plenty })).toBe('disk-full');
    for (const code of ['ENOSPC', 'EFBIG', 'EDQUOT']) {
      expect(writeFaultOf(Object.assign(new Error(code), { code }), { probe: plenty })).toBe(
        'disk-full',
      );
    }
  });

  it('is no write fault for other failures', () => {
    expect(writeFaultOf(new Database.SqliteError('database is locked', 'SQLITE_BUSY'))).toBe(
      undefined,
    );
    expect(writeFaultOf(Object.assign(new Error('EACCES'), { code: 'EACCES' }))).toBe(undefined);
    expect(writeFaultOf(new Error('disk I/O error'))).toBe(undefined);
  });

  it('reads the real room of a real folder, and this process has no file-size limit', () => {
    const { file } = storeWithRoom();
    expect(systemRoom.freeBytes(file)).toBeGreaterThan(MIN_ROOM_BYTES);
    expect(systemRoom.fileSizeLimited()).toBe(false);
    // So, on this disk, SQLite's I/O error is an I/O error and its full disk a full disk.
    expect(isIoError(ioerrWrite())).toBe(true);
    expect(isDiskFull(ioerrWrite())).toBe(false);
    expect(isDiskFull(sqliteFull())).toBe(true);
  });
});

describe('an I/O error on a store whose disk has room', () => {
  const SAID =
    'Betdesk could not write to its store: the disk reported an input/output error ' +
    '(SQLITE_IOERR_WRITE).';

  it('is worded as an I/O error with what was kept on the bridge and in the CLI', () => {
    const { store } = storeWithRoom();
    vi.spyOn(store.settings, 'set').mockImplementation(() => {
      throw ioerrWrite();
    });
    const err = (() => {
      try {
        store.settings.set('desk', '{}');
      } catch (e) {
        return e;
      }
    })();
    const message = `${SAID} The change was not saved; what was saved before is kept. Check the disk, then try again.`;
    expect(writeFaultMessage(err)).toBe(message);
    expect(toBridgeError(err)).toEqual({ kind: 'io-error', message });

    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (c: Buffer) => (said += c.toString('utf8')));
    const out = new Output({
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr,
      env: {},
    });
    expect(reportFailure(err, out)).toBe(1);
    expect(said).toBe(`${message}\n`);
    expect(said).not.toMatch(/full/);
  });

  it('is worded as an I/O error in the sync status, with the batch rolled back and retried', () => {
    storeWithRoom();
    expect(failureSentence('orders', ioerrWrite())).toBe(
      `${SAID} The latest orders were not saved; everything stored before is kept. It will ` +
        'sync again shortly; nothing on the exchange is lost.',
    );
    expect(historyFailure(ioerrWrite(), 'resync')).toBe(
      `${SAID} The history it read was not saved; everything stored before is kept. Resync ` +
        'once the disk is checked; nothing on the exchange is lost.',
    );
    // A full disk is still a full disk.
    expect(failureSentence('orders', sqliteFull())).toBe(
      'The disk is full: Betdesk could not save the latest orders. It will sync again when ' +
        'there is room; nothing on the exchange is lost.',
    );
    expect(toBridgeError(sqliteFull()).kind).toBe('disk-full');
  });

  it('keeps its IoError class and code through a cause, as the bridge reads it', () => {
    const err = new IoError('The bet was not recorded, so it was not sent.', {
      cause: ioerrWrite(),
    });
    expect(err.ioCode).toBe('SQLITE_IOERR_WRITE');
    expect(toBridgeError(new Error('wrapped', { cause: err }))).toMatchObject({ kind: 'io-error' });
    expect(isDiskFull(err)).toBe(false);
    expect(isDiskFull(new DiskFullError('x'))).toBe(true);
  });
});

describe.runIf(process.platform === 'linux')('an export the OS fails with EIO', () => {
  it('stops, says the disk reported an I/O error, and leaves the store unchanged', async () => {
    const { store, accountId } = storeWithRoom();
    store.applySettlements(
      accountId,
      Array.from({ length: 3 }, (_, i) => settlement(i)),
      3,
    );
    // A real EIO: this process's memory file, written where nothing is mapped.
    const target = fs.createWriteStream('/proc/self/mem', { flags: 'r+', start: 0 });

    const err = await exportSettlementsCsv(store, target, { accountId }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(IoError);
    expect((err as IoError).ioCode).toBe('EIO');
    expect((err as Error).message).toMatch(
      /^Betdesk could not write the export: the disk reported an input\/output error \(EIO\)\. The export stopped after \d+ rows?; the store is unchanged\.$/,
    );
    expect(failureMessage(err)).toBe((err as Error).message);
    expect(toBridgeError(err)).toEqual({ kind: 'io-error', message: (err as Error).message });
    expect(store.settlements.query(accountId, {}).total).toBe(3);
  });
});
