import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  checkFile,
  fileStamp,
  isCorruption,
  moveAside,
  parseFileStamp,
} from '../../../src/main/store/integrity.js';
import { overwritePages, seedStore, writeGarbage } from './damage.js';
import { tempDir } from './support.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function seeded(): string {
  const t = tempDir('betdesk-integrity-');
  cleanups.push(t.cleanup);
  const file = path.join(t.dir, 'betdesk.sqlite');
  seedStore(file);
  return file;
}

describe('checking a store file (on a worker thread)', () => {
  test('finds a sound file sound', async () => {
    expect(await checkFile(seeded())).toBeUndefined();
  });

  test('throws SQLite’s own error, with its code, for a file that is not a database', async () => {
    const file = seeded();
    writeGarbage(file);
    const err: unknown = await checkFile(file).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SQLITE_NOTADB', message: 'file is not a database' });
    expect(isCorruption(err)).toBe(true);
  });

  test('says what is wrong with overwritten pages, or throws SQLITE_CORRUPT', async () => {
    const file = seeded();
    overwritePages(file, 2, 8);
    const found = await checkFile(file).catch((e: unknown) => e);
    if (typeof found === 'string') expect(found).not.toBe('ok');
    else expect(isCorruption(found)).toBe(true);
  });

  test('throws what is not damage as it is (a folder where the file should be)', async () => {
    const t = tempDir('betdesk-integrity-');
    cleanups.push(t.cleanup);
    const err: unknown = await checkFile(t.dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(isCorruption(err)).toBe(false);
  });
});

describe('moving a damaged file aside', () => {
  test('keeps it and its WAL under a stamped name, never over an earlier one', () => {
    const file = seeded();
    fs.writeFileSync(`${file}-wal`, 'wal');
    const at = Date.UTC(2026, 10, 26, 13, 20, 0);
    const first = moveAside(file, at);
    expect(path.basename(first)).toBe('betdesk.sqlite.corrupt-2026-11-26T13-20-00Z');
    expect(fs.readFileSync(`${first}-wal`, 'utf8')).toBe('wal');
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, 'again');
    expect(path.basename(moveAside(file, at))).toBe(
      'betdesk.sqlite.corrupt-2026-11-26T13-20-00Z-2',
    );
    expect(fs.existsSync(first)).toBe(true);
  });

  test('stamps read back as the time they name', () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(fileStamp(at)).toBe('2026-01-02T03-04-05Z');
    expect(parseFileStamp(fileStamp(at))).toBe(at);
    expect(parseFileStamp('2026-13-02T03-04-05Z')).toBeUndefined();
  });
});
