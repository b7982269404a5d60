/**
 * The CLI on an older store (cli/context.ts): the upgrade's phases are said on stderr, one
 * line each, and the command then runs on the upgraded store with every row kept.
 * BETDESK_START_SAY_AFTER_MS=0 says every step at once, so the test needs no slow store.
 */
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSettlements } from '../../../bench/settlement-seed.js';
import { main } from '../../../src/main/cli/main.js';
import { openWriter } from '../../../src/main/store/connection.js';
import { Store } from '../../../src/main/store/index.js';
import {
  latestVersion,
  migrations,
  runMigrations,
  schemaVersion,
} from '../../../src/main/store/migrations/index.js';
import { tempDir } from '../store/support.js';

let cleanup = () => {};
afterEach(() => cleanup());

async function cli(db: string, args: string[], env: Record<string, string>) {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const code = await main(
    [...args, '--db', db],
    {
      stdin: Readable.from([]),
      stdout: new PassThrough().resume(),
      stderr,
      env: {
        XDG_DATA_HOME: path.join(path.dirname(db), 'data'),
        BETDESK_KEYCHAIN_SERVICE: 'Betdesk-test-unused',
        ...env,
      },
    },
    { wait: () => new Promise(() => {}) },
  );
  return { code, stderr: err };
}

describe('the CLI opening an older store', () => {
  it('says the backup and each upgrade step on stderr, then runs on the upgraded store', async () => {
    const t = tempDir('betdesk-cli-start-');
    cleanup = t.cleanup;
    const db = path.join(t.dir, 'betdesk.sqlite');
    const old = openWriter(db);
    runMigrations(old, migrations.slice(0, 6));
    old.exec(`INSERT INTO accounts (id, label, base_url, api_key, created_at)
      VALUES (1, 'main', 'https://x.example', 'k', 0)`);
    seedSettlements(new Store(db, old), 1, 2000);
    old.close();

    const r = await cli(db, ['accounts', 'list'], { BETDESK_START_SAY_AFTER_MS: '0' });
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('betdesk: '));
    expect(lines[0]).toMatch(/^betdesk: opening your store, \d+ s$/);
    expect(lines[1]).toMatch(/^betdesk: checking your store, \d+ s$/);
    expect(lines[2]).toMatch(/^betdesk: backing up your store before upgrading it, \d+ s$/);
    expect(lines.filter((l) => l.includes('upgrading your store'))).toEqual([
      expect.stringMatching(
        /^betdesk: upgrading your store: step 1 of 4 \(equity points\), \d+ s$/,
      ),
      expect.stringMatching(
        /^betdesk: upgrading your store: step 2 of 4 \(price history\), \d+ s$/,
      ),
      expect.stringMatching(/^betdesk: upgrading your store: step 3 of 4 \(guardians\), \d+ s$/),
      expect.stringMatching(
        /^betdesk: upgrading your store: step 4 of 4 \(realized P&L, again\), \d+ s$/,
      ),
    ]);
    // Then the P&L of the settled bets is worked out before the command reads the store.
    expect(lines.slice(-3)).toEqual([
      expect.stringMatching(/^betdesk: ready, \d+ s$/),
      expect.stringMatching(/^betdesk: working out the P&L of \d+ past bets…$/),
      'betdesk: the P&L of past bets is worked out.',
    ]);

    const after = openWriter(db);
    try {
      expect(schemaVersion(after)).toBe(latestVersion());
      expect(after.prepare('SELECT count(*) FROM settlements').pluck().get()).toBe(2000);
      // None is left as the upgrade left it: unknown without a reason.
      const left = after
        .prepare(
          `SELECT count(*) FROM settlements
           WHERE type = 'SETTLEMENT' AND pnl_source = 'unknown' AND pnl_note IS NULL`,
        )
        .pluck()
        .get();
      expect(left).toBe(0);
      expect(after.prepare('SELECT count(*) FROM realized_backfill').pluck().get()).toBe(0);
    } finally {
      after.close();
    }
  });

  it('says nothing of a quick opening', async () => {
    const t = tempDir('betdesk-cli-start-');
    cleanup = t.cleanup;
    const db = path.join(t.dir, 'betdesk.sqlite');
    const r = await cli(db, ['accounts', 'list'], {});
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/^betdesk: /m);
  });
});
