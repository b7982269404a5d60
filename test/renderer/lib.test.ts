import { describe, expect, test } from 'vitest';
import { ErrorCodes } from '../../src/shared/api/errors.js';
import {
  ago,
  fractionPercent,
  percentText,
  pnlWord,
  signedMoney,
} from '../../src/renderer/src/lib/format.js';
import { newClientOrderId } from '../../src/shared/client-order-id.js';
import { SHORTCUT_LIST } from '../../src/renderer/src/lib/keys.js';
import { orderSentence } from '../../src/renderer/src/lib/order-words.js';
import { orderRow } from './rows.js';

describe('new clientOrderIds', () => {
  test('are valid clientOrderIds: bd-, the time in base 36, 12 hex digits', () => {
    const id = newClientOrderId(1_800_000_000_000, (n) => new Uint8Array(n).fill(0xab));
    expect(id).toBe(`bd-${(1_800_000_000_000).toString(36)}-abababababab`);
    expect(newClientOrderId()).toMatch(/^bd-[0-9a-z]+-[0-9a-f]{12}$/);
    expect(newClientOrderId()).not.toBe(newClientOrderId());
  });
});

describe('words for numbers', () => {
  test('P&L carries its sign and a word, never colour alone', () => {
    expect(signedMoney('12.5')).toBe('+$12.50');
    expect(signedMoney('-3.4')).toBe('−$3.40');
    expect(signedMoney('0')).toBe('$0.00');
    expect([pnlWord('1'), pnlWord('-1'), pnlWord('0')]).toEqual(['profit', 'loss', 'even']);
    expect(percentText('-12.5')).toBe('−12.50 %');
  });

  test('knockout distance as a percentage', () => {
    expect(fractionPercent('0.0431')).toBe('4.31 %');
    expect(fractionPercent('-0.02')).toBe('−2.00 %');
  });

  test('ages read as people say them', () => {
    expect(ago(400)).toBe('just now');
    expect(ago(3400)).toBe('3 s ago');
    expect(ago(125_000)).toBe('2 min ago');
  });
});

describe('order sentences', () => {
  test('Checking is never called failed', () => {
    expect(orderSentence(null, 'CHECKING')).toMatch(/^Checking… .*has not failed/);
  });

  test('a rejection gives the exchange’s reason in words', () => {
    const row = orderRow({
      status: 'REJECTED',
      error: { code: ErrorCodes.REVERTED, message: 'The transaction reverted on chain.' },
    });
    expect(orderSentence(row, 'REJECTED')).toBe(
      'Rejected: The transaction reverted on chain. Nothing was bought or sold.',
    );
  });

  test('a fill says what was bought or sold', () => {
    expect(orderSentence(orderRow({ contracts: 25, entryPrice: '0.56' }), 'FILLED')).toBe(
      'Filled: bought 25 contracts at 0.56.',
    );
    expect(
      orderSentence(
        orderRow({ side: 'SELL', contracts: 1, entryPrice: '0.5', proceeds: '0.48' }),
        'FILLED',
      ),
    ).toBe('Filled: sold 1 contract at 0.5, $0.48 paid out.');
  });
});

test('the shortcuts overlay lists a key for each of the eight screens, Guardians after Alerts', () => {
  const screens = SHORTCUT_LIST.filter((s) => /^Ctrl\/Cmd\+\d$/.test(s.keys));
  expect(screens.map((s) => s.keys)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `Ctrl/Cmd+${n}`));
  expect(screens[1]?.does).toBe('Show Portfolio');
  expect(screens[5]?.does).toBe('Show Guardians');
});
