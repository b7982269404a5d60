/**
 * Append-only, numbered migrations. Never edit a released one: add the next number.
 * Each runs in one transaction together with `PRAGMA user_version = N`, so a crash leaves the
 * database at the previous version, never half way.
 */
import type { Db } from '../connection.js';
import { NewerSchemaError, StoreError } from '../errors.js';
import * as m001 from './001_initial.js';
import * as m002 from './002_settings.js';
import * as m003 from './003_alert_centre.js';
import * as m004 from './004_history.js';
import * as m005 from './005_fixtures_per_account.js';
import * as m006 from './006_realized_pnl.js';
import * as m007 from './007_equity_points.js';
import * as m008 from './008_price_history.js';
import * as m009 from './009_guardians.js';
import * as m010 from './010_realized_again.js';

export interface Migration {
  readonly version: number;
  /** What it does, in the user's words: the start screen says "step 2 of 3 (realized P&L)". */
  readonly name?: string;
  up(db: Db): void;
}

/** One migration about to run: step `step` of `steps` this upgrade runs (docs/data.md, "Start"). */
export interface MigrationStep {
  readonly step: number;
  readonly steps: number;
  readonly version: number;
  readonly name: string;
}

export const migrations: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
];

export function latestVersion(list: readonly Migration[] = migrations): number {
  return list.at(-1)?.version ?? 0;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings `db` up to the last migration of `list`.
 * @throws NewerSchemaError when the database is ahead of `list`; nothing is changed then.
 */
export function runMigrations(
  db: Db,
  list: readonly Migration[] = migrations,
  onStep?: (step: MigrationStep) => void,
): { from: number; to: number } {
  list.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new StoreError(`Migration list is out of order at ${m.version} (expected ${i + 1}).`);
    }
  });
  const from = schemaVersion(db);
  const known = latestVersion(list);
  if (from > known) throw new NewerSchemaError(from, known);
  const todo = list.filter((m) => m.version > from);
  for (const [i, m] of todo.entries()) {
    onStep?.({
      step: i + 1,
      steps: todo.length,
      version: m.version,
      name: m.name ?? `schema ${m.version}`,
    });
    db.transaction(() => {
      // Another process (the CLI beside the app) may have run it since `from` was read.
      if (schemaVersion(db) >= m.version) return;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return { from, to: Math.max(from, known) };
}
