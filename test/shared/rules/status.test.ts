import { describe, expect, test } from 'vitest';
import {
  isFateUnknown,
  isFinalRowStatus,
  newerRow,
  ORDER_STATUS_WORDS,
  STATUS_GROUP_OF,
} from '../../../src/shared/rules/status.js';
import { ORDER_ROW_STATUSES } from '../../../src/shared/ipc/schemas/desk.js';

describe('order statuses', () => {
  test('every status of the contract has words and a group', () => {
    for (const status of ORDER_ROW_STATUSES) {
      expect(ORDER_STATUS_WORDS[status]).toMatch(/\S/);
      expect(STATUS_GROUP_OF[status]).toBeDefined();
    }
  });

  test('Checking is never shown as failed: it is working, with its fate unknown', () => {
    expect(ORDER_STATUS_WORDS.CHECKING).toBe('Checking…');
    expect(STATUS_GROUP_OF.CHECKING).toBe('working');
    expect(isFinalRowStatus('CHECKING')).toBe(false);
    expect(isFateUnknown('CHECKING')).toBe(true);
  });

  test('filled, canceled, rejected and not placed are final; submitted is not', () => {
    for (const s of [
      'FILLED',
      'CANCELED',
      'EXPIRED',
      'REJECTED',
      'FAILED',
      'NOT_PLACED',
    ] as const) {
      expect(isFinalRowStatus(s)).toBe(true);
    }
    expect(isFinalRowStatus('SUBMITTED')).toBe(false);
    expect(isFateUnknown('SUBMITTED')).toBe(false);
  });
});

describe('newerRow', () => {
  const row = (status: 'SUBMITTED' | 'FILLED' | 'CHECKING', updatedAt: number) => ({
    status,
    updatedAt,
  });

  test('a final status wins over a working one, whatever the times say', () => {
    const filled = row('FILLED', 1);
    expect(newerRow(filled, row('SUBMITTED', 99))).toBe(filled);
    expect(newerRow(row('SUBMITTED', 99), filled)).toBe(filled);
  });

  test('an accepted order wins over its "checking" copy', () => {
    const submitted = row('SUBMITTED', 1);
    expect(newerRow(row('CHECKING', 5), submitted)).toBe(submitted);
  });

  test('between equal ranks the later update wins', () => {
    const late = row('SUBMITTED', 7);
    expect(newerRow(late, row('SUBMITTED', 3))).toBe(late);
    expect(newerRow(row('SUBMITTED', 3), late)).toBe(late);
  });
});
