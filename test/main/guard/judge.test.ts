import { describe, expect, it } from 'vitest';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';
import {
  judge,
  step,
  type GuardFigures,
  type JudgedPosition,
} from '../../../src/main/guard/judge.js';

const NOW = 1_800_000_000_000;
const POLL = 2000;

function position(over: Partial<JudgedPosition> = {}): JudgedPosition {
  return {
    contracts: 10,
    estimatedClosingPrice: '0.4500',
    pnl: '-1.20',
    pnlPercent: '-3.1000',
    costBasis: '5.00',
    boosted: false,
    ...over,
  };
}

function figures(over: Partial<GuardFigures> = {}): GuardFigures {
  return {
    position: position(),
    snapshotAt: NOW - 500,
    index: undefined,
    startsAt: null,
    pollMs: POLL,
    now: NOW,
    ...over,
  };
}

const spec = (s: Partial<GuardSpec> & Pick<GuardSpec, 'kind'>): GuardSpec => ({
  sharePercent: 100,
  confirmations: 1,
  ...s,
});

const rule = (s: GuardSpec, best: string | null = null) => ({ spec: s, best });

describe('the judge', () => {
  it('fires a stop loss when the P&L falls to −percent, not a point before', () => {
    const stop = rule(spec({ kind: 'stop_loss', percent: '5' }));
    const above = judge(stop, figures({ position: position({ pnlPercent: '-4.9999' }) }));
    expect(above).toMatchObject({ holds: false, fresh: true, observedAt: NOW - 500 });
    expect(above.firesAt?.toString()).toBe('-5');
    expect(above.distance).toBe('P&L −5 %, 0 points above the stop at −5 %');
    const at = judge(stop, figures({ position: position({ pnlPercent: '-5.0000' }) }));
    expect(at.holds).toBe(true);
    expect(at.distance).toMatch(/at or past the stop at −5 %/);
    const far = judge(stop, figures({ position: position({ pnlPercent: '-2.6000' }) }));
    expect(far.distance).toBe('P&L −2.6 %, 2.4 points above the stop at −5 %');
  });

  it('fires a stop loss on a closing price at or below the price', () => {
    const stop = rule(spec({ kind: 'stop_loss', price: '0.4000' }));
    expect(
      judge(stop, figures({ position: position({ estimatedClosingPrice: '0.4001' }) })).holds,
    ).toBe(false);
    const at = judge(stop, figures({ position: position({ estimatedClosingPrice: '0.4000' }) }));
    expect(at.holds).toBe(true);
    const off = judge(stop, figures({ position: position({ estimatedClosingPrice: '0.4200' }) }));
    expect(off.distance).toBe('closing price 0.4200, 0.0200 above the stop at 0.4000');
  });

  it('fires a take profit when the P&L reaches +percent or the price reaches P', () => {
    const tp = rule(spec({ kind: 'take_profit', percent: '10' }));
    expect(judge(tp, figures({ position: position({ pnlPercent: '9.9999' }) })).holds).toBe(false);
    expect(judge(tp, figures({ position: position({ pnlPercent: '10.0000' }) })).holds).toBe(true);
    const below = judge(tp, figures({ position: position({ pnlPercent: '3.1000' }) }));
    expect(below.distance).toBe('P&L +3.1 %, 6.9 points below the target at +10 %');
    const tpPrice = rule(spec({ kind: 'take_profit', price: '0.6' }));
    expect(
      judge(tpPrice, figures({ position: position({ estimatedClosingPrice: '0.5999' }) })).holds,
    ).toBe(false);
    expect(
      judge(tpPrice, figures({ position: position({ estimatedClosingPrice: '0.6000' }) })).holds,
    ).toBe(true);
  });

  it('measures the knockout guard on the index price, as Positions does, and needs it fresh', () => {
    const ko = rule(spec({ kind: 'knockout', percent: '2' }));
    const boosted = position({ boosted: true, knockout: '0.4900' });
    // (0.5 − 0.49) / 0.5 = 2 %: exactly at the line fires.
    const at = judge(
      ko,
      figures({
        position: boosted,
        index: { price: '0.5000', readAt: NOW - 100, staleAfterMs: 2000 },
      }),
    );
    expect(at).toMatchObject({ holds: true, fresh: true, observedAt: NOW - 100 });
    expect(at.now?.toString()).toBe('2');
    const away = judge(
      ko,
      figures({
        position: boosted,
        index: { price: '0.5060', readAt: NOW - 100, staleAfterMs: 2000 },
      }),
    );
    expect(away.holds).toBe(false);
    expect(away.distance).toBe('knockout 3.16 % away, fires at 2 %');
    const old = judge(
      ko,
      figures({
        position: boosted,
        index: { price: '0.5000', readAt: NOW - 2001, staleAfterMs: 2000 },
      }),
    );
    expect(old).toMatchObject({ holds: true, fresh: false });
    expect(judge(ko, figures({ position: boosted })).now).toBeNull();
  });

  it('trails the best closing price kept in the store, and raises it only on fresh figures', () => {
    const trail = spec({ kind: 'trailing_stop', percent: '10' });
    // Best 0.5000 from the store: fires at 0.4500.
    const at = judge(rule(trail, '0.5000'), figures());
    expect(at.holds).toBe(true);
    expect(at.firesAt?.toString()).toBe('0.45');
    expect(at.best).toBe('0.5');
    const above = judge(
      rule(trail, '0.5000'),
      figures({ position: position({ estimatedClosingPrice: '0.4501' }) }),
    );
    expect(above.holds).toBe(false);
    // A new high raises the best; a stale one does not.
    const high = judge(
      rule(trail, '0.5000'),
      figures({ position: position({ estimatedClosingPrice: '0.6000' }) }),
    );
    expect(high.best).toBe('0.6');
    const staleHigh = judge(
      rule(trail, '0.5000'),
      figures({ position: position({ estimatedClosingPrice: '0.6000' }), snapshotAt: NOW - 4001 }),
    );
    expect(staleHigh).toMatchObject({ best: '0.5', fresh: false });
    // Armed without a best yet: the first fresh closing price is the best.
    expect(judge(rule(trail), figures()).best).toBe('0.45');
  });

  it('times an exit from the fixture’s kick-off', () => {
    const exit = rule(spec({ kind: 'time_exit', minutes: 15 }));
    const early = judge(exit, figures({ startsAt: NOW + 57 * 60_000 }));
    expect(early).toMatchObject({ holds: false, fresh: true });
    expect(early.distance).toBe('fires in 42 min (15 min before kick-off)');
    expect(judge(exit, figures({ startsAt: NOW + 15 * 60_000 })).holds).toBe(true);
    expect(judge(exit, figures({ startsAt: NOW + 15 * 60_000 + 1 })).holds).toBe(false);
    expect(judge(exit, figures()).now).toBeNull();
  });

  it('calls figures older than twice the polling interval stale, and judges none without a position', () => {
    const stop = rule(spec({ kind: 'stop_loss', percent: '1' }));
    expect(judge(stop, figures({ snapshotAt: NOW - 2 * POLL })).fresh).toBe(true);
    expect(judge(stop, figures({ snapshotAt: NOW - 2 * POLL - 1 })).fresh).toBe(false);
    expect(judge(stop, figures({ snapshotAt: null })).fresh).toBe(false);
    expect(judge(stop, figures({ position: undefined }))).toMatchObject({
      holds: false,
      now: null,
    });
  });
});

