/**
 * The command line as a user runs it: a separate process against the real sandbox exchange (on
 * port 0), with credentials from the environment or the keychain, and a real SQLite file. The
 * CLI is bundled once (test/main/trading/bundle.ts) so each run is a plain Node start; one test
 * goes through `npm run cli` itself. Keychain tests need `bash build/test.sh test/main/cli`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keychainName } from '../../../src/main/accounts/index.js';
import { Keychain } from '../../../src/main/keychain/keychain.js';
import { openStore } from '../../../src/main/store/index.js';
import { add, dec, Dec, price } from '../../../src/shared/money.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { untilFinal } from '../sync/helpers.js';
import { bundle, root, type Runnable } from '../trading/bundle.js';
import { tempDir } from '../trading/support.js';

const inSession = process.env['BETDESK_IN_KEYRING_SESSION'] === '1';
const keychainPresent = inSession || (await new Keychain({ service: 'Betdesk-probe' }).available());

let sandbox: Sandbox;
let cli: Runnable;
let dir: { dir: string; cleanup: () => void };
let key: { apiKey: string; secret: string; wallet: string };
let fixture: { contractId: string; homeTeam: string };
let db: string;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  cli = await bundle('src/main/cli/index.ts', 'betdesk-cli');
  dir = tempDir('betdesk-cli-');
  db = path.join(dir.dir, 'cli.sqlite');
  key = await sandbox.newAccount('trade');
  fixture = await sandbox.admin('POST', '/fixtures', {
    homeTeam: 'HOM',
    awayTeam: 'AWY',
    league: 'CLI League',
  });
});

afterAll(async () => {
  await sandbox.close();
  cli.remove();
  dir.cleanup();
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Each JSON line of stdout, parsed. */
  json: Record<string, unknown>[];
}

