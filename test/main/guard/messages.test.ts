/**
 * A rule's figure reads exactly as armed in every sentence (the log, the alerts, the CSV's
 * message and the CLI all take ruleText and the judge's distance): never rounded.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/main/guard/judge.js';
import { ruleText } from '../../../src/main/guard/messages.js';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';

const spec = (s: Partial<GuardSpec> & Pick<GuardSpec, 'kind'>): GuardSpec => ({
  sharePercent: 100,
  confirmations: 1,
  ...s,
});

describe('a rule’s figure in words', () => {
  it.each([
    [spec({ kind: 'knockout', percent: '99.99' }), 'knockout guard within 99.99 % of the knockout'],
    [spec({ kind: 'knockout', percent: '2.55' }), 'knockout guard within 2.55 % of the knockout'],
    [spec({ kind: 'stop_loss', percent: '12.25' }), 'stop loss at −12.25 %'],
    [spec({ kind: 'take_profit', percent: '999.99' }), 'take profit at +999.99 %'],
    [
      spec({ kind: 'trailing_stop', percent: '0.05' }),
      'trailing stop 0.05 % below the best closing price',
    ],
  ])('%j reads "%s"', (s, words) => {
    expect(ruleText(s)).toBe(words);
  });

  it('the distance names the rule’s figure as armed', () => {
    const j = judge(
      { spec: spec({ kind: 'knockout', percent: '2.55' }), best: null },
      {
        position: {
          contracts: 10,
          estimatedClosingPrice: '0.4',
          pnl: '0',
          pnlPercent: '0',
          costBasis: '4',
          boosted: true,
          knockout: '0.4',
        },
        snapshotAt: 1,
        index: { price: '0.4124', readAt: 1, staleAfterMs: 2000 },
        startsAt: null,
        pollMs: 1000,
        now: 1,
      },
    );
    expect(j.distance).toBe('knockout 3.01 % away, fires at 2.55 %');
  });
});
