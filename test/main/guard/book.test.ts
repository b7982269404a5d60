import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GuardBook } from '../../../src/main/guard/book.js';
import { Refusal } from '../../../src/main/refusal.js';
import type { Store } from '../../../src/main/store/index.js';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';
import { fixture, order, position, tempStore } from '../store/support.js';

const NOW = 1_800_000_000_000;
let t: ReturnType<typeof tempStore>;
let store: Store;
let book: GuardBook;
let clock = NOW;

beforeEach(() => {
  t = tempStore({ now: () => clock });
  store = t.store;
  clock = NOW;
  book = new GuardBook({ store, now: () => clock });
  store.fixtures.upsertMany(t.accountId, [fixture('EPL-1', { startsAt: NOW + 3 * 3600_000 })], NOW);
  store.replacePositions(
    t.accountId,
    [
      position('EPL-1', 'ARS', { contracts: 10 }),
      position('EPL-1', 'CHE', { contracts: 4, boosted: false, knockout: undefined }),
    ],
    NOW,
  );
});
afterEach(() => t.done());

const spec = (s: Partial<GuardSpec> & Pick<GuardSpec, 'kind'>): GuardSpec => ({
  sharePercent: 100,
  confirmations: 1,
  ...s,
});

function refused(run: () => unknown): Refusal {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(Refusal);
    return err as Refusal;
  }
  throw new Error('not refused');
}

