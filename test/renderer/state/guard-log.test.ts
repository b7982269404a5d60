/**
 * GuardLogState's fixture menu belongs to the account on screen (issue 27, item 11): after a
 * switch it offers none of the last account's fixtures, which would show nothing here.
 */
import { expect, test } from 'vitest';
import { GuardLogState } from '../../../src/renderer/src/lib/state/guard-log.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { guardLogRow } from '../guard-rows.js';

const page = (rows: ReturnType<typeof guardLogRow>[]) => ({
  rows,
  total: rows.length,
  limit: 100,
  offset: 0,
});

test('another account’s fixtures leave the fixture menu when the account changes', async () => {
  const bridge = new FakeBridge();
  bridge.answer('guards:log', page([guardLogRow({ contractId: 'EPL-A', fixture: 'AAA v BBB' })]));
  const log = new GuardLogState(bridge);
  const stop = log.start();
  await settle();
  expect(log.fixtureOptions().map((o) => o.value)).toEqual(['EPL-A']);
  log.contractId = 'EPL-A';
  await settle();

  bridge.answer('guards:log', page([guardLogRow({ contractId: 'EPL-B', fixture: 'CCC v DDD' })]));
  log.reset();
  await settle();
  expect(log.contractId).toBe('');
  expect(log.fixtureOptions().map((o) => o.value)).toEqual(['EPL-B']);
  stop();
});
