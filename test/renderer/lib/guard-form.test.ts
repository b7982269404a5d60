/** A guardian rule as typed becomes the contract's GuardSpec, or a sentence saying what is wrong. */
import { describe, expect, test } from 'vitest';
import {
  draftOf,
  limitsOf,
  newDraft,
  specOf,
  withKind,
} from '../../../src/renderer/src/lib/guard-form.js';
import type { GuardKind, GuardSpec } from '../../../src/shared/ipc/contract.js';
import { guardSpecProblem } from '../../../src/shared/rules/guard-kinds.js';

describe('specOf', () => {
  test('each kind takes its own figure, with the share and the fresh checks', () => {
    expect(
      specOf({ ...newDraft('knockout'), figure: '2.5', share: '50', confirmations: '3' }),
    ).toEqual({
      spec: { kind: 'knockout', percent: '2.5', sharePercent: 50, confirmations: 3 },
    });
    expect(specOf({ ...newDraft('stop_loss'), by: 'price', figure: '0.42' })).toEqual({
      spec: { kind: 'stop_loss', price: '0.42', sharePercent: 100, confirmations: 1 },
    });
    expect(specOf({ ...newDraft('take_profit'), figure: '150 %' })).toEqual({
      spec: { kind: 'take_profit', percent: '150', sharePercent: 100, confirmations: 1 },
    });
    expect(specOf({ ...newDraft('time_exit'), figure: '15' })).toEqual({
      spec: { kind: 'time_exit', minutes: 15, sharePercent: 100, confirmations: 1 },
    });
  });

  test('what the contract would refuse is refused here, in words', () => {
    const problem = (d: Parameters<typeof specOf>[0]) => 'problem' in specOf(d);
    expect(problem({ ...newDraft('knockout'), figure: '0' })).toBe(true);
    expect(problem({ ...newDraft('knockout'), figure: '100' })).toBe(true);
    expect(problem({ ...newDraft('knockout'), figure: '1.234' })).toBe(true);
    expect(problem({ ...newDraft('stop_loss'), figure: '101' })).toBe(true);
    expect(problem({ ...newDraft('stop_loss'), by: 'price', figure: '1.2' })).toBe(true);
    expect(problem({ ...newDraft('stop_loss'), by: 'price', figure: '0.0000' })).toBe(true);
    expect(problem({ ...newDraft('time_exit'), figure: '1441' })).toBe(true);
    expect(problem({ ...newDraft(), share: '0' })).toBe(true);
    expect(problem({ ...newDraft(), share: '100.5' })).toBe(true);
    expect(problem({ ...newDraft(), confirmations: '11' })).toBe(true);
  });

  test('a rule read back into the form is the same rule', () => {
    for (const spec of [
      { kind: 'trailing_stop', percent: '10', sharePercent: 25, confirmations: 2 },
      { kind: 'take_profit', price: '0.7000', sharePercent: 100, confirmations: 1 },
      { kind: 'time_exit', minutes: 30, sharePercent: 100, confirmations: 1 },
    ] as const) {
      expect(specOf(draftOf(spec))).toEqual({ spec });
    }
  });
});

describe('limitsOf', () => {
  test('blank contracts or stake mean no limit; a stake is exact dollars', () => {
    expect(limitsOf({ closes: '3', contracts: '', stake: '' })).toEqual({
      limits: { closes: 3, contracts: null, stake: null },
    });
    expect(limitsOf({ closes: '0', contracts: '500', stake: '$250.50' })).toEqual({
      limits: { closes: 0, contracts: 500, stake: '250.5' },
    });
    expect('problem' in limitsOf({ closes: '-1', contracts: '', stake: '' })).toBe(true);
    expect('problem' in limitsOf({ closes: '1', contracts: '0', stake: '' })).toBe(true);
    expect('problem' in limitsOf({ closes: '1', contracts: '', stake: '1.005' })).toBe(true);
  });
});

describe('the form judges by the one definition main and the CLI use', () => {
  const kinds: GuardKind[] = ['knockout', 'stop_loss', 'take_profit', 'trailing_stop', 'time_exit'];
  const figures = ['0', '0.01', '5', '12.25', '99.99', '100', '100.01', '150', '999.99', '1000'];
  test.each(kinds.flatMap((k) => figures.map((f) => [k, f] as const)))('%s %s', (kind, figure) => {
    const form = specOf({ ...newDraft(kind), figure });
    const spec: GuardSpec =
      kind === 'time_exit'
        ? { kind, minutes: Number(figure), sharePercent: 100, confirmations: 1 }
        : { kind, percent: figure, sharePercent: 100, confirmations: 1 };
    const verdict = guardSpecProblem(spec);
    if ('spec' in form) expect(verdict).toBeNull();
    else if (/^\d+$/.test(figure) || kind !== 'time_exit') expect(form.problem).toBe(verdict);
  });

  test('"0" in the figure is never a rule, whatever the kind', () => {
    for (const kind of kinds)
      expect('problem' in specOf({ ...newDraft(kind), figure: '0' })).toBe(true);
  });
});

describe('changing a rule’s kind (issue 27 item 5: "0" armed a 5 % rule)', () => {
  test('a figure the user typed is cleared, never replaced by the new kind’s default', () => {
    const typed = { ...newDraft('stop_loss'), figure: '0', share: '50' };
    const changed = withKind(typed, 'knockout');
    expect(changed).toMatchObject({ kind: 'knockout', figure: '', share: '50' });
    expect('problem' in specOf(changed)).toBe(true);
  });

  test('an untouched default becomes the new kind’s own', () => {
    expect(withKind(newDraft('knockout'), 'stop_loss').figure).toBe(newDraft('stop_loss').figure);
    expect(
      withKind({ ...newDraft('take_profit'), by: 'price', figure: '0.6000' }, 'knockout'),
    ).toMatchObject({ by: 'percent', figure: '' });
  });
});
