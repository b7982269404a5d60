import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { backupStore, listBackups } from '../../../src/main/store/backup.js';
import {
  NewerSchemaError,
  openStore,
  STORE_SCHEMA_VERSION,
  StoreError,
  type Migration,
  type Store,
} from '../../../src/main/store/index.js';
import { openCheckedStore } from '../../../src/main/store/open.js';
import { migrations, runMigrations } from '../../../src/main/store/migrations/index.js';
import { counts, overwritePages, seedStore, truncate, writeGarbage } from './damage.js';
import { order, tempDir } from './support.js';

const T0 = Date.UTC(2026, 10, 25, 14, 2, 0);
const FOUND = Date.UTC(2026, 10, 26, 13, 20, 0);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function folder(): { dir: string; file: string; backups: string } {
  const t = tempDir('betdesk-recovery-');
  cleanups.push(t.cleanup);
  return {
    dir: t.dir,
    file: path.join(t.dir, 'betdesk.sqlite'),
    backups: path.join(t.dir, 'backups'),
  };
}

async function opened(file: string): Promise<Awaited<ReturnType<typeof openCheckedStore>>> {
  const result = await openCheckedStore(file, { now: () => FOUND });
  cleanups.unshift(() => result.store.close());
  return result;
}

/** A store of schema `version` (an earlier Betdesk's) holding one account. */
function oldStore(file: string, version: number, account: { id: number; label: string }): void {
  const db = new Database(file);
  runMigrations(db, migrations.slice(0, version));
  db.prepare(
    `INSERT INTO accounts (id, label, base_url, api_key, created_at) VALUES (?, ?, 'http://x', 'k', 1)`,
  ).run(account.id, account.label);
  db.close();
}

const damages = {
  'pages overwritten': (file: string) => overwritePages(file, 2, 8),
  'a file of garbage': writeGarbage,
  'a truncated file': (file: string) => truncate(file, 0.4),
};

describe('a damaged store at start', () => {
  test.each(Object.entries(damages))(
    '(%s) is moved aside and its local data comes back from the backup',
    async (_, damage) => {
      const { dir, file, backups } = folder();
      seedStore(file);
      await backupStore(file, backups, { now: () => T0 });
      const original = fs.readFileSync(file);
      damage(file);
      const damaged = fs.readFileSync(file);

      const { store, recovery } = await opened(file);

      const movedTo = path.join(dir, 'betdesk.sqlite.corrupt-2026-11-26T13-20-00Z');
      expect(recovery).toMatchObject({ at: FOUND, movedTo, skippedBackups: [] });
      expect(recovery?.restoredFrom).toEqual({
        file: listBackups(backups)[0]!.file,
        takenAt: T0,
        rows: { accounts: 2, settings: 2, order_intents: 2, alerts: 2 },
      });
      // Kept byte for byte, never deleted.
      expect(fs.readFileSync(movedTo).equals(damaged)).toBe(true);
      expect(damaged.equals(original)).toBe(false);

      // Local data as it was, ids included (the keychain holds secrets by account id).
      expect(store.accounts.list().map((a) => [a.id, a.label, a.isPaper])).toEqual([
        [1, 'main', false],
        [2, 'Paper (sandbox)', true],
      ]);
      expect(store.settings.get('activeAccount')).toBe('1');
      expect(store.intents.listOpen(1).map((i) => [i.clientOrderId, i.state])).toEqual([
        ['bd-open', 'sent'],
      ]);
      const alerts = store.alerts.list(1).alerts;
      expect(alerts).toHaveLength(2);
      expect(alerts.every((a) => a.readAt !== null)).toBe(true);
      // What the exchange holds is read again from it: nothing of it, no cursor.
      expect(counts(store)).toMatchObject({ orders: 0, settlements: 0, sync_cursors: 0 });
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);
      // The first sync reads the orders again, and finds the open intent's bet among them.
      store.applyOrderUpdates(1, [order(9, { clientOrderId: 'bd-open', status: 'FILLED' })], 7);
      expect(store.intents.listOpen(1)).toEqual([]);
    },
  );

  test('with no backup starts empty and says so', async () => {
    const { file } = folder();
    seedStore(file);
    writeGarbage(file);
    const { store, recovery } = await opened(file);
    expect(recovery?.restoredFrom).toBeUndefined();
    expect(recovery?.damage).toMatch(/not a database/);
    expect(counts(store)).toMatchObject({ accounts: 0, settings: 0 });
  });

  test('takes its WAL with it', async () => {
    const { dir, file } = folder();
    seedStore(file);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec("INSERT INTO settings (key, value, updated_at) VALUES ('late', 'x', 1)");
    // As after a crash: the WAL is left beside the file.
    const wal = fs.readFileSync(`${file}-wal`);
    db.close();
    fs.writeFileSync(`${file}-wal`, wal);
    writeGarbage(file);
    const { recovery } = await opened(file);
    expect(fs.existsSync(`${recovery!.movedTo}-wal`)).toBe(true);
    expect(fs.readFileSync(`${recovery!.movedTo}-wal`).equals(wal)).toBe(true);
    expect(fs.readdirSync(dir).filter((f) => f.includes('corrupt'))).toContain(
      `${path.basename(recovery!.movedTo)}-wal`,
    );
  });

  test('skips a damaged backup for the one before it', async () => {
    const { file, backups } = folder();
    seedStore(file);
    const good = await backupStore(file, backups, { now: () => T0 });
    const bad = await backupStore(file, backups, { now: () => T0 + 3600_000 });
    overwritePages(bad.file, 2, 8);
    writeGarbage(file);
    const { store, recovery } = await opened(file);
    expect(recovery?.restoredFrom?.file).toBe(good.file);
    expect(recovery?.skippedBackups.map((s) => s.file)).toEqual([bad.file]);
    expect(store.accounts.list()).toHaveLength(2);
  });

  test('comes back from a backup of an older schema, migrated on a copy', async () => {
    const { file, backups } = folder();
    seedStore(file);
    // A backup taken before migration 4, of schema 3.
    const old = path.join(backups, 'betdesk-2026-11-25T14-02-00Z-schema-3.sqlite');
    fs.mkdirSync(backups);
    oldStore(old, 3, { id: 7, label: 'old' });
    writeGarbage(file);
    const { store, recovery } = await opened(file);
    expect(recovery?.restoredFrom?.file).toBe(old);
    expect(store.accounts.list().map((a) => [a.id, a.label])).toEqual([[7, 'old']]);
    expect(fs.readFileSync(old).subarray(60, 64).readUInt32BE()).toBe(3);
    expect(fs.readdirSync(backups)).toEqual([path.basename(old)]);
  });
});