describe('confirmations', () => {
  const k3 = spec({ kind: 'stop_loss', percent: '1', confirmations: 3 });
  const holding = judge(rule(k3), figures({ position: position({ pnlPercent: '-2' }) }));

  it('fire on K consecutive fresh observations, each counted once', () => {
    let r = { spec: k3, armedAt: 0, streak: 0, observedAt: null as number | null };
    const seen: boolean[] = [];
    for (const at of [1, 1, 2, 2, 3]) {
      const s = step(r, { ...holding, observedAt: at });
      seen.push(s.fire);
      r = { ...r, streak: s.streak, observedAt: s.observedAt };
    }
    expect(seen).toEqual([false, false, false, false, true]);
    expect(r.streak).toBe(3);
  });

  it('start again when the condition stops holding, and wait out stale figures', () => {
    const s1 = step(
      { spec: k3, armedAt: 0, streak: 2, observedAt: 5 },
      { ...holding, holds: false, observedAt: 6 },
    );
    expect(s1).toMatchObject({ streak: 0, fire: false, counted: true });
    const stale = step(
      { spec: k3, armedAt: 0, streak: 2, observedAt: 5 },
      { ...holding, fresh: false, observedAt: 6 },
    );
    expect(stale).toMatchObject({ streak: 2, observedAt: 5, fire: false, counted: false });
  });

  it('never count figures read before the rule was armed, however they stand', () => {
    const k1 = spec({ kind: 'stop_loss', percent: '1' });
    const armedAt = 1000;
    const before = step(
      { spec: k1, armedAt, streak: 0, observedAt: null },
      {
        ...holding,
        observedAt: 999,
      },
    );
    expect(before).toMatchObject({ streak: 0, fire: false, counted: false });
    const same = step(
      { spec: k1, armedAt, streak: 0, observedAt: null },
      {
        ...holding,
        observedAt: armedAt,
      },
    );
    expect(same).toMatchObject({ fire: false, counted: false });
    const after = step(
      { spec: k1, armedAt, streak: 0, observedAt: null },
      {
        ...holding,
        observedAt: 1001,
      },
    );
    expect(after).toMatchObject({ streak: 1, fire: true, counted: true });
  });
});
