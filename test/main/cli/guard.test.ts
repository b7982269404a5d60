/**
 * `guard` on the command line (src/main/cli/commands/guard.ts), run in-process against a real
 * store file that a second connection (the app's, here the test's) holds open at the same time:
 * the CLI is used beside the running app on one store. It arms, lists, disarms and pauses
 * through the app's GuardBook, refuses what the app refuses, and writes the app's CSV of the
 * guardian log byte for byte. Guard commands send no order, so no sandbox is needed here
 * (test/main/cli/cli.test.ts runs them against one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportFeature } from '../../../src/main/export/feature.js';
import { exportGuardLogCsv } from '../../../src/main/export/index.js';
import { GuardBook } from '../../../src/main/guard/index.js';
import type { Store } from '../../../src/main/store/index.js';
import type { ExportProgress } from '../../../src/shared/ipc/contract.js';
import {
  fill,
  fillGuardLog,
  GUARD_LOG_START,
  ProgressLog,
  sessionOf,
  sink,
} from '../export/support.js';
import { fixture, position, tempStore } from '../store/support.js';
import { runInProcess, type InProcessRun } from './in-process.js';

let store: Store;
let accountId: number;
let readOnlyId: number;
let db: string;
let done = () => {};
beforeEach(() => {
  const t = tempStore();
  ({ store, accountId } = t);
  db = t.file;
  done = t.done;
  readOnlyId = store.accounts.create({
    label: 'watcher',
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'key-read',
    permission: 'read',
    wallet: '0x' + '2'.repeat(40),
  }).id;
  for (const id of [accountId, readOnlyId]) {
    const startsAt = Date.now() + 86_400_000;
    store.fixtures.upsertMany(
      id,
      [fixture('EPL-1', { startsAt }), fixture('EPL-2', { homeTeam: 'LIV', startsAt })],
      1,
    );
    const now = Date.now();
    store.replacePositions(
      id,
      [
        position('EPL-1', 'ARS', { updatedAt: now }),
        position('EPL-2', 'LIV', { boosted: false, updatedAt: now }),
      ],
      now,
    );
  }
});
afterEach(() => done());

function cli(args: string[], account: string | null = 'main'): Promise<InProcessRun> {
  return runInProcess(db, [...args, ...(account !== null ? ['--account', account] : [])]);
}

describe('guard: usage errors, found before the store is opened', () => {
  const cases: [string[], RegExp][] = [
    [['guard'], /list, add, remove, pause, resume or log/],
    [['guard', 'arm'], /Unknown guard command "arm"/],
    [['guard', 'add', 'EPL-1'], /Say which position/],
    [['guard', 'add', 'EPL-1', 'ARS'], /--kind is required/],
    [['guard', 'add', 'EPL-1', 'ARS', '--kind', 'sideways'], /--kind must be one of knockout/],
    [['guard', 'add', 'EPL-1', 'ARS', '--kind', 'stop_loss', '--percent', '5%'], /--percent/],
    [['guard', 'add', 'EPL-1', 'ARS', '--kind', 'stop_loss', '--percent', '0'], /above 0/],
    [['guard', 'add', 'EPL-1', 'ARS', '--kind', 'take_profit', '--price', '1.2'], /--price/],
    [['guard', 'add', 'EPL-1', 'ARS', '--kind', 'time_exit', '--minutes', '0'], /--minutes/],
    [['guard', 'add', 'EPL-1', 'ARS', '--kind', 'knockout', '--share', '150'], /--share/],
    [['guard', 'add', 'EPL-1', 'ARS', '--kind', 'knockout', '--confirm', '11'], /--confirm/],
    [['guard', 'remove'], /Say which rule/],
    [['guard', 'remove', 'twelve'], /is not a rule id/],
    [['guard', 'log', '--event', 'exploded'], /--event must be one of armed/],
    [['guard', 'log', '--out', 'x.csv'], /--out goes with --csv/],
    [['guard', 'log', '--from', '2024-03-02', '--to', '2024-03-01'], /--from must be before/],
    [['guard', 'list', '--all'], /leave out --account/],
  ];
  it.each(cases)('%j exits 2 and says why', async (args, words) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(words);
    expect(r.stderr).toContain('Usage: npm run --silent cli');
    expect(store.guards.allLive()).toEqual([]);
  });
});

describe('guard add, list and remove', () => {
  it('arms a rule through the GuardBook and lists it with how far it is from firing', async () => {
    const added = await cli([
      'guard',
      'add',
      'EPL-1',
      'ARS',
      '--kind',
      'stop-loss',
      '--percent',
      '10',
      '--share',
      '50',
      '--confirm',
      '2',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const [rule] = store.guards.live(accountId);
    expect(rule).toMatchObject({
      contractId: 'EPL-1',
      outcome: 'ARS',
      state: 'armed',
      spec: { kind: 'stop_loss', percent: '10', sharePercent: 50, confirmations: 2 },
    });
    expect(added.json).toEqual([
      expect.objectContaining({ account: 'main', id: rule!.id, state: 'armed' }),
    ]);
    expect(added.stderr).toContain(
      `Armed rule ${rule!.id}, ARS (ARS v CHE): stop loss at −10 %, closes 50 %, after 2 fresh observations. Armed`,
    );

    const listed = await cli(['guard', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.json).toEqual([
      expect.objectContaining({ account: 'main', id: rule!.id, contractId: 'EPL-1' }),
    ]);
    // The same view the app's Positions screen shows for the rule.
    const view = new GuardBook({ store }).view(accountId, {
      bridgeId: String(accountId),
      pollMs: 3500,
    });
    const { account: _, ...shown } = listed.json[0]!;
    expect(shown).toEqual({ ...view.rules[0], at: shown['at'] });
    expect(listed.stderr).toContain(`Rule ${rule!.id}, ARS (ARS v CHE): stop loss at −10 %`);
    expect(listed.stderr).toMatch(
      /Account "main": 1 rule armed; used today 0 of \d+ automatic closes/,
    );
  });

  it('disarms one rule by its id, or every rule of a position', async () => {
    const book = new GuardBook({ store });
    const [a, b] = book.arm(accountId, {
      contractId: 'EPL-1',
      outcome: 'ARS',
      rules: [
        { kind: 'knockout', percent: '2', sharePercent: 100, confirmations: 1 },
        { kind: 'take_profit', percent: '20', sharePercent: 100, confirmations: 1 },
      ],
    });
    const [c] = book.arm(accountId, {
      contractId: 'EPL-2',
      outcome: 'LIV',
      rules: [{ kind: 'time_exit', minutes: 30, sharePercent: 100, confirmations: 1 }],
    });
    const one = await cli(['guard', 'remove', String(a!.id)]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.json).toEqual([expect.objectContaining({ disarmed: a!.id, state: 'disarmed' })]);
    expect(store.guards.live(accountId).map((r) => r.id)).toEqual([b!.id, c!.id]);

    const position = await cli(['guard', 'remove', 'EPL-2', 'LIV']);
    expect(position.code).toBe(0);
    expect(position.json.map((j) => j['disarmed'])).toEqual([c!.id]);
    expect(store.guards.live(accountId).map((r) => r.id)).toEqual([b!.id]);

    const again = await cli(['guard', 'remove', String(a!.id)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/nothing was disarmed/);
  });

  it('refuses to arm on a read-only key, in the GuardBook’s words, and arms nothing', async () => {
    const r = await cli(
      ['guard', 'add', 'EPL-1', 'ARS', '--kind', 'knockout', '--percent', '2'],
      'watcher',
    );
    expect(r.code).toBe(1); // a refusal of the app's rules, not a usage error
    const [{ error }] = r.json as [{ error: { kind: string; message: string } }];
    expect(error.message).toMatch(/read/i);
    expect(r.stderr).toContain(error.message);
    expect(store.guards.live(readOnlyId)).toEqual([]);
  });

  it('refuses a rule whose fields do not fit its kind, as the app does', async () => {
    const r = await cli(['guard', 'add', 'EPL-1', 'ARS', '--kind', 'time_exit', '--percent', '5']);
    expect(r.code).toBe(2); // invalid-input: the request does not fit
    // A refusal in words (output.ts reportRefusal), not a crash.
    const [{ error }] = r.json as [{ error: { kind: string; message: string } }];
    expect(error.kind).toBe('invalid-input');
    expect(r.stderr).toContain(error.message);
    expect(store.guards.live(accountId)).toEqual([]);
  });

  it('refuses a figure out of its kind’s range in the app’s words (a stop at −150 %)', async () => {
    const r = await cli([
      'guard',
      'add',
      'EPL-1',
      'ARS',
      '--kind',
      'stop_loss',
      '--percent',
      '150',
    ]);
    expect(r.code).toBe(2);
    const [{ error }] = r.json as [{ error: { kind: string; message: string } }];
    expect(error.message).toBe(
      'A loss is a % above 0 and at most 100, with up to two places, like 20.',
    );
    expect(store.guards.live(accountId)).toEqual([]);
  });

  it('refuses a rule that would fire at once unless --now, saying what it would do', async () => {
    const args = ['guard', 'add', 'EPL-1', 'ARS', '--kind', 'take_profit', '--price', '0.0001'];
    const r = await cli(args);
    expect(r.code).toBe(1);
    const [{ error }] = r.json as [{ error: { kind: string; message: string } }];
    expect(error.message).toMatch(
      /^On the figures now, the take profit at a closing price of 0\.0001 on ARS \(ARS v CHE\) would fire at once \(closing price [0-9.]+, at or past the target at 0\.0001\) and sell \d+ contracts?\. .* To arm it anyway, add --now\.$/,
    );
    expect(store.guards.live(accountId)).toEqual([]);

    const meant = await cli([...args, '--now']);
    expect(meant.code, meant.stderr).toBe(0);
    expect(store.guards.live(accountId)).toHaveLength(1);
  });

  it('says the day’s automatic closes against the account’s limits', async () => {
    new GuardBook({ store }).configure(accountId, {
      limits: { closes: 3, contracts: 50, stake: '1250' },
      defaults: [],
    });
    const r = await cli(['guard', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'Account "main": 0 rules armed; used today 0 of 3 automatic closes, 0 of 50 contracts, $0.00 of $1,250.00 stake.',
    );
    const readOnly = await cli(['guard', 'list'], 'watcher');
    expect(readOnly.stderr).toMatch(/Its key may only read, so no rule can be armed on it\./);
  });

  it('lists every account’s armed rules with --all', async () => {
    const book = new GuardBook({ store });
    const spec = { kind: 'knockout' as const, percent: '2', sharePercent: 100, confirmations: 1 };
    book.arm(accountId, { contractId: 'EPL-1', outcome: 'ARS', rules: [spec] });
    const other = store.accounts.create({
      label: 'second',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'key-2',
      permission: 'trade',
      wallet: '0x' + '3'.repeat(40),
    }).id;
    store.replacePositions(other, [position('EPL-1', 'ARS')], Date.now());
    book.arm(other, { contractId: 'EPL-1', outcome: 'ARS', rules: [spec] });
    const r = await cli(['guard', 'list', '--all'], null);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.map((j) => j['account'])).toEqual(['main', 'second']);
  });
});

describe('guard pause and resume', () => {
  it('holds every rule of every account, as the running app sees it on the same store', async () => {
    const app = new GuardBook({ store });
    const paused = await cli(['guard', 'pause'], null);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.json).toEqual([{ paused: true, pausedAt: expect.any(Number) as unknown }]);
    expect(paused.stderr).toMatch(/no rule of any account will close a position/);
    expect(app.paused().paused).toBe(true);
    // The list says so while it is on.
    expect((await cli(['guard', 'list'])).stderr).toMatch(/Guardians are paused since/);

    const resumed = await cli(['guard', 'resume'], null);
    expect(resumed.json).toEqual([{ paused: false, pausedAt: null }]);
    expect(app.paused().paused).toBe(false);
  });
});

describe('guard log', () => {
  beforeEach(() => {
    fill(store, accountId, 0);
    fillGuardLog(store, accountId, 40);
  });

  it('prints the log as the Guardians screen reads it, newest first, filtered', async () => {
    const r = await cli(['guard', 'log', '--kind', 'stop_loss', '--from', '2024-03-01T20:00:00Z']);
    expect(r.code, r.stderr).toBe(0);
    const page = new GuardBook({ store }).log(accountId, String(accountId), {
      kind: 'stop_loss',
      from: Date.parse('2024-03-01T20:00:00Z'),
      limit: 500,
      offset: 0,
    });
    expect(page.rows.length).toBeGreaterThan(2);
    expect(r.json).toEqual(page.rows);
    expect(r.stderr).toBe(
      `guard log: ${page.rows.length} rows from the local store, newest first.\n`,
    );
  });

  it('writes the same CSV bytes as the app’s export of the same filter, to a file or stdout', async () => {
    const dir = path.dirname(db);
    const file = path.join(dir, 'app.csv');
    const log = new ProgressLog();
    const app = exportFeature({
      store,
      started: sessionOf(accountId),
      emit: (_e, p) => log.emit(p as ExportProgress),
      destination: { kind: 'file', chooseFile: () => Promise.resolve(file) },
    });
    const from = GUARD_LOG_START + 6 * 3_600_000;
    const { export: started } = await app['export:start']({
      kind: 'guards',
      filter: { event: 'failed', from },
      options: { bom: true, formulaGuard: true },
    });
    expect(await log.final(started!.exportId)).toMatchObject({ state: 'done' });
    const fromApp = fs.readFileSync(file);
    expect(fromApp.toString('utf8').split('\r\n').length).toBeGreaterThan(3);

    const out = path.join(dir, 'cli.csv');
    const args = ['guard', 'log', '--event', 'FAILED', '--from', String(from), '--csv', '--bom'];
    const toFile = await cli([...args, '--out', out]);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.json).toEqual([{ exported: 'guards', rows: expect.any(Number) as unknown, out }]);
    expect(fs.readFileSync(out).equals(fromApp)).toBe(true);

    const toStdout = await cli(args);
    expect(toStdout.code).toBe(0);
    expect(Buffer.from(toStdout.stdout, 'utf8').equals(fromApp)).toBe(true);
    expect(toStdout.stderr).toMatch(/^Wrote \d+ guardian log rows\.\n$/);

    const raw = await cli(['guard', 'log', '--contract', 'EPL-3', '--csv', '--no-formula-guard']);
    const same = sink();
    await exportGuardLogCsv(
      store,
      same.stream,
      { accountId, contractId: 'EPL-3' },
      { formulaGuard: false },
    );
    expect(raw.stdout).toBe(same.bytes().toString('utf8'));
    expect(raw.stdout).toContain(',=CMD v CHE,');
  });
});