/** The environment without any BETDESK_ setting of the machine running the tests. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BETDESK_')) env[k] = v;
  return { ...env, XDG_DATA_HOME: path.join(dir.dir, 'data'), ...extra };
}

const envCredentials = () => ({
  BETDESK_API_KEY: key.apiKey,
  BETDESK_API_SECRET: key.secret,
  BETDESK_BASE_URL: sandbox.url,
});

function run(
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string; command?: Runnable } = {},
): Promise<Result> {
  const command = opts.command ?? cli;
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, [...command.args, ...args], {
      cwd: root,
      env: cleanEnv(opts.env ?? envCredentials()),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const json = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

const bet = (over: Record<string, string> = {}) => {
  const o = {
    contract: fixture.contractId,
    outcome: fixture.homeTeam,
    side: 'BUY',
    qty: '5',
    unit: 'BASE',
    ...over,
  };
  return Object.entries(o).flatMap(([k, v]) => [`--${k}`, v]);
};

describe('usage errors', () => {
  it('exits 2 for an unknown command, with a message and the usage line', async () => {
    const r = await run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown command "frobnicate"/);
    expect(r.stderr).toMatch(/Usage: npm run --silent cli -- <command>/);
    expect(r.stdout).toBe('');
  });

  it('exits 2 for an unknown option', async () => {
    const r = await run(['quote', ...bet(), '--colour', 'red', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--colour/);
    expect(r.stderr).toMatch(/Usage:/);
  });

  it('exits 2 for a bad value, saying what is wrong with it', async () => {
    const r = await run(['quote', ...bet({ qty: 'ten' }), '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/qty\) must be a plain decimal number/);
    const boost = await run(['order', ...bet({ side: 'SELL', boost: '5' }), '--db', db]);
    expect(boost.code).toBe(2);
    expect(boost.stderr).toMatch(/boost can only be chosen when opening a bet/);
  });

  it('exits 2 for a missing option', async () => {
    const r = await run(['quote', '--contract', fixture.contractId, '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--outcome is required/);
  });

  it('prints the usage through npm run cli', async () => {
    const npm = { file: 'npm', args: ['run', '--silent', 'cli', '--'], remove: () => {} };
    const r = await run(['--help'], { command: npm });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run --silent cli -- <command>/);
    expect(r.stdout).toMatch(/accounts add --label L --base-url U --api-key K/);
  }, 60_000);
});

describe('trading from the command line', () => {
  it('prints a quote as JSON', async () => {
    const r = await run(['quote', ...bet({ qty: '10' }), '--db', db]);
    expect(r.stderr).toMatch(/^Quote /);
    expect(r.code).toBe(0);
    expect(r.json).toHaveLength(1);
    const q = r.json[0]!;
    expect(q.rfqId).toEqual(expect.any(String));
    expect(q.contracts).toBe(10);
    expect(q.expiresInMs as number).toBeGreaterThan(20_000);
    expect(q.expiresInMs as number).toBeLessThanOrEqual(30_000);
  });

  it('places an order and waits until it is FILLED', async () => {
    const r = await run([
      'order',
      ...bet({ qty: '4' }),
      '--client-order-id',
      'cli-order-1',
      '--db',
      db,
    ]);
    expect(r.code).toBe(0);
    const out = r.json[0]!;
    expect(out.status).toBe('FILLED');
    expect(out.clientOrderId).toBe('cli-order-1');
    expect(r.stderr).toMatch(/FILLED: BUY 4 HOM/);
    const store = openStore(db);
    try {
      const account = store.accounts.list().find((a) => a.baseUrl === sandbox.url)!;
      expect(store.orders.getByClientOrderId(account.id, 'cli-order-1')?.status).toBe('FILLED');
    } finally {
      store.close();
    }
  });

  it('places a FOK through a fresh quote', async () => {
    const r = await run(['order', ...bet({ qty: '3' }), '--type', 'fok', '--db', db]);
    expect(r.code).toBe(0);
    expect((r.json[0]!.order as { orderType: string }).orderType).toBe('FOK');
  });

  it('refuses a clientOrderId used before for another bet, exit 2', async () => {
    const id = ['--client-order-id', 'cli-order-reused', '--db', db];
    expect((await run(['order', ...bet({ qty: '4' }), ...id])).code).toBe(0);
    const r = await run(['order', ...bet({ qty: '9' }), ...id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cli-order-reused .*different order parameters/);
  });

  it('exits 3 with the code and message when the exchange refuses an order', async () => {
    const other = await sandbox.admin<{ contractId: string; homeTeam: string }>(
      'POST',
      '/fixtures',
      { homeTeam: 'NON', awayTeam: 'ONE', league: 'CLI League' },
    );
    const r = await run([
      'order',
      ...bet({ contract: other.contractId, outcome: other.homeTeam, side: 'SELL' }),
      '--db',
      db,
    ]);
    expect(r.code).toBe(3);
    expect(r.json[0]).toMatchObject({ status: 'NOT_PLACED', error: { code: -2029 } });
    expect(r.stderr).toMatch(/-2029\): Nothing is held on that outcome to sell/);
  });

  it('exits 3 with the code and message when the exchange refuses a quote', async () => {
    const r = await run(['quote', ...bet({ contract: 'NOPE-XXXX-0000' }), '--db', db]);
    expect(r.code).toBe(3);
    expect(r.json[0]).toMatchObject({ error: { code: -1121 } });
    expect(r.stderr).toMatch(/Exchange error -1121: There is no fixture with that contract id/);
  });

  it('exits 4 when the exchange cannot be reached', async () => {
    const env = { ...envCredentials(), BETDESK_BASE_URL: 'http://127.0.0.1:9' };
    const quote = await run(['quote', ...bet(), '--db', db], { env });
    expect(quote.code).toBe(4);
    expect(quote.stderr).toMatch(/could not be reached/);
    const order = await run(['order', ...bet(), '--db', db], { env });
    expect(order.code).toBe(4);
    expect(order.json[0]).toMatchObject({ status: 'NOT_PLACED', error: { code: 'NETWORK' } });
  });

  it('syncs, then lists orders and positions from the local store and exports them', async () => {
    // Orders of its own, filled, whatever the tests before it did.
    const client = new ExchangeClient({ baseUrl: sandbox.url, credentials: key });
    try {
      const { contractId, homeTeam: outcome } = fixture;
      for (const qty of ['2', '3']) {
        const placed = await client.placeOrder({
          orderType: 'MARKET',
          legs: [{ contractId, outcome, side: 'BUY', market: 'DRAW_NO_BET' }],
          qty,
          marketUnit: 'BASE',
        });
        await untilFinal(client, placed.order.orderId);
      }
    } finally {
      await client.close();
    }
    const sync = await run(['sync', '--once', '--db', db]);
    expect(sync.code).toBe(0);
    expect(sync.json[0]).toMatchObject({ ok: true });

    const orders = await run(['orders', '--status', 'filled', '--db', db]);
    expect(orders.code).toBe(0);
    expect(orders.json.length).toBeGreaterThanOrEqual(2);
    expect(orders.json.every((o) => o.status === 'FILLED')).toBe(true);

    const positions = await run(['positions', '--db', db]);
    expect(positions.code).toBe(0);
    expect(positions.json).toEqual([
      expect.objectContaining({ contractId: fixture.contractId, outcome: fixture.homeTeam }),
    ]);

    const csv = path.join(dir.dir, 'orders.csv');
    const exported = await run([
      'export',
      'orders',
      '--out',
      csv,
      '--from',
      '2000-01-01',
      '--db',
      db,
    ]);
    expect(exported.code).toBe(0);
    expect(exported.json[0]).toMatchObject({ exported: 'orders', rows: orders.json.length });
    const lines = fs.readFileSync(csv, 'utf8').trim().split('\r\n');
    expect(lines[0]).toMatch(/^created_at,updated_at,order_id,client_order_id/);
    expect(lines).toHaveLength(orders.json.length + 1);

    const bad = await run(['export', 'orders', '--out', csv, '--type', 'CLOSED', '--db', db]);
    expect(bad.code).toBe(2);
  });

  it('keeps syncing until it is told to stop', async () => {
    const child = spawn(cli.file, [...cli.args, 'sync', '--db', db], {
      cwd: root,
      env: cleanEnv(envCredentials()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const changed = new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('"event":"fixtures:changed"') || stdout.includes('"state":"idle"')) {
          resolve();
        }
      });
    });
    await changed;
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^\{"event":"/);
  });

  it('keeps the store in the data directory when no --db is given', async () => {
    const r = await run(['orders']);
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(dir.dir, 'data', 'betdesk', 'betdesk.sqlite'))).toBe(true);
  });
});

describe('guardians from the command line', () => {
  /** Each test's own wallet, fixture (kick-off tomorrow) and store file. */
  async function own(homeTeam: string, awayTeam: string, file: string) {
    const key = await sandbox.newAccount('trade');
    const f = await sandbox.admin<{ contractId: string }>('POST', '/fixtures', {
      homeTeam,
      awayTeam,
      league: 'CLI League',
      startsAt: Date.now() + 86_400_000,
    });
    return {
      key,
      env: {
        BETDESK_API_KEY: key.apiKey,
        BETDESK_API_SECRET: key.secret,
        BETDESK_BASE_URL: sandbox.url,
      },
      store: path.join(dir.dir, file),
      f,
    };
  }

  it('arms a rule on a position the sync stored, lists it with its figures, and logs it', async () => {
    const { env, store, f } = await own('GRD', 'IAN', 'guardians.sqlite');
    const on = [f.contractId, 'GRD'];
    const placed = await run(
      ['order', ...bet({ contract: f.contractId, outcome: 'GRD', qty: '10', boost: '20' })],
      { env },
    );
    // Nothing held yet in this store: the guardian protects a position you hold.
    const early = await run(
      ['guard', 'add', ...on, '--kind', 'knockout', '--percent', '5', '--db', store],
      { env },
    );
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/You hold nothing on GRD/);

    expect(placed.code).toBe(0);
    expect((await run(['sync', '--once', '--db', store], { env })).code).toBe(0);
    const add = await run(
      [
        'guard',
        'add',
        ...on,
        '--kind',
        'knockout',
        '--percent',
        '5',
        '--share',
        '50',
        '--db',
        store,
      ],
      { env },
    );
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toMatch(
      /^Armed rule \d+, GRD \(GRD v IAN\): knockout guard within 5 % of the knockout, closes 50 %\./,
    );

    const list = await run(['guard', 'list', '--db', store], { env });
    expect(list.code).toBe(0);
    expect(list.json).toEqual([
      expect.objectContaining({
        contractId: f.contractId,
        outcome: 'GRD',
        state: 'armed',
        spec: { kind: 'knockout', percent: '5', sharePercent: 50, confirmations: 1 },
        fixture: expect.objectContaining({ homeTeam: 'GRD', awayTeam: 'IAN' }) as unknown,
      }),
    ]);
    // The figures of the real position: the distance to its knockout on the index.
    expect(list.json[0]!['now']).toEqual(expect.stringMatching(/^\d+\.\d{2}$/));
    expect(list.json[0]!['firesAt']).toBe('5.00');

    const csv = await run(['guard', 'log', '--csv', '--db', store], { env });
    expect(csv.code).toBe(0);
    const [header, armed, ...more] = csv.stdout.trim().split('\r\n');
    expect(header).toMatch(/^time,account,rule_id,kind,fixture,contract_id,outcome,event,/);
    expect(armed).toContain(`,knockout,GRD v IAN,${f.contractId},GRD,armed,`);
    expect(more).toEqual([]);

    const removed = await run(['guard', 'remove', ...on, '--db', store], { env });
    expect(removed.code).toBe(0);
    expect((await run(['guard', 'list', '--db', store], { env })).json).toEqual([]);
  }, 60_000);

  it('closes the share a knockout guard names when sync sees the index near it, once', async () => {
    const { key, env, store, f } = await own('KOG', 'UAR', 'guardian-close.sqlite');
    const order = bet({ contract: f.contractId, outcome: 'KOG', qty: '10', boost: '20' });
    expect((await run(['order', ...order, '--db', store], { env })).code).toBe(0);
    expect((await run(['sync', '--once', '--db', store], { env })).code).toBe(0);
    const held = (await run(['positions', '--db', store], { env })).json[0]!;
    expect(held).toMatchObject({ contracts: 10, boosted: true });
    const guard = ['--kind', 'knockout', '--percent', '5', '--share', '50', '--db', store];
    const armed = await run(['guard', 'add', f.contractId, 'KOG', ...guard], { env });
    expect(armed.code, armed.stderr).toBe(0);

    // A practice move: the index 3 % above the knockout, inside the guard's 5 %.
    const index = price(dec(held['knockout'] as string).div('0.97'), Dec.ROUND_UP);
    await sandbox.admin('POST', `/fixtures/${f.contractId}/price`, {
      outcome: 'KOG',
      indexPrice: index,
    });
    const fired = await run(['sync', '--once', '--db', store], { env });
    expect(fired.code, fired.stderr).toBe(0);
    expect(fired.json.map((j) => j['event']).filter((e) => String(e).startsWith('guard:'))).toEqual(
      expect.arrayContaining(['guard:fired', 'guard:sent', 'guard:filled']),
    );

    // Half of the 10 contracts sold, once: a second pass sends nothing more.
    const again = await run(['sync', '--once', '--db', store], { env });
    expect(again.json.filter((j) => j['event'] === 'guard:fired')).toEqual([]);
    const client = new ExchangeClient({ baseUrl: sandbox.url, credentials: key });
    try {
      const { positions } = await client.positions();
      expect(positions.find((p) => p.contractId === f.contractId)?.contracts).toBe(5);
    } finally {
      await client.close();
    }
    const list = await run(['guard', 'list', '--db', store], { env });
    expect(list.json).toEqual([]);

    const csv = await run(['guard', 'log', '--csv', '--db', store], { env });
    const events = csv.stdout
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[7]);
    expect(events).toEqual(['armed', 'fired', 'sent', 'filled']);
  }, 60_000);
});

