import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { BackupSchedule } from '../../../src/main/store/backup-schedule.js';
import {
  BACKUP_INTERVAL_MS,
  backupStore,
  latestGoodBackup,
  listBackups,
  pruneBackups,
} from '../../../src/main/store/backup.js';
import { openStore, STORE_SCHEMA_VERSION } from '../../../src/main/store/index.js';
import { counts, overwritePages, seedStore, writeGarbage } from './damage.js';
import { settlement, tempDir } from './support.js';

const DAY = 24 * 3600_000;
const T0 = Date.UTC(2026, 10, 20, 14, 2, 0);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function seeded(): { file: string; dir: string; backups: string } {
  const t = tempDir('betdesk-backup-');
  cleanups.push(t.cleanup);
  const file = path.join(t.dir, 'betdesk.sqlite');
  seedStore(file);
  return { file, dir: t.dir, backups: path.join(t.dir, 'backups') };
}

describe('a backup of the store', () => {
  test('is a verified one-file copy named by its UTC time, with every row', async () => {
    const { file, backups } = seeded();
    const b = await backupStore(file, backups, { now: () => T0 });
    expect(path.basename(b.file)).toBe('betdesk-2026-11-20T14-02-00Z.sqlite');
    expect(b.takenAt).toBe(T0);
    // Nothing but the backup: no temporary name, no -wal beside it.
    expect(fs.readdirSync(backups)).toEqual([path.basename(b.file)]);
    const copy = openStore(b.file);
    const source = openStore(file);
    try {
      expect(counts(copy)).toEqual(counts(source));
      expect(copy.db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      copy.close();
      source.close();
    }
  });

  test.each([
    ['on a worker thread', false],
    ['in this thread, a step at a time', true],
  ])(
    'taken while the store is being written is the snapshot of one moment (%s)',
    async (_, inThread) => {
      const { file, backups } = seeded();
      const writer = openStore(file);
      try {
        const count = () => writer.db.prepare('SELECT count(*) FROM settlements').pluck().get();
        const before = count() as number;
        let writes = 0;
        const writing = setInterval(() => {
          writer.applySettlements(1, [settlement(10_000 + writes)]);
          writes++;
        }, 1);
        const steps: number[] = [];
        const b = await backupStore(file, backups, {
          inThread,
          pagesPerStep: 1,
          onStep: (s) => steps.push(s.remainingPages),
        }).finally(() => clearInterval(writing));
        // Never restarted: the pages left only go down.
        expect(steps.every((r, i) => i === 0 || r <= steps[i - 1]!)).toBe(true);
        expect(writes).toBeGreaterThan(0);
        const copy = new Database(b.file, { readonly: true });
        try {
          const n = copy.prepare('SELECT count(*) FROM settlements').pluck().get() as number;
          expect(n).toBeGreaterThanOrEqual(before);
          expect(n).toBeLessThanOrEqual(before + writes);
        } finally {
          copy.close();
        }
      } finally {
        writer.close();
      }
    },
  );

  test('before a migration is labelled with the schema it holds', async () => {
    const { file, backups } = seeded();
    const b = await backupStore(file, backups, { now: () => T0, beforeMigrationOf: 3 });
    expect(path.basename(b.file)).toBe('betdesk-2026-11-20T14-02-00Z-schema-3.sqlite');
    expect(listBackups(backups)[0]).toEqual({ file: b.file, takenAt: T0, beforeMigrationOf: 3 });
  });

  test('keeps the newest seven', async () => {
    const { file, backups } = seeded();
    for (let d = 0; d < 9; d++) await backupStore(file, backups, { now: () => T0 + d * DAY });
    const kept = listBackups(backups);
    expect(kept.map((b) => b.takenAt)).toEqual(
      Array.from({ length: 7 }, (_, i) => T0 + (8 - i) * DAY),
    );
    expect(fs.readdirSync(backups)).toHaveLength(7);
    // Pruning never goes below one, whatever it is asked.
    expect(pruneBackups(backups, 0)).toHaveLength(6);
    expect(listBackups(backups)).toHaveLength(1);
  });

  test('that fails leaves no file behind and keeps the ones before', async () => {
    const { file, backups } = seeded();
    await backupStore(file, backups, { now: () => T0 });
    writeGarbage(file);
    await expect(backupStore(file, backups, { now: () => T0 + DAY })).rejects.toThrow(
      /not a database/,
    );
    expect(listBackups(backups).map((b) => b.takenAt)).toEqual([T0]);
    expect(fs.readdirSync(backups)).toHaveLength(1);
  });
});

describe('the backup to restore from', () => {
  test('is the newest that passes its check; a damaged one is skipped', async () => {
    const { file, backups } = seeded();
    const older = await backupStore(file, backups, { now: () => T0 });
    const newer = await backupStore(file, backups, { now: () => T0 + DAY });
    const newest = await backupStore(file, backups, { now: () => T0 + 2 * DAY });
    expect((await latestGoodBackup(backups, STORE_SCHEMA_VERSION)).backup?.file).toBe(newest.file);

    overwritePages(newest.file, 2, 6);
    writeGarbage(newer.file);
    const { backup, skipped } = await latestGoodBackup(backups, STORE_SCHEMA_VERSION);
    expect(backup).toMatchObject({ file: older.file, takenAt: T0, schema: STORE_SCHEMA_VERSION });
    expect(skipped.map((s) => s.file)).toEqual([newest.file, newer.file]);
  });

  test('is never one of a newer schema', async () => {
    const { file, backups } = seeded();
    const b = await backupStore(file, backups, { now: () => T0 });
    const db = new Database(b.file);
    db.pragma(`user_version = ${STORE_SCHEMA_VERSION + 1}`);
    db.close();
    const { backup, skipped } = await latestGoodBackup(backups, STORE_SCHEMA_VERSION);
    expect(backup).toBeUndefined();
    expect(skipped[0]?.reason).toMatch(/newer Betdesk/);
  });

  test('is none when there is no backup folder', async () => {
    expect(await latestGoodBackup('/nonexistent/backups', STORE_SCHEMA_VERSION)).toEqual({
      skipped: [],
    });
  });
});

describe('the daily backup', () => {
  test('is taken when the newest is a day old, and not before', async () => {
    const { file, backups } = seeded();
    let now = T0;
    const schedule = new BackupSchedule({ storeFile: file, dir: backups, now: () => now });
    expect(schedule.due()).toBe(true);
    expect((await schedule.runIfDue())?.takenAt).toBe(T0);
    now = T0 + BACKUP_INTERVAL_MS - 1;
    expect(await schedule.runIfDue()).toBeUndefined();
    now = T0 + BACKUP_INTERVAL_MS;
    expect((await schedule.runIfDue())?.takenAt).toBe(now);
    await schedule.stop();
    now += 2 * DAY;
    expect(await schedule.runIfDue()).toBeUndefined();
    expect(listBackups(backups)).toHaveLength(2);
  });

  test('runs by its timer while the app stays open, and says when it failed', async () => {
    const { file, backups } = seeded();
    let now = T0;
    const errors: unknown[] = [];
    const schedule = new BackupSchedule({
      storeFile: file,
      dir: backups,
      now: () => now,
      firstCheckMs: 1,
      checkEveryMs: 5,
      onError: (err) => errors.push(err),
    });
    schedule.start();
    await expect.poll(() => listBackups(backups).length).toBe(1);
    now += DAY;
    await expect.poll(() => listBackups(backups).length).toBe(2);
    writeGarbage(file);
    now += DAY;
    await expect.poll(() => errors.length).toBeGreaterThan(0);
    await schedule.stop();
    expect(listBackups(backups)).toHaveLength(2);
  });
});
