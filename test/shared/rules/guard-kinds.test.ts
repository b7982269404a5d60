/**
 * One definition of every rule kind (src/shared/rules/guard-kinds.ts): main's check before
 * arming (spec.ts, which the CLI goes through) says what it says; the app's form does too
 * (test/renderer/lib/guard-form.test.ts). The ranges are the ones docs/guardians.md states.
 */
import { describe, expect, it } from 'vitest';
import { checkSpec } from '../../../src/main/guard/spec.js';
import type { GuardKind, GuardSpec } from '../../../src/shared/ipc/contract.js';
import { guardSpecProblem, sameGuard } from '../../../src/shared/rules/guard-kinds.js';

const KINDS: GuardKind[] = ['knockout', 'stop_loss', 'take_profit', 'trailing_stop', 'time_exit'];
const FIGURES = ['0', '0.01', '5', '12.25', '99.99', '100', '100.01', '150', '999.99', '1000'];

function mainSays(spec: GuardSpec): string | null {
  try {
    checkSpec(spec);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('main (and the CLI through it) judge a rule by the one definition', () => {
  for (const kind of KINDS) {
    for (const figure of FIGURES) {
      it(`${kind} ${figure}`, () => {
        const spec: GuardSpec =
          kind === 'time_exit'
            ? { kind, minutes: Number(figure), sharePercent: 100, confirmations: 1 }
            : { kind, percent: figure, sharePercent: 100, confirmations: 1 };
        expect(mainSays(spec)).toBe(guardSpecProblem(spec));
      });
    }
  }

  it('the ranges the issue names', () => {
    const p = (kind: GuardKind, percent: string) =>
      guardSpecProblem({ kind, percent, sharePercent: 100, confirmations: 1 });
    expect(p('stop_loss', '150')).toMatch(/A loss is a % above 0 and at most 100/);
    expect(p('stop_loss', '100')).toBeNull();
    expect(p('take_profit', '999.99')).toBeNull();
    expect(p('knockout', '99.99')).toBeNull();
    expect(p('knockout', '100')).toMatch(/below 100/);
    expect(p('knockout', '0')).toMatch(/above 0/);
    expect(p('trailing_stop', '100')).toMatch(/below 100/);
  });

  it('identical rules: same kind, figure and share; confirmations aside', () => {
    const a: GuardSpec = { kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1 };
    expect(sameGuard(a, { ...a, percent: '5.00', confirmations: 3 })).toBe(true);
    expect(sameGuard(a, { ...a, percent: '5.01' })).toBe(false);
    expect(sameGuard(a, { ...a, sharePercent: 50 })).toBe(false);
    expect(sameGuard(a, { ...a, kind: 'trailing_stop' })).toBe(false);
  });
});
