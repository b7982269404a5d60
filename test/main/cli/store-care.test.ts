/**
 * The CLI user who never opens the app: the daily backup (7 kept) is taken by the command line
 * itself, a backup that fails is said without failing the command, and a damaged store is moved
 * aside and rebuilt at start, its local-only data back from the newest good backup, with the
 * sentence on stderr (docs/data.md). Real store files, the CLI run in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BACKUP_KEEP, backupStore, listBackups } from '../../../src/main/store/backup.js';
import { openStore } from '../../../src/main/store/index.js';
import { overwritePages, seedStore } from '../store/damage.js';
import { tempDir } from '../store/support.js';
import { runInProcess } from './in-process.js';

const DAY = 24 * 3600_000;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function folder(): { dir: string; file: string; backups: string } {
  const t = tempDir('betdesk-cli-store-');
  cleanups.push(t.cleanup);
  return {
    dir: t.dir,
    file: path.join(t.dir, 'betdesk.sqlite'),
    backups: path.join(t.dir, 'backups'),
  };
}

/** `accounts list`: opens the store as every command does, and needs no exchange or keychain. */
const listAccounts = (file: string) => runInProcess(file, ['accounts', 'list']);

describe('the daily backup of a store only the CLI uses', () => {
  test('is taken by the first command, and again once the newest is a day old', async () => {
    const { file, backups } = folder();
    const first = await listAccounts(file);
    expect(first.code, first.stderr).toBe(0);
    const taken = listBackups(backups);
    expect(taken).toHaveLength(1);
    expect(Date.now() - taken[0]!.takenAt).toBeLessThan(DAY);

    // Not due yet: a second command takes none.
    await listAccounts(file);
    expect(listBackups(backups)).toHaveLength(1);

    // A day later (the newest backup made a day older), the next command takes one.
    const old = path.join(backups, 'betdesk-2026-01-02T03-04-05Z.sqlite');
    fs.renameSync(taken[0]!.file, old);
    const later = await listAccounts(file);
    expect(later.code, later.stderr).toBe(0);
    expect(listBackups(backups).map((b) => b.file)).toHaveLength(2);
    expect(listBackups(backups)[1]!.file).toBe(old);
  });

  test('keeps the newest 7, as the app does', async () => {
    const { file, backups } = folder();
    seedStore(file, 10);
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < BACKUP_KEEP; i++)
      await backupStore(file, backups, { now: () => t0 + i * DAY });
    const before = listBackups(backups).map((b) => b.file);
    expect(before).toHaveLength(7);

    const run = await listAccounts(file);
    expect(run.code, run.stderr).toBe(0);

    const after = listBackups(backups).map((b) => b.file);
    expect(after).toHaveLength(7);
    // Today's is the newest; the oldest of the seven went.
    expect(after.slice(1)).toEqual(before.slice(0, 6));
    expect(fs.existsSync(before[6]!)).toBe(false);
  });

  test('that fails is said on stderr and the command still runs', async () => {
    const { file, backups } = folder();
    seedStore(file, 10);
    // The backups folder cannot be made: a file holds its name.
    fs.writeFileSync(backups, 'not a folder');

    const run = await listAccounts(file);
    expect(run.code).toBe(0);
    expect(run.json.map((a) => a['label'])).toEqual(['main', 'Paper (sandbox)']);
    expect(run.stderr).toMatch(
      /^The daily backup of the store could not be made \(.*\)\. The store itself is unchanged; the next command tries again\.$/m,
    );
  });
});

describe('a damaged store opened by the CLI', () => {
  test('is moved aside and rebuilt, its accounts back from the backup, with the sentence on stderr', async () => {
    const { dir, file, backups } = folder();
    seedStore(file);
    const backup = await backupStore(file, backups, { now: () => Date.now() - 3600_000 });
    overwritePages(file, 2, 8);
    const damaged = fs.readFileSync(file);

    const run = await listAccounts(file);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^Betdesk found its local store damaged and moved it to .*betdesk\.sqlite\.corrupt-[0-9TZ-]+; your accounts, settings, alerts and unfinished orders came back from the backup of .*; orders and history are being read again from the exchange\.$/m,
    );
    const moved = fs.readdirSync(dir).filter((f) => /^betdesk\.sqlite\.corrupt-[0-9TZ-]+$/.test(f));
    expect(moved).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, moved[0]!)).equals(damaged)).toBe(true);
    // The accounts came back from the backup, ids and all.
    expect(run.json.map((a) => [a['id'], a['label']])).toEqual([
      [1, 'main'],
      [2, 'Paper (sandbox)'],
    ]);
    // The rebuilt store is sound, and the backup it came from is kept.
    const store = openStore(file);
    try {
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      store.close();
    }
    expect(fs.existsSync(backup.file)).toBe(true);

    // Said once: the next command finds a sound store.
    const next = await listAccounts(file);
    expect(next.stderr).not.toMatch(/damaged/);
  });
});
