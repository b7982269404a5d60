/**
 * What a sell by hand does to a position's guardians, in the slip's confirmation's words, and
 * that a guardian's close under way is said in the Close slip (docs/guardians.md).
 */
import { expect, test } from 'vitest';
import { guardClosingWords, sellGuardWords } from '../../../src/renderer/src/lib/guard-words.js';
import { guardRule, guardSpec } from '../guard-rows.js';

const stop = guardRule({ id: 1, spec: guardSpec({ kind: 'stop_loss', price: '0.2500' }) });
const target = guardRule({
  id: 2,
  spec: guardSpec({ kind: 'take_profit', percent: '50' }),
});

test('a partial sell keeps the rules on what is left, and names them', () => {
  expect(sellGuardWords([stop, target], 1, 3)).toBe(
    'Sells 1 of 3: your 2 rules (Stop at 0.2500, Take profit +50 %) stay armed on the 2 left, each selling its share of those.',
  );
  expect(sellGuardWords([stop], 1, 3)).toBe(
    'Sells 1 of 3: your rule (Stop at 0.2500) stays armed on the 2 left, each selling its share of those.',
  );
});

test('a sell of everything ends them; no rules, no words', () => {
  expect(sellGuardWords([stop, target], 3, 3)).toBe(
    'Sells all 3: ends your Stop at 0.2500, Take profit +50 % (nothing left for them).',
  );
  expect(sellGuardWords([], 3, 3)).toBeNull();
  expect(sellGuardWords([{ ...stop, state: 'disarmed' }], 3, 3)).toBeNull();
});

test('a guardian closing the position is said, with what it sells', () => {
  expect(guardClosingWords([stop])).toBeNull();
  expect(guardClosingWords([{ ...stop, state: 'firing', contracts: 3 }])).toBe(
    'A guardian is closing this position now: your Stop at 0.2500 fired and is selling 3 of it at the market. Wait for it to finish before you sell more.',
  );
});
