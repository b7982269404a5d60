/**
 * A populated store of the previous schema, as a user who last ran the previous Betdesk has it:
 * migrations 1 to `version` (8: before the guardians), then real rows written the way that
 * version wrote them: a year of settlements (bench/settlement-seed.ts) and read alerts. Big
 * enough that its upgrade (the backup, then the step) outlasts the page's load.
 */
import { join } from 'node:path';
import { seedSettlements } from '../../bench/settlement-seed.js';
import { openWriter } from '../../src/main/store/connection.js';
import { Store } from '../../src/main/store/index.js';
import { migrations, runMigrations } from '../../src/main/store/migrations/index.js';

export interface OldStore {
  file: string;
  settlements: number;
  alerts: number;
}

/** Writes `<dataDir>/betdesk.sqlite` at schema `version` with `rows` settlements and alerts. */
export function writeOldStore(dataDir: string, rows: number, version = 8): OldStore {
  const file = join(dataDir, 'betdesk.sqlite');
  const db = openWriter(file);
  try {
    runMigrations(db, migrations.slice(0, version));
    db.exec(`INSERT INTO accounts (id, label, base_url, api_key, created_at)
      VALUES (1, 'old', 'https://exchange.example', 'key-old', 0)`);
    seedSettlements(new Store(file, db), 1, rows);
    // Migration 009 copies every alert into its new table: one per settlement, read.
    db.prepare(
      `INSERT INTO alerts (account_id, kind, contract_id, outcome, level, threshold, message,
         dedup_key, created_at, read_at)
       SELECT account_id, 'knocked_out', contract_id, outcome, '0.4100', '0.4000',
         'Knocked out: ' || outcome, 'ko-' || id, timestamp_ms, timestamp_ms + 1000
       FROM settlements`,
    ).run();
    const count = (table: string) =>
      db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return { file, settlements: count('settlements'), alerts: count('alerts') };
  } finally {
    db.close();
  }
}

/** The rows of the store at `file` now, and its schema. */
export function rowsOf(file: string): { settlements: number; alerts: number; schema: number } {
  const db = openWriter(file);
  try {
    const count = (table: string) =>
      db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return {
      settlements: count('settlements'),
      alerts: count('alerts'),
      schema: db.pragma('user_version', { simple: true }) as number,
    };
  } finally {
    db.close();
  }
}
