/**
 * The migrations off the main thread (store/migrate-worker.ts) and the opening's progress
 * (store/open.ts): an older store is backed up, then migrated on a worker step by step, each
 * step told with its name, and every row is kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWriter } from '../../../src/main/store/connection.js';
import {
  listBackups,
  NewerSchemaError,
  openCheckedStore,
  Store,
} from '../../../src/main/store/index.js';
import { migrateFile } from '../../../src/main/store/migrate-worker.js';
import {
  latestVersion,
  migrations,
  runMigrations,
  schemaVersion,
  type MigrationStep,
} from '../../../src/main/store/migrations/index.js';
import { StartTracker, type StartStep } from '../../../src/main/start/index.js';
import type { StartProgress } from '../../../src/shared/ipc/contract.js';
import { seedSettlements } from '../../../bench/settlement-seed.js';
import { tempDir } from './support.js';

let cleanup = () => {};
afterEach(() => cleanup());

/** A store file of schema `version` holding `rows` settlements of one account. */
function oldStore(version: number, rows = 50): string {
  const t = tempDir('betdesk-migrate-');
  cleanup = t.cleanup;
  const file = path.join(t.dir, 'betdesk.sqlite');
  const db = openWriter(file);
  runMigrations(db, migrations.slice(0, version));
  db.exec(`INSERT INTO accounts (id, label, base_url, api_key, created_at)
    VALUES (1, 'main', 'https://x.example', 'k', 0)`);
  // Real rows, as that version wrote them (bench/settlement-seed.ts writes for the schema it finds).
  seedSettlements(new Store(file, db), 1, rows);
  db.close();
  return file;
}

function countOf(file: string): { version: number; settlements: number } {
  const db = openWriter(file);
  try {
    const settlements = db.prepare('SELECT count(*) FROM settlements').pluck().get() as number;
    return { version: schemaVersion(db), settlements };
  } finally {
    db.close();
  }
}

describe('the migration worker', () => {
  it('migrates a closed file on a worker thread, telling each step with its name', async () => {
    const file = oldStore(5);
    const steps: MigrationStep[] = [];
    const result = await migrateFile(file, { onStep: (s) => steps.push(s) });
    expect(result).toEqual({ from: 5, to: latestVersion(), onWorker: true });
    expect(steps.map((s) => [s.step, s.steps, s.version])).toEqual([
      [1, 5, 6],
      [2, 5, 7],
      [3, 5, 8],
      [4, 5, 9],
      [5, 5, 10],
    ]);
    expect(steps[0]?.name).toBe('realized P&L');
    expect(countOf(file)).toEqual({ version: latestVersion(), settlements: 50 });
  });

  it('refuses a store of a newer Betdesk with NewerSchemaError, leaving it as it was', async () => {
    const file = oldStore(latestVersion());
    const db = openWriter(file);
    db.pragma(`user_version = ${latestVersion() + 1}`);
    db.close();
    await expect(migrateFile(file)).rejects.toBeInstanceOf(NewerSchemaError);
    expect(countOf(file).version).toBe(latestVersion() + 1);
  });

  it('runs on this thread when no worker can start', async () => {
    const file = oldStore(8);
    const steps: MigrationStep[] = [];
    const result = await migrateFile(file, {
      onStep: (s) => steps.push(s),
      entry: { url: new URL('file:///no/such/migrate-worker.js') },
    });
    expect(result).toEqual({ from: 8, to: latestVersion(), onWorker: false });
    expect(steps.map((s) => s.name)).toEqual(['guardians', 'realized P&L, again']);
    expect(countOf(file)).toEqual({ version: latestVersion(), settlements: 50 });
  });
});

describe('opening an older store with a start tracker', () => {
  it('says checking, the backup in pages, then each upgrade step, and keeps every row', async () => {
    const file = oldStore(5, 3000);
    const tracker = new StartTracker();
    const seen: StartProgress[] = [];
    tracker.subscribe((p) => seen.push(p));
    const steps: StartStep[] = [];
    const { store, backupDir } = await openCheckedStore(file, {
      report: (step) => {
        steps.push(step);
        tracker.report(step);
      },
    });
    try {
      expect(store.schemaVersion).toBe(latestVersion());
      expect(store.db.prepare('SELECT count(*) FROM settlements').pluck().get()).toBe(3000);
    } finally {
      store.close();
    }
    expect(listBackups(backupDir).map((b) => b.beforeMigrationOf)).toEqual([5]);

    // The phases in order, each said once or more, never going back.
    const phases = seen.map((p) => p.phase).filter((p, i, all) => all[i - 1] !== p);
    expect(phases).toEqual(['checking', 'backing-up', 'upgrading']);
    const pages = steps.filter((s) => s.phase === 'backing-up' && s.unit === 'pages');
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.at(-1)?.done).toBe(pages.at(-1)?.total);
    expect(steps.filter((s) => s.phase === 'upgrading').map((s) => s.message)).toEqual([
      'Upgrading your store: step 1 of 5 (realized P&L)',
      'Upgrading your store: step 2 of 5 (equity points)',
      'Upgrading your store: step 3 of 5 (price history)',
      'Upgrading your store: step 4 of 5 (guardians)',
      'Upgrading your store: step 5 of 5 (realized P&L, again)',
    ]);
    expect(seen.at(-1)).toMatchObject({ phase: 'upgrading', done: 4, total: 5, unit: 'steps' });
  });

  it('says nothing but checking for a store of the latest schema', async () => {
    const file = oldStore(latestVersion());
    const steps: StartStep[] = [];
    const { store } = await openCheckedStore(file, { report: (s) => steps.push(s) });
    store.close();
    expect(steps.map((s) => s.phase)).toEqual(['checking']);
    expect(fs.existsSync(path.join(path.dirname(file), 'backups'))).toBe(false);
  });
});
