/**
 * `cli sync` runs the account's guardians beside its engine, as the app does: a separate process
 * against the real sandbox exchange, on the store file a rule was armed in; one JSON line per
 * guardian log row it writes.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { GuardBook } from '../../../src/main/guard/book.js';
import { openStore } from '../../../src/main/store/index.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { untilFinal } from '../sync/helpers.js';
import { bundle, root, type Runnable } from '../trading/bundle.js';
import { tempDir } from '../trading/support.js';

let sandbox: Sandbox;
let cli: Runnable;
let dir: { dir: string; cleanup: () => void };
let key: { apiKey: string; secret: string; wallet: string };
let fixture: { contractId: string; homeTeam: string };

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  cli = await bundle('src/main/cli/index.ts', 'betdesk-cli-guard');
  dir = tempDir('betdesk-cli-guard-');
  key = await sandbox.newAccount('trade');
  fixture = await sandbox.admin('POST', '/fixtures', {
    homeTeam: 'HOM',
    awayTeam: 'AWY',
    league: 'Guard League',
  });
});

afterAll(async () => {
  await sandbox.close();
  cli.remove();
  dir.cleanup();
});

function syncOnce(db: string): Promise<Record<string, unknown>[]> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BETDESK_')) env[k] = v;
  Object.assign(env, {
    XDG_DATA_HOME: path.join(dir.dir, 'data'),
    BETDESK_API_KEY: key.apiKey,
    BETDESK_API_SECRET: key.secret,
    BETDESK_BASE_URL: sandbox.url,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(cli.file, [...cli.args, 'sync', '--once', '--db', db], { cwd: root, env });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`sync --once exited ${code}`));
      else
        resolve(
          stdout
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l) as Record<string, unknown>),
        );
    });
  });
}

describe('cli sync', () => {
  it('fires an armed rule on its pass, closes the share, and prints each log row', async () => {
    const client = new ExchangeClient({ baseUrl: sandbox.url, credentials: key });
    try {
      const placed = await client.placeOrder({
        orderType: 'MARKET',
        legs: [
          {
            contractId: fixture.contractId,
            outcome: fixture.homeTeam,
            side: 'BUY',
            market: 'DRAW_NO_BET',
          },
        ],
        qty: '10',
        marketUnit: 'BASE',
      });
      await untilFinal(client, placed.order.orderId);
    } finally {
      await client.close();
    }
    const db = path.join(dir.dir, 'guard.sqlite');
    await syncOnce(db);

    // A stop at a closing price of 0.9999 holds on any figures: armed knowing it fires now.
    const store = openStore(db);
    let ruleId: number;
    try {
      const [account] = store.accounts.list();
      ruleId = new GuardBook({ store }).arm(account!.id, {
        contractId: fixture.contractId,
        outcome: fixture.homeTeam,
        rules: [{ kind: 'stop_loss', price: '0.9999', sharePercent: 50, confirmations: 1 }],
        fireNow: true,
      })[0]!.id;
    } finally {
      store.close();
    }

    const lines = (await syncOnce(db)).filter((l) => String(l['event']).startsWith('guard:'));
    expect(lines.map((l) => l['event'])).toEqual(['guard:fired', 'guard:sent', 'guard:filled']);
    expect(lines[0]).toMatchObject({ ruleId, kind: 'stop_loss', contracts: 5 });
    expect(lines[2]!['message']).toMatch(/^Closed: sold 5 contracts of HOM \(HOM v AWY\)/);

    // The next pass sees what is left, and the rule does not fire again.
    const again = (await syncOnce(db)).filter((l) => String(l['event']).startsWith('guard:'));
    expect(again).toEqual([]);
    const after = openStore(db);
    try {
      const [account] = after.accounts.list();
      expect(after.positions.list(account!.id)[0]?.contracts).toBe(5);
      expect(after.guards.get(ruleId)?.state).toBe('closed');
    } finally {
      after.close();
    }
  });
});