describe('finished bets from the command line', () => {
  /** Its own wallet, fixtures and store file: nothing here depends on the tests above. */
  it('syncs the settlements of a closed and a decided bet, lists them and exports them as CSV', async () => {
    const own = await sandbox.newAccount('trade');
    const env = {
      BETDESK_API_KEY: own.apiKey,
      BETDESK_API_SECRET: own.secret,
      BETDESK_BASE_URL: sandbox.url,
    };
    const store = path.join(dir.dir, 'settlements.sqlite');
    const newFixture = (homeTeam: string, awayTeam: string) =>
      sandbox.admin<{ contractId: string; homeTeam: string }>('POST', '/fixtures', {
        homeTeam,
        awayTeam,
        league: 'Settle League',
      });
    const closed = await newFixture('CLS', 'OUT');
    const decided = await newFixture('WIN', 'LOS');
    const trade = async (
      f: { contractId: string; homeTeam: string },
      side: string,
      qty: string,
    ) => {
      const r = await run(
        [
          'order',
          ...bet({ contract: f.contractId, outcome: f.homeTeam, side, qty }),
          '--db',
          store,
        ],
        { env },
      );
      expect(r.json[0], r.stderr).toMatchObject({ status: 'FILLED' });
    };
    // Bought and sold back before the result: one CLOSED row. Held to the result: a SETTLEMENT.
    await trade(closed, 'BUY', '3');
    await trade(closed, 'SELL', '3');
    await trade(decided, 'BUY', '4');
    await sandbox.admin('POST', `/fixtures/${decided.contractId}/resolve`, { winner: 'WIN' });

    const never = await run(['settlements', '--db', store], { env });
    expect(never.code).toBe(0);
    expect(never.json).toEqual([]);
    expect(never.stderr).toMatch(/settlements: 0 from the local store; it has never been synced/);

    expect((await run(['sync', '--once', '--db', store], { env })).json[0]).toMatchObject({
      ok: true,
    });

    const all = await run(['settlements', '--db', store], { env });
    expect(all.code).toBe(0);
    expect(all.stderr).toMatch(/^settlements: 2 from the local store \(synced \d{4}-\d\d-\d\dT/);
    const byType: Record<string, Record<string, unknown>> = Object.fromEntries(
      all.json.map((r) => [String(r.type), r]),
    );
    expect(all.json).toHaveLength(2);
    expect(byType['CLOSED']).toMatchObject({
      contractId: closed.contractId,
      outcome: 'CLS',
      contracts: 3,
      price: expect.stringMatching(/^0\.\d+$/) as unknown,
      pnl: expect.stringMatching(/^-?\d+(\.\d+)?$/) as unknown,
    });
    expect(byType['CLOSED']).not.toHaveProperty('payout');
    // A winning contract pays 1: four of them, 4.
    expect(byType['SETTLEMENT']).toMatchObject({
      contractId: decided.contractId,
      outcome: 'WIN',
      contracts: 4,
      payout: expect.stringMatching(/^4(\.0+)?$/) as unknown,
    });

    const onlyDecided = await run(['settlements', '--type', 'settlement', '--db', store], { env });
    expect(onlyDecided.json).toEqual([byType['SETTLEMENT']]);

    const csv = path.join(dir.dir, 'settlements.csv');
    const exported = await run(['export', 'settlements', '--out', csv, '--db', store], { env });
    expect(exported.code).toBe(0);
    expect(exported.json).toEqual([{ exported: 'settlements', rows: 2, out: csv }]);
    expect(exported.stderr).toBe(`Wrote 2 settlements to ${csv}.\n`);
    const [header, ...rows] = fs.readFileSync(csv, 'utf8').trim().split('\r\n');
    expect(header).toBe(
      'timestamp,type,contract_id,league,home_team,away_team,outcome,contracts,price,pnl,payout,tx,' +
        'cost_basis,realized_pnl,pnl_source',
    );
    const cells = rows.map((line) => line.split(','));
    // Oldest first: the closed bet settled before the game was decided.
    expect(cells.map((c) => c.slice(1, 8))).toEqual([
      ['CLOSED', closed.contractId, 'Settle League', 'CLS', 'OUT', 'CLS', '3'],
      ['SETTLEMENT', decided.contractId, 'Settle League', 'WIN', 'LOS', 'WIN', '4'],
    ]);
    const closedRow = byType['CLOSED']!;
    // The closed bet's realized P&L is the exchange's; the decided one's is worked out from the
    // orders the sync stored: payout − basis (docs/pnl.md).
    expect(cells[0]!.slice(8)).toEqual([
      closedRow.price,
      closedRow.pnl,
      '',
      closedRow.tx,
      '',
      closedRow.pnl,
      'exchange',
    ]);
    const [basis, realized] = [cells[1]![12]!, cells[1]![13]!];
    expect(cells[1]!.slice(8)).toEqual([
      '',
      '',
      byType['SETTLEMENT']!.payout,
      byType['SETTLEMENT']!.tx,
      expect.stringMatching(/^\d+\.\d\d$/),
      expect.stringMatching(/^-?\d+\.\d\d$/),
      'orders',
    ]);
    expect(add(realized, basis)).toBe(add(String(byType['SETTLEMENT']!.payout)));

    const onlyClosed = await run(
      ['export', 'settlements', '--out', csv, '--type', 'CLOSED', '--db', store],
      { env },
    );
    expect(onlyClosed.json[0]).toMatchObject({ exported: 'settlements', rows: 1 });
    expect(fs.readFileSync(csv, 'utf8').trim().split('\r\n')).toHaveLength(2);
  }, 60_000);
});

describe.runIf(keychainPresent)('accounts from the command line', () => {
  it('reads the secret from standard input into the keychain, and into no byte of the database', async () => {
    const service = `Betdesk-test-${randomBytes(6).toString('hex')}`;
    const env = { BETDESK_KEYCHAIN_SERVICE: service };
    const accountsDb = path.join(dir.dir, 'accounts.sqlite');
    const add = await run(
      [
        'accounts',
        'add',
        '--label',
        'desk',
        '--base-url',
        sandbox.url,
        '--api-key',
        key.apiKey,
        '--db',
        accountsDb,
      ],
      { env, stdin: `${key.secret}\n` },
    );
    expect(add.stderr).toMatch(/Added account "desk" \(trade permission\)/);
    expect(add.code).toBe(0);
    expect(add.json[0]).toMatchObject({ label: 'desk', apiKey: key.apiKey, permission: 'trade' });
    expect(add.stdout).not.toContain(key.secret);
    expect(add.stderr).not.toContain(key.secret);

    const keychain = new Keychain({ service });
    const name = keychainName({ apiKey: key.apiKey, baseUrl: sandbox.url });
    expect(await keychain.getSecret(name)).toBe(key.secret);
    for (const suffix of ['', '-wal', '-shm']) {
      const f = accountsDb + suffix;
      if (fs.existsSync(f)) expect(fs.readFileSync(f).includes(key.secret), f).toBe(false);
    }

    const list = await run(['accounts', 'list', '--db', accountsDb], { env });
    expect(list.json).toEqual([expect.objectContaining({ label: 'desk' })]);
    expect(list.stdout).not.toContain(key.secret);

    // The only account is used, with its secret from the keychain.
    const quote = await run(['quote', ...bet(), '--db', accountsDb], { env });
    expect(quote.code).toBe(0);

    const removed = await run(['accounts', 'remove', '--label', 'desk', '--db', accountsDb], {
      env,
    });
    expect(removed.code).toBe(0);
    expect(await keychain.getSecret(name)).toBeNull();
  }, 60_000);

  it('exits 2 when no secret comes on standard input', async () => {
    const r = await run(
      ['accounts', 'add', '--label', 'x', '--base-url', sandbox.url, '--api-key', 'k', '--db', db],
      { env: { BETDESK_KEYCHAIN_SERVICE: 'Betdesk-test-none' } },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/secret is read from standard input/);
  });
});
