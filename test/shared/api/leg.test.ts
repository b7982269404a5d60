/** The one leg parser every layer calls (docs/api.md 2.1 to 2.3). */
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/shared/api/errors.js';
import {
  apiMessage,
  personMessage,
  readBoost,
  readLeg,
  readLegs,
  readSizing,
  type LegProblem,
  type Read,
} from '../../../src/shared/api/leg.js';

const leg = { contractId: 'nba-1', outcome: 'bos', side: 'buy', market: 'draw_no_bet' };

function problem<T>(r: Read<T>): LegProblem {
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r.value)}`);
  return r.problem;
}

describe('readLeg', () => {
  it('upper-cases names and words and defaults the boost to 0', () => {
    expect(readLeg(leg)).toEqual({
      ok: true,
      value: { contractId: 'NBA-1', outcome: 'BOS', side: 'BUY', market: 'DRAW_NO_BET', boost: 0 },
    });
  });

  it('takes a boost as a whole number or a decimal string, 0 to 100', () => {
    for (const [raw, want] of [
      [0, 0],
      [100, 100],
      ['25', 25],
      ['25.00', 25],
      ['100', 100],
    ] as const) {
      expect(readBoost(raw)).toEqual({ ok: true, value: want });
    }
    for (const raw of [-1, 101, 2.5, '2.5', '101', '', 'ten', '01', null, true]) {
      expect(problem(readBoost(raw))).toMatchObject({ field: 'boost', rule: 'boost-range' });
    }
  });

  it('refuses in the order a person would fix the leg, naming the field', () => {
    const cases: [unknown, string, string][] = [
      [null, 'legs', 'required'],
      [{ ...leg, contractId: '' }, 'contractId', 'required'],
      [{ ...leg, contractId: 'x'.repeat(129) }, 'contractId', 'too-long'],
      [{ ...leg, outcome: 'TOOLONGTEAM' }, 'outcome', 'too-long'],
      [{ ...leg, market: 'MONEYLINE', side: 'HOLD' }, 'market', 'not-allowed'],
      [{ ...leg, side: 'HOLD' }, 'side', 'not-allowed'],
      [{ ...leg, boost: 'lots' }, 'boost', 'boost-range'],
      [{ ...leg, side: 'SELL', boost: 10 }, 'boost', 'boost-on-sell'],
    ];
    for (const [input, field, rule] of cases) {
      const p = problem(readLeg(input));
      expect([p.field, p.rule]).toEqual([field, rule]);
      expect(p.code).toBe(ErrorCodes.BAD_PARAMETER);
    }
  });

  it('lets a close carry a boost of 0', () => {
    expect(readLeg({ ...leg, side: 'SELL', boost: '0' })).toMatchObject({ ok: true });
  });
});

describe('readLegs', () => {
  it('serves exactly one leg: two are NOT_SERVABLE, none is a bad parameter', () => {
    expect(problem(readLegs([leg, leg]))).toMatchObject({
      rule: 'too-many-legs',
      code: ErrorCodes.NOT_SERVABLE,
    });
    expect(problem(readLegs([]))).toMatchObject({ field: 'legs', rule: 'required' });
    expect(problem(readLegs(undefined))).toMatchObject({ field: 'legs', rule: 'required' });
    expect(readLegs([leg])).toMatchObject({ ok: true, value: { side: 'BUY' } });
  });
});

describe('readSizing', () => {
  it('reads a positive decimal in contracts or dollars', () => {
    expect(readSizing('BUY', '12.50', 'quote')).toEqual({
      ok: true,
      value: { qty: '12.50', unit: 'QUOTE' },
    });
    expect(readSizing('SELL', '3', 'BASE')).toEqual({
      ok: true,
      value: { qty: '3', unit: 'BASE' },
    });
  });

  it('refuses a close in dollars, a missing unit, and sizes that are not above zero', () => {
    const cases: [unknown, unknown, string, string][] = [
      ['1', undefined, 'marketUnit', 'required'],
      ['1', 'LOTS', 'marketUnit', 'not-allowed'],
      [undefined, 'BASE', 'qty', 'required'],
      ['1e3', 'BASE', 'qty', 'not-decimal'],
      [5, 'BASE', 'qty', 'not-decimal'],
      ['1'.repeat(41), 'BASE', 'qty', 'not-decimal'],
      ['0.00', 'BASE', 'qty', 'not-positive'],
      ['-1', 'BASE', 'qty', 'not-positive'],
    ];
    for (const [qty, unit, field, rule] of cases) {
      const p = problem(readSizing('BUY', qty, unit));
      expect([p.field, p.rule]).toEqual([field, rule]);
    }
    expect(problem(readSizing('SELL', '1', 'QUOTE'))).toMatchObject({ rule: 'quote-on-sell' });
  });
});

describe('wording', () => {
  it("says a problem the API's way and a person's way", () => {
    const p = problem(readLeg({ ...leg, boost: 'lots' }));
    expect(apiMessage(p)).toBe('boost: must be a whole number from 0 to 100, got "lots"');
    expect(personMessage(p)).toBe('Boost must be a whole number from 0 to 100; got "lots".');
    const q = problem(readSizing('BUY', '0', 'QUOTE'));
    expect(apiMessage(q)).toBe('qty: must be a positive decimal string, got "0"');
    expect(personMessage(q, 'QUOTE')).toBe(
      'The amount in dollars (qty) must be more than zero; got 0.',
    );
  });

  it('has a message for every rule in both wordings', () => {
    const problems = [
      problem(readLegs([leg, leg])),
      problem(readLegs([])),
      problem(readLeg({ ...leg, contractId: 'x'.repeat(200) })),
      problem(readLeg({ ...leg, market: 'X' })),
      problem(readLeg({ ...leg, side: 'X' })),
      problem(readLeg({ ...leg, side: 'SELL', boost: 5 })),
      problem(readSizing('SELL', '1', 'QUOTE')),
      problem(readSizing('BUY', 'x', 'BASE')),
      problem(readSizing('BUY', '0', 'BASE')),
      problem(readLeg({ ...leg, boost: 'lots' })),
    ];
    expect(new Set(problems.map((p) => p.rule)).size).toBe(9);
    for (const p of problems) {
      expect(apiMessage(p)).toMatch(new RegExp(`^${p.field}: `));
      expect(personMessage(p)).toMatch(/^[A-Z].*\.$/);
    }
  });
});