describe('a sound store at start', () => {
  test('opens as it is, and nothing is moved', async () => {
    const { dir, file } = folder();
    seedStore(file);
    const { store, recovery } = await opened(file);
    expect(recovery).toBeUndefined();
    expect(counts(store)).toMatchObject({ accounts: 2, orders: 2, settlements: 500 });
    expect(fs.readdirSync(dir).some((f) => f.includes('corrupt'))).toBe(false);
  });

  test('of a newer Betdesk is refused as before, not taken for damaged', async () => {
    const { dir, file } = folder();
    seedStore(file);
    const db = new Database(file);
    db.pragma(`user_version = ${STORE_SCHEMA_VERSION + 1}`);
    db.close();
    await expect(openCheckedStore(file)).rejects.toBeInstanceOf(NewerSchemaError);
    expect(fs.readdirSync(dir).filter((f) => !/-(wal|shm)$/.test(f))).toEqual(['betdesk.sqlite']);
  });

  test('of an older schema is backed up, labelled, before it is migrated', async () => {
    const { file, backups } = folder();
    oldStore(file, 2, { id: 1, label: 'main' });
    const { store } = await opened(file);
    expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);
    const [backup] = listBackups(backups);
    expect(backup).toMatchObject({ takenAt: FOUND, beforeMigrationOf: 2 });
    const copy = new Database(backup!.file, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(2);
    expect(copy.prepare('SELECT label FROM accounts').pluck().all()).toEqual(['main']);
    copy.close();
  });

  test('of an older schema is not migrated when its backup cannot be made', async () => {
    const { file, backups } = folder();
    oldStore(file, 2, { id: 1, label: 'main' });
    fs.writeFileSync(backups, 'a file where the folder should be');
    const err: unknown = await openCheckedStore(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toMatch(/could not back up its store before upgrading/);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    check.close();
  });

  test('is created when there is none', async () => {
    const { file } = folder();
    const { store, recovery }: { store: Store; recovery?: unknown } = await opened(file);
    expect(recovery).toBeUndefined();
    expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);
  });
});

test('two connections that migrate one file at once run each migration once', () => {
  const { file } = folder();
  const a = new Database(file);
  const b = new Database(file);
  // b has read user_version 0 when a migrates the file: b's loop starts only after that.
  const racing: Migration[] = [...migrations];
  racing[Symbol.iterator] = () => {
    runMigrations(a);
    return migrations[Symbol.iterator]();
  };
  expect(runMigrations(b, racing)).toEqual({ from: 0, to: STORE_SCHEMA_VERSION });
  a.close();
  b.close();
  const store = openStore(file);
  expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);
  store.close();
});
