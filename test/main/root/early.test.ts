/**
 * The early bridge on real store files: the starting account's stored markets, marked as saved,
 * answered before the services are up; nothing early (and no error) for a missing, older,
 * damaged or empty store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_FILE } from '../../../src/main/data/store-file.js';
import { startGate } from '../../../src/main/ipc/start-gate.js';
import type { Bridged } from '../../../src/main/ipc/handlers.js';
import { earlyBridge } from '../../../src/main/root/early.js';
import { StartTracker } from '../../../src/main/start/index.js';
import { openWriter } from '../../../src/main/store/connection.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { migrations, runMigrations } from '../../../src/main/store/migrations/index.js';
import type { FixturesFilter } from '../../../src/shared/ipc/contract.js';
import { writeGarbage } from '../store/damage.js';
import { fixture, tempDir } from '../store/support.js';

const ALL: FixturesFilter = { openOnly: false, limit: 100, offset: 0 };

let dir: string;
let cleanup: () => void;
let file: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir('betdesk-early-'));
  file = path.join(dir, STORE_FILE);
});
afterEach(() => cleanup());

/** A store as the app leaves it: paper and a live account, each with fixtures and a sync time. */
function seed(fill?: (store: Store, ids: { paper: number; live: number }) => void): {
  paper: number;
  live: number;
} {
  const store = openStore(file);
  try {
    const paper = store.accounts.create({
      label: 'Paper (sandbox)',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'key-paper',
      isPaper: true,
    }).id;
    const live = store.accounts.create({
      label: 'main',
      baseUrl: 'http://127.0.0.1:8',
      apiKey: 'key-live',
    }).id;
    store.fixtures.upsertMany(
      paper,
      [
        fixture('EPL-B', { startsAt: 2_000 }),
        fixture('BUN-A', { league: 'Bundesliga', homeTeam: 'BAY', awayTeam: 'BVB' }),
        fixture('EPL-A', { startsAt: 1_000, bettingOpen: false }),
      ],
      1,
    );
    store.cursors.set(paper, 'fixtures', 3, 1_700_000_000_000);
    store.fixtures.upsertMany(live, [fixture('LIVE-1', { league: 'La Liga' })], 1);
    store.cursors.set(live, 'fixtures', 1, 1_700_000_500_000);
    fill?.(store, { paper, live });
    return { paper, live };
  } finally {
    store.close();
  }
}

async function listed(filter: FixturesFilter = ALL) {
  const list = earlyBridge({ dataDir: dir }).handlers['fixtures:list'];
  return list ? await list(filter) : undefined;
}

describe('the stored markets before the services', () => {
  it('are paper’s when no live account is remembered: sorted, filtered, marked as saved', async () => {
    seed();
    const page = await listed();
    expect(page).toMatchObject({
      total: 3,
      leagues: ['Bundesliga', 'Premier League'],
      syncedAt: 1_700_000_000_000,
      saved: true,
    });
    expect(page?.fixtures.map((f) => f.contractId)).toEqual(['BUN-A', 'EPL-A', 'EPL-B']);
    const open = await listed({ openOnly: true, league: 'Premier League', limit: 20, offset: 0 });
    expect(open?.fixtures.map((f) => f.contractId)).toEqual(['EPL-B']);
  });

  it('are the remembered live account’s, never another account’s', async () => {
    seed((store, { live }) => store.settings.set('activeAccountId', String(live)));
    const page = await listed();
    expect(page?.fixtures.map((f) => f.contractId)).toEqual(['LIVE-1']);
    expect(page?.syncedAt).toBe(1_700_000_500_000);
  });

  it('leave the file as it was: read once, on a connection closed at once', async () => {
    seed();
    const before = fs.readFileSync(file);
    const early = earlyBridge({ dataDir: dir });
    // The store can be moved aside at once (as a damaged one is): nothing holds it open.
    fs.renameSync(file, `${file}.moved`);
    expect((await early.handlers['fixtures:list']?.(ALL))?.total).toBe(3);
    expect(fs.readFileSync(`${file}.moved`).equals(before)).toBe(true);
  });
});

describe('answered', () => {
  it('resolves once the stored markets were first answered', async () => {
    seed();
    const early = earlyBridge({ dataDir: dir });
    let answered = false;
    void early.answered.then(() => (answered = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    await early.handlers['fixtures:list']?.(ALL);
    await early.answered;
  });

  it('resolves at once when nothing is answered early', async () => {
    const early = earlyBridge({ dataDir: dir });
    await early.answered;
    expect(early.handlers).toEqual({});
  });
});

describe('nothing early, and no error', () => {
  it('without a store file', async () => {
    expect(await listed()).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('for a store of an older schema (it is being upgraded) or a newer one', async () => {
    const older = openWriter(file);
    runMigrations(older, migrations.slice(0, -1));
    older.close();
    expect(await listed()).toBeUndefined();
    fs.rmSync(file);

    // Markets the preview could read, in a file that says another schema: still nothing.
    seed();
    for (const version of [migrations.length - 1, migrations.length + 1]) {
      const db = openWriter(file);
      db.pragma(`user_version = ${version}`);
      db.close();
      expect(await listed()).toBeUndefined();
    }
  });

  it('for a damaged file', async () => {
    writeGarbage(file);
    expect(await listed()).toBeUndefined();
  });

  it('for a store that holds no markets for the starting account', async () => {
    seed((store, { live, paper }) => {
      store.settings.set('activeAccountId', String(live));
      store.db.prepare('DELETE FROM fixtures WHERE account_id = ?').run(live);
      expect(store.fixtures.list(paper, { limit: 1, offset: 0 }).total).toBe(3);
    });
    expect(await listed()).toBeUndefined();
  });
});

describe('through the start gate', () => {
  it('answers the stored markets while the services are not up, then the services answer', async () => {
    seed();
    const early = earlyBridge({ dataDir: dir });
    let up!: (services: Bridged) => void;
    const services = new Promise<Bridged>((resolve) => (up = resolve));
    const gate = startGate({ tracker: new StartTracker(), services, early: early.handlers });

    // The services are held: a call they must answer waits, the stored markets do not.
    let infoAnswered = false;
    const info = gate.handlers['app:info']({}).then((i) => ((infoAnswered = true), i));
    const saved = await gate.handlers['fixtures:list'](ALL);
    expect(saved.saved).toBe(true);
    expect(saved.total).toBe(3);
    expect(infoAnswered).toBe(false);

    const fromServices = { ...saved, fixtures: [], total: 0, saved: false };
    const handlers = {
      'app:info': () => Promise.resolve({ from: 'services' }),
      'fixtures:list': () => Promise.resolve(fromServices),
    } as unknown as Bridged['handlers'];
    up({ handlers, events: { subscribe: () => () => {} } });
    expect(await info).toEqual({ from: 'services' });
    expect(await gate.handlers['fixtures:list'](ALL)).toBe(fromServices);
  });
});
