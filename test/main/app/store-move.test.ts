import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { defaultDataDir, legacyDataDirs } from '../../../src/main/data/data-dir.js';
import { PAPER_FILE } from '../../../src/main/practice/paper.js';
import { openDataStore } from '../../../src/main/data/store-file.js';
import { MOVED_NOTE, moveLegacyStore, STORE_FILE } from '../../../src/main/data/store-move.js';
import { openStore, StoreError } from '../../../src/main/store/index.js';
import { runCliFromSource } from '../../harness/processes.js';
import { counts, seedStore, writeGarbage } from '../store/damage.js';
import { tempDir } from '../store/support.js';

const AT = Date.UTC(2026, 10, 26, 13, 20, 0);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A temp HOME with the Linux folders: $XDG_CONFIG_HOME (the old) and $XDG_DATA_HOME (the new). */
function home(): { env: Record<string, string>; home: string; legacy: string; data: string } {
  const t = tempDir('betdesk-home-');
  cleanups.push(t.cleanup);
  const env = {
    XDG_CONFIG_HOME: path.join(t.dir, '.config'),
    XDG_DATA_HOME: path.join(t.dir, '.local', 'share'),
  };
  const data = defaultDataDir('linux', env, t.dir);
  const [legacy] = legacyDataDirs(data, 'linux', env, t.dir);
  fs.mkdirSync(legacy!, { recursive: true });
  return { env, home: t.dir, legacy: legacy!, data };
}

/** An old store with a paper exchange beside it, as the app left it. */
function oldFolder(dir: string): void {
  seedStore(path.join(dir, STORE_FILE));
  const paper = new Database(path.join(dir, PAPER_FILE));
  paper.pragma('journal_mode = WAL');
  paper.exec("CREATE TABLE records (id TEXT); INSERT INTO records VALUES ('wallet')");
  paper.close();
  fs.writeFileSync(path.join(dir, `${PAPER_FILE}.keys`), `${'ab'.repeat(32)}\n`, { mode: 0o600 });
}

