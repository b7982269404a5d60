import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/index.js';
import { migrations, runMigrations } from '../../../src/main/store/migrations/index.js';
import { tempDir, tempStore } from './support.js';

let cleanup = () => {};
afterEach(() => cleanup());

describe('the alerts table', () => {
  it('stores an alert once per dedup key and counts the unread by kind', () => {
    const t = tempStore();
    cleanup = t.done;
    const base = { accountId: t.accountId, contractId: 'C', outcome: 'ARS', createdAt: 1 };
    const fill = t.store.alerts.insertOnce({
      ...base,
      kind: 'filled',
      orderId: '0x1',
      message: 'Filled.',
      dedupKey: 'filled|0x1',
    });
    expect(fill).toMatchObject({ kind: 'filled', orderId: '0x1', readAt: null });
    expect(
      t.store.alerts.insertOnce({ ...base, kind: 'filled', message: 'x', dedupKey: 'filled|0x1' }),
    ).toBeUndefined();
    const near = t.store.alerts.insertOnce({ ...base, kind: 'near', message: 'Near.' })!;
    t.store.alerts.insertOnce({ ...base, kind: 'knocked_out', message: 'Out.' });
    expect(t.store.alerts.unreadCounts(t.accountId)).toEqual({
      near: 1,
      knocked_out: 1,
      filled: 1,
      rejected: 0,
      guard: 0,
    });

    expect(t.store.alerts.markRead(t.accountId, 50, [near.id, near.id, 999])).toBe(1);
    expect(t.store.alerts.get(t.accountId, near.id)?.readAt).toBe(50);
    expect(t.store.alerts.list(t.accountId, { unreadOnly: true }).total).toBe(2);
    expect(t.store.alerts.markRead(t.accountId, 60)).toBe(2);
    expect(t.store.alerts.unreadCounts(t.accountId)).toEqual({
      near: 0,
      knocked_out: 0,
      filled: 0,
      rejected: 0,
      guard: 0,
    });
    // Another account's alerts are out of reach.
    expect(t.store.alerts.get(t.accountId + 1, near.id)).toBeUndefined();
  });

  it('keeps every alert of a version 2 store through the alert-centre migration, unread', () => {
    const { dir, cleanup: rm } = tempDir();
    cleanup = rm;
    const file = path.join(dir, 'betdesk.sqlite');
    const old = new Database(file);
    runMigrations(old, migrations.slice(0, 2));
    old.exec(`
      INSERT INTO accounts (id, label, base_url, api_key, created_at) VALUES (1, 'a', 'http://x', 'k', 1);
      INSERT INTO alerts (account_id, kind, contract_id, outcome, level, threshold, message,
        dedup_key, created_at)
      VALUES (1, 'near', 'C', 'ARS', '0.31', '0.30', 'Near.', 'near|C|ARS|0.30|0.05|0', 10),
             (1, 'knocked_out', 'C', 'ARS', '0.29', '0.30', 'Out.', 'knocked_out|C|ARS|s:5', 20);
    `);
    old.close();

    const store = openStore(file);
    try {
      const { alerts } = store.alerts.list(1);
      expect(alerts.map((a) => [a.kind, a.dedupKey, a.readAt, a.orderId])).toEqual([
        ['knocked_out', 'knocked_out|C|ARS|s:5', null, null],
        ['near', 'near|C|ARS|0.30|0.05|0', null, null],
      ]);
      expect(() =>
        store.db
          .prepare(
            "INSERT INTO alerts (account_id, kind, contract_id, outcome, message, dedup_key, created_at) VALUES (1, 'bogus', 'C', 'A', 'm', 'k', 1)",
          )
          .run(),
      ).toThrow(/CHECK/);
    } finally {
      store.close();
    }
  });
});
