import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewAccount } from '../../../src/main/store/index.js';
import { tempStore } from './support.js';

let done = () => {};
afterEach(() => done());

describe('secrets never reach the store', () => {
  it('no table has a column that could hold an API secret', () => {
    const t = tempStore();
    done = t.done;
    const tables = t.store.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .pluck()
      .all() as string[];
    const columns = tables.flatMap((table) =>
      (t.store.db.pragma(`table_info(${table})`) as { name: string }[]).map(
        (c) => `${table}.${c.name}`,
      ),
    );
    expect(columns.length).toBeGreaterThan(50);
    expect(columns.filter((c) => /secret|password|private|signature|token/i.test(c))).toEqual([]);
  });

  it('a secret passed along with an account is not written to the database file', () => {
    const t = tempStore();
    done = t.done;
    const secret = 'S3CR3T-never-on-disk-8f2a';
    // As if a form handed over everything the user typed, secret included.
    const input: NewAccount & { secret: string } = {
      label: 'leaky',
      baseUrl: 'http://x',
      apiKey: 'key-9',
      secret,
    };
    const account = t.store.accounts.create(input);
    expect(JSON.stringify(account)).not.toContain(secret);
    t.store.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const suffix of ['', '-wal']) {
      const path = t.file + suffix;
      if (fs.existsSync(path)) expect(fs.readFileSync(path).includes(secret)).toBe(false);
    }
    expect(fs.readFileSync(t.file).includes('key-9')).toBe(true); // the check can see text
  });
});
