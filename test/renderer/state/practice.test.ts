import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/renderer/src/lib/state/clock.svelte.js';
import {
  PracticeState,
  type PracticeFixture,
} from '../../../src/renderer/src/lib/state/practice.svelte.js';
import { FakeBridge } from '../fake-bridge.js';
import type { PositionRow } from '../../../src/shared/ipc/contract.js';
import { dec } from '../../../src/shared/money.js';
import { NOW, position } from '../rows.js';

function setup(
  fixtures: PracticeFixture[],
  positions: PositionRow[] = [],
  alertLevels: string[] | null = null,
) {
  const bridge = new FakeBridge();
  bridge.answer('practice:price', (i) => ({ message: `${i.outcome} is now ${i.indexPrice}.` }));
  bridge.answer('practice:close', { message: 'Betting on ARS v CHE is closed.' });
  bridge.answer('practice:kickoff', (i) => ({ message: `Kicks off in ${i.minutes} minutes.` }));
  bridge.answer('practice:resolve', (i) => ({ message: `Resolved: ${i.winner}.` }));
  bridge.answer('practice:reject', { message: 'Your next order will be rejected on chain.' });
  const ctx = {
    fixtures,
    positions,
    indexPrice: (contractId: string, outcome: string) =>
      contractId === 'EPL-1' ? (outcome === 'ARS' ? '0.5500' : '0.4500') : null,
    alertLevels,
  };
  const practice = new PracticeState(bridge, ctx, new ManualClock(NOW));
  return { bridge, ctx, practice };
}

const held: PracticeFixture = {
  contractId: 'EPL-1',
  homeTeam: 'ARS',
  awayTeam: 'CHE',
  outcome: 'CHE',
};
const other: PracticeFixture = { contractId: 'EPL-2', homeTeam: 'LIV', awayTeam: 'MUN' };

describe('the practice panel', () => {
  test('starts on the first fixture offered (the selected position’s) and its held outcome', () => {
    const { practice } = setup([held, other]);
    expect(practice.contractId).toBe('EPL-1');
    expect(practice.outcome).toBe('CHE');
  });

  test('another fixture starts on its home team', () => {
    const { practice } = setup([held, other]);
    practice.contractId = 'EPL-2';
    expect(practice.outcome).toBe('LIV');
  });

  test('sets the chosen outcome’s index price and shows main’s message', async () => {
    const { bridge, practice } = setup([held]);
    practice.price = '0.31';
    await practice.setPrice();
    expect(bridge.inputs('practice:price')).toEqual([
      { contractId: 'EPL-1', outcome: 'CHE', indexPrice: '0.31' },
    ]);
    expect(practice.log[0]).toMatchObject({ ok: true, message: 'CHE is now 0.31.' });
  });

  test('a price outside (0, 1) is explained and not sent', async () => {
    const { bridge, practice } = setup([held]);
    practice.price = '1.5';
    expect(practice.priceProblem).toMatch(/between 0 and 1/);
    await practice.setPrice();
    expect(bridge.inputs('practice:price')).toEqual([]);
    expect(practice.log[0]?.ok).toBe(false);
  });

  test('near and past the knockout are one click each', async () => {
    const { bridge, practice } = setup([held]);
    await practice.moveNear('0.2475');
    await practice.movePast('0.2475');
    // Near: the index 1.47 % above the knockout, inside the default 2 % level.
    expect(bridge.inputs('practice:price').map((i) => i.indexPrice)).toEqual(['0.2512', '0.2375']);
  });

  test('near puts the index inside the account’s deepest alert level', async () => {
    const { bridge, practice } = setup([held], [], ['0.1', '0.05']);
    await practice.moveNear('0.2475');
    const [near] = bridge.inputs('practice:price').map((i) => dec(i.indexPrice));
    // (index − knockout) / index, as the knockout watch measures it: inside 5 %, above 0.
    const distance = near!.minus('0.2475').dividedBy(near!);
    expect(near!.toFixed(4)).toBe('0.2571');
    expect(distance.gt(0) && distance.lte('0.05')).toBe(true);
  });

  test('close, resolve and reject-next each show their result, newest first', async () => {
    const { practice } = setup([held]);
    await practice.closeBetting();
    await practice.resolve('DRAW');
    await practice.rejectNext();
    expect(practice.log.map((e) => e.message)).toEqual([
      'Your next order will be rejected on chain.',
      'Resolved: DRAW.',
      'Betting on ARS v CHE is closed.',
    ]);
  });

  test('a kick-off moves the chosen fixture’s, for a time exit', async () => {
    const { bridge, practice } = setup([held]);
    await practice.kickoffIn(10);
    expect(bridge.inputs('practice:kickoff')).toEqual([{ contractId: 'EPL-1', minutes: 10 }]);
    expect(practice.log[0]).toMatchObject({ ok: true, message: 'Kicks off in 10 minutes.' });
  });

  test('main’s refusal (a live account) is shown as refused', async () => {
    const { bridge, practice } = setup([held]);
    bridge.fail('practice:close', {
      kind: 'conflict',
      message: 'Practice controls work only in paper mode.',
    });
    await practice.closeBetting();
    expect(practice.log[0]).toMatchObject({
      ok: false,
      message: 'Practice controls work only in paper mode.',
    });
  });

  test('following a picked position moves the panel to its fixture and outcome', () => {
    const { practice } = setup([held, other]);
    practice.follow('EPL-2', 'MUN');
    expect(practice.contractId).toBe('EPL-2');
    expect(practice.outcome).toBe('MUN');
  });
});

describe('the held position', () => {
  const boosted = position({ contractId: 'EPL-1', outcome: 'CHE', knockout: '0.2475' });

  test('is the position on the fixture and outcome chosen, with the index price now', () => {
    const { practice } = setup([held, other], [boosted]);
    expect(practice.held).toBe(boosted);
    expect(practice.indexNow).toBe('0.4500');
    practice.outcome = 'ARS';
    expect(practice.held).toBeNull();
    expect(practice.indexNow).toBe('0.5500');
    practice.contractId = 'EPL-2';
    expect(practice.indexNow).toBeNull();
  });

  test('the knockout buttons move the price to either side of its knockout', async () => {
    const { bridge, practice } = setup([held, other], [boosted]);
    await practice.moveNear();
    await practice.movePast();
    const prices = bridge.inputs('practice:price').map((i) => i.indexPrice);
    expect(prices).toHaveLength(2);
    expect(Number(prices[0])).toBeGreaterThan(0.2475);
    expect(Number(prices[1])).toBeLessThan(0.2475);
  });

  test('with nothing held, they do nothing', async () => {
    const { bridge, practice } = setup([held, other]);
    await practice.moveNear();
    await practice.movePast();
    expect(bridge.inputs('practice:price')).toHaveLength(0);
  });
});