describe('a store where an earlier version kept it', () => {
  test('is moved once to the data folder, with the paper exchange; the old copies are kept', () => {
    const { legacy, data } = home();
    oldFolder(legacy);

    expect(moveLegacyStore(data, [legacy], AT)).toEqual([
      { kind: 'moved', from: legacy, to: data },
    ]);

    expect(fs.readdirSync(data).sort()).toEqual([STORE_FILE, PAPER_FILE, `${PAPER_FILE}.keys`]);
    expect(fs.statSync(path.join(data, `${PAPER_FILE}.keys`)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(legacy).sort()).toEqual(
      [MOVED_NOTE, `${STORE_FILE}.moved`, `${PAPER_FILE}.keys.moved`, `${PAPER_FILE}.moved`].sort(),
    );
    expect(fs.readFileSync(path.join(legacy, MOVED_NOTE), 'utf8')).toContain(data);
    const store = openStore(path.join(data, STORE_FILE));
    try {
      expect(counts(store)).toMatchObject({ accounts: 2, orders: 2, settlements: 500 });
    } finally {
      store.close();
    }
    const paper = new Database(path.join(data, PAPER_FILE), { readonly: true });
    expect(paper.prepare('SELECT id FROM records').pluck().all()).toEqual(['wallet']);
    paper.close();

    // Once: the next start finds nothing left to move.
    expect(moveLegacyStore(data, [legacy], AT)).toEqual([]);
  });

  test('with its WAL not yet copied in: nothing of it is lost', () => {
    const { legacy, data } = home();
    seedStore(path.join(legacy, STORE_FILE));
    const db = new Database(path.join(legacy, STORE_FILE));
    db.pragma('wal_autocheckpoint = 0');
    db.exec("INSERT INTO settings (key, value, updated_at) VALUES ('late', 'in the wal', 1)");
    const wal = fs.readFileSync(path.join(legacy, `${STORE_FILE}-wal`));
    db.close();
    // As after a crash: the WAL beside the file still holds the last commit.
    fs.writeFileSync(path.join(legacy, `${STORE_FILE}-wal`), wal);

    moveLegacyStore(data, [legacy], AT);
    const store = openStore(path.join(data, STORE_FILE));
    expect(store.settings.get('late')).toBe('in the wal');
    store.close();
  });

  test('is left alone while another program has it open, and nothing is moved', () => {
    const { legacy, data } = home();
    oldFolder(legacy);
    const other = new Database(path.join(legacy, STORE_FILE));
    other.pragma('journal_mode = WAL');
    other.prepare('SELECT count(*) FROM accounts').get();
    try {
      let refused: unknown;
      try {
        moveLegacyStore(data, [legacy], AT);
      } catch (err) {
        refused = err;
      }
      expect(refused).toBeInstanceOf(StoreError);
      expect((refused as Error).message).toMatch(/still has .* open/);
    } finally {
      other.close();
    }
    expect(fs.existsSync(path.join(data, STORE_FILE))).toBe(false);
    expect(fs.existsSync(path.join(legacy, STORE_FILE))).toBe(true);
  }, 30_000);

  test('beside a store in the data folder: the new one is used, nothing merged or moved', () => {
    const { legacy, data } = home();
    oldFolder(legacy);
    fs.mkdirSync(data, { recursive: true });
    openStore(path.join(data, STORE_FILE)).close();
    const before = fs.readdirSync(legacy).sort();
    expect(moveLegacyStore(data, [legacy], AT)).toEqual([
      { kind: 'two-stores', used: data, other: legacy },
    ]);
    expect(fs.readdirSync(legacy).sort()).toEqual(before);
  });

  test('in the same folder under another name (macOS, Windows: Betdesk is betdesk) stays', () => {
    const { data } = home();
    seedStore(path.join(data, STORE_FILE));
    const t = tempDir('betdesk-alias-');
    cleanups.push(t.cleanup);
    const alias = path.join(t.dir, 'betdesk');
    fs.symlinkSync(data, alias);
    expect(moveLegacyStore(data, [alias], AT)).toEqual([]);
    expect(fs.readdirSync(data)).toContain(STORE_FILE);
  });

  test('that is damaged is moved as it is, and rebuilt in its new place', async () => {
    const { env, home: h, legacy, data } = home();
    seedStore(path.join(legacy, STORE_FILE));
    writeGarbage(path.join(legacy, STORE_FILE));
    const opened = await openDataStore(data, {
      legacyDirs: legacyDataDirs(data, 'linux', env, h),
      now: () => AT,
    });
    try {
      expect(opened.news.map((n) => n.kind)).toEqual(['moved', 'recovered']);
      expect(fs.existsSync(path.join(legacy, `${STORE_FILE}.moved`))).toBe(true);
      expect(opened.recovery?.movedTo).toBe(
        path.join(data, `${STORE_FILE}.corrupt-2026-11-26T13-20-00Z`),
      );
    } finally {
      opened.store.close();
    }
  });
});

describe('opening the data folder', () => {
  test('moves the old store and keeps the notice until it is acknowledged', async () => {
    const { env, home: h, legacy, data } = home();
    oldFolder(legacy);
    const options = { legacyDirs: legacyDataDirs(data, 'linux', env, h), now: () => AT };
    const first = await openDataStore(data, options);
    expect(first.news).toHaveLength(1);
    expect(first.news[0]).toMatchObject({ kind: 'moved', at: AT, movedTo: data });
    expect(first.news[0]!.message).toContain(`Betdesk now keeps its data in ${data}`);
    expect(first.news[0]!.message).toContain(`moved your store there from ${legacy}`);
    expect(first.store.accounts.list()).toHaveLength(2);
    first.store.close();

    const second = await openDataStore(data, options);
    expect(second.news).toEqual([]);
    expect(second.notices.current()?.kind).toBe('moved');
    expect(second.notices.acknowledge(AT)).toBe(true);
    expect(second.notices.current()).toBeUndefined();
    second.store.close();
  });

  test('says so when the old folder holds a store too', async () => {
    const { env, home: h, legacy, data } = home();
    oldFolder(legacy);
    fs.mkdirSync(data, { recursive: true });
    openStore(path.join(data, STORE_FILE)).close();
    const opened = await openDataStore(data, {
      legacyDirs: legacyDataDirs(data, 'linux', env, h),
      now: () => AT,
    });
    expect(opened.news.map((n) => [n.kind, n.movedTo])).toEqual([['two-stores', null]]);
    expect(opened.news[0]!.message).toMatch(/nothing was merged/);
    expect(opened.store.accounts.list()).toEqual([]);
    opened.store.close();
  });
});

test('the CLI, started by a user whose app kept its store in ~/.config/betdesk, moves it and uses it', async () => {
  const t = tempDir('betdesk-home-');
  cleanups.push(t.cleanup);
  const legacy = path.join(t.dir, '.config', 'betdesk');
  fs.mkdirSync(legacy, { recursive: true });
  oldFolder(legacy);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('BETDESK_') && !k.startsWith('XDG_')) env[k] = v;
  }
  env['HOME'] = t.dir;
  const run = await runCliFromSource(['accounts', 'list'], env);
  const data = path.join(t.dir, '.local', 'share', 'betdesk');
  expect(run.stderr).toContain(`Betdesk now keeps its data in ${data}`);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('"label":"main"');
  expect(fs.existsSync(path.join(data, STORE_FILE))).toBe(true);
  expect(fs.existsSync(path.join(legacy, `${STORE_FILE}.moved`))).toBe(true);
}, 60_000);