describe('the guard book', () => {
  it('arms rules on a held position and logs each as armed', () => {
    const rules = book.arm(t.accountId, {
      contractId: 'epl-1',
      outcome: 'ars',
      rules: [
        spec({ kind: 'knockout', percent: '2' }),
        spec({ kind: 'stop_loss', percent: '5', sharePercent: 50 }),
      ],
    });
    expect(rules.map((r) => [r.contractId, r.outcome, r.state])).toEqual([
      ['EPL-1', 'ARS', 'armed'],
      ['EPL-1', 'ARS', 'armed'],
    ]);
    const log = book.log(t.accountId, null, { limit: 10, offset: 0 });
    expect(log.total).toBe(2);
    expect(log.rows.map((r) => r.message)).toEqual([
      'Armed a stop loss at −5 %, closes 50 % on ARS (ARS v CHE).',
      'Armed a knockout guard within 2 % of the knockout on ARS (ARS v CHE).',
    ]);
    expect(log.rows[0]).toMatchObject({ event: 'armed', fixture: 'ARS v CHE', accountId: null });
  });

  it('refuses a read-only key, in words', () => {
    store.accounts.update(t.accountId, { permission: 'read' });
    const r = refused(() =>
      book.arm(t.accountId, {
        contractId: 'EPL-1',
        outcome: 'ARS',
        rules: [spec({ kind: 'stop_loss', percent: '5' })],
      }),
    );
    expect(r.message).toMatch(/may only read, so no guardian can be armed/);
    expect(book.view(t.accountId, { bridgeId: null, pollMs: 1000 }).readOnly).toBe(true);
  });

  it('refuses fields that do not fit the kind', () => {
    const arm = (s: GuardSpec) => () =>
      book.arm(t.accountId, { contractId: 'EPL-1', outcome: 'ARS', rules: [s] });
    expect(refused(arm(spec({ kind: 'knockout', price: '0.4' }))).message).toBe(
      'A knockout guard takes exactly one figure: a percentage of the index price from the knockout (percent), not price.',
    );
    expect(refused(arm(spec({ kind: 'stop_loss', percent: '5', price: '0.4' }))).message).toMatch(
      /^A stop loss takes exactly one figure: a P&L percentage \(percent\) or a closing price \(price\)\.$/,
    );
    expect(refused(arm(spec({ kind: 'time_exit', percent: '5' }))).message).toMatch(
      /minutes before kick-off/,
    );
    expect(refused(arm(spec({ kind: 'trailing_stop', percent: '0' }))).message).toMatch(/above 0/);
    expect(store.guards.live(t.accountId)).toEqual([]);
  });

  it('refuses a position not held, and a knockout guard on a bet without a knockout', () => {
    expect(
      refused(() =>
        book.arm(t.accountId, {
          contractId: 'EPL-2',
          outcome: 'LIV',
          rules: [spec({ kind: 'stop_loss', percent: '5' })],
        }),
      ).message,
    ).toBe(
      'You hold nothing on LIV (EPL-2), and no bet on it is open: a guardian protects a position you hold.',
    );
    expect(
      refused(() =>
        book.arm(t.accountId, {
          contractId: 'EPL-1',
          outcome: 'CHE',
          rules: [spec({ kind: 'knockout', percent: '5' })],
        }),
      ).message,
    ).toMatch(/A knockout guard needs a boosted bet, and CHE \(ARS v CHE\) has no knockout/);
  });

  it('arms on a BUY that is still open, before the position shows', () => {
    store.applyOrderUpdates(
      t.accountId,
      [order(1, { contractId: 'EPL-2', outcome: 'LIV', boost: 5 })],
      1,
    );
    const [r] = book.arm(t.accountId, {
      contractId: 'EPL-2',
      outcome: 'LIV',
      rules: [spec({ kind: 'knockout', percent: '3' })],
    });
    const v = book.view(t.accountId, { bridgeId: null, pollMs: 1000 });
    expect(v.rules.find((x) => x.id === r!.id)).toMatchObject({ hold: 'position', now: null });
  });

  it('refuses a time exit once the fixture has kicked off', () => {
    clock = NOW + 3 * 3600_000;
    expect(
      refused(() =>
        book.arm(t.accountId, {
          contractId: 'EPL-1',
          outcome: 'ARS',
          rules: [spec({ kind: 'time_exit', minutes: 20 })],
        }),
      ).message,
    ).toBe(
      'ARS v CHE has kicked off, so a time exit before kick-off cannot fire. Close it yourself, or choose another rule.',
    );
  });

  it('changes a rule by replacing it in one step, and disarms with a reason', () => {
    const [old] = book.arm(t.accountId, {
      contractId: 'EPL-1',
      outcome: 'ARS',
      rules: [spec({ kind: 'stop_loss', percent: '5' })],
    });
    const [next] = book.arm(t.accountId, {
      contractId: 'EPL-1',
      outcome: 'ARS',
      rules: [spec({ kind: 'stop_loss', percent: '8' })],
      replaces: old!.id,
    });
    expect(store.guards.get(old!.id)).toMatchObject({
      state: 'disarmed',
      reason: 'replaced by a changed rule',
    });
    expect(store.guards.live(t.accountId).map((r) => r.id)).toEqual([next!.id]);
    // Replacing what is no longer armed is refused, and arms nothing.
    expect(
      refused(() =>
        book.arm(t.accountId, {
          contractId: 'EPL-1',
          outcome: 'ARS',
          rules: [spec({ kind: 'stop_loss', percent: '9' })],
          replaces: old!.id,
        }),
      ).message,
    ).toMatch(/has already fired or ended, so it cannot be changed/);
    expect(store.guards.live(t.accountId)).toHaveLength(1);

    expect(
      book.disarm(t.accountId, { contractId: 'EPL-1', outcome: 'ARS' }).map((r) => r.id),
    ).toEqual([next!.id]);
    const log = book.log(t.accountId, null, { limit: 10, offset: 0, event: 'disarmed' });
    expect(log.rows.map((r) => r.message)).toEqual([
      'Disarmed the stop loss at −8 % on ARS (ARS v CHE): disarmed by you.',
      'Disarmed the stop loss at −5 % on ARS (ARS v CHE): replaced by a changed rule.',
    ]);
  });

  it('pauses every rule and says since when', () => {
    book.arm(t.accountId, {
      contractId: 'EPL-1',
      outcome: 'ARS',
      rules: [spec({ kind: 'stop_loss', percent: '5' })],
    });
    expect(book.paused()).toEqual({ paused: false, at: null });
    clock = NOW + 5;
    expect(book.setPaused(true)).toEqual({ paused: true, at: NOW + 5 });
    clock = NOW + 9;
    expect(book.setPaused(true)).toEqual({ paused: true, at: NOW + 5 });
    const v = book.view(t.accountId, { bridgeId: '7', pollMs: 1000 });
    expect(v).toMatchObject({ paused: true, pausedAt: NOW + 5, accountId: '7' });
    expect(v.rules[0]).toMatchObject({
      hold: 'paused',
      holdMessage: 'Guardians are paused: nothing fires until you resume them.',
    });
    expect(book.setPaused(false)).toEqual({ paused: false, at: null });
  });

  it('keeps limits and defaults per account, 10 closes a day unless set', () => {
    expect(book.settings(t.accountId)).toEqual({
      limits: { closes: 10, contracts: null, stake: null },
      defaults: [],
    });
    const set = {
      limits: { closes: 2, contracts: 50, stake: '100' },
      defaults: [spec({ kind: 'knockout', percent: '2' })],
    };
    expect(book.configure(t.accountId, set)).toEqual(set);
    expect(book.settings(t.accountId)).toEqual(set);
    expect(
      refused(() =>
        book.configure(t.accountId, { ...set, defaults: [spec({ kind: 'time_exit' })] }),
      ).message,
    ).toMatch(/A time exit takes exactly one figure/);
    const v = book.view(t.accountId, { bridgeId: null, pollMs: 1000 });
    expect(v.limits).toEqual(set.limits);
    expect(v.usedToday).toEqual({ closes: 0, contracts: 0, stake: '0' });
  });

  it('shows how far each live rule is from firing, and stale figures as held', () => {
    book.arm(t.accountId, {
      contractId: 'EPL-1',
      outcome: 'ARS',
      rules: [spec({ kind: 'stop_loss', percent: '5' })],
    });
    const fresh = book.view(t.accountId, { bridgeId: null, pollMs: 1000 });
    expect(fresh.rules[0]).toMatchObject({
      now: '-4.21',
      firesAt: '-5.00',
      distance: 'P&L −4.21 %, 0.79 points above the stop at −5 %',
      hold: null,
    });
    clock = NOW + 2001;
    expect(book.view(t.accountId, { bridgeId: null, pollMs: 1000 }).rules[0]).toMatchObject({
      hold: 'stale',
      holdMessage: 'Waiting for fresh prices.',
    });
  });
});
