/**
 * GuardsState: main's view of the guardians, kept current by guards:changed (a push beats a
 * read still on its way), and changes that answer with the new view or say why not.
 */
import { expect, test } from 'vitest';
import { GuardsState } from '../../../src/renderer/src/lib/state/guards.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { guardRule, guardSettings, guardsView } from '../guard-rows.js';

test('a push replaces the view, and a slower read started before it is dropped', async () => {
  const bridge = new FakeBridge();
  const reads = bridge.hold('guards:list');
  bridge.answer('guards:settings', guardSettings());
  const guards = new GuardsState(bridge);
  const stop = guards.start();
  await settle();
  bridge.emit('guards:changed', guardsView([guardRule({ id: 2 })], { paused: true }));
  reads[0]?.resolve(guardsView());
  await settle();
  expect(guards.paused).toBe(true);
  expect(guards.rulesFor('EPL-ARSCHE', 'ARS').map((r) => r.id)).toEqual([2]);
  stop();
  expect(bridge.listening('guards:changed')).toBe(0);
});

test('a row shows armed, closing and failed rules of its own position only', async () => {
  const bridge = new FakeBridge();
  bridge.answer(
    'guards:list',
    guardsView([
      guardRule({ id: 1 }),
      guardRule({ id: 2, state: 'firing' }),
      guardRule({ id: 3, state: 'failed', reason: 'betting closed' }),
      guardRule({ id: 4, state: 'disarmed' }),
      guardRule({ id: 5, state: 'closed' }),
      guardRule({ id: 6, outcome: 'CHE' }),
    ]),
  );
  const guards = new GuardsState(bridge);
  await guards.load();
  expect(guards.rulesFor('EPL-ARSCHE', 'ARS').map((r) => r.id)).toEqual([1, 2, 3]);
});

test('a rule that failed before the position open now began is not on its row (issue 27 item 12)', async () => {
  const bridge = new FakeBridge();
  bridge.answer(
    'guards:list',
    guardsView([
      guardRule({ id: 1, state: 'failed', reason: 'not filled', stateAt: 1_000 }),
      guardRule({ id: 2, state: 'failed', reason: 'betting closed', stateAt: 3_000 }),
      guardRule({ id: 3, armedAt: 500, stateAt: 500 }),
    ]),
  );
  const guards = new GuardsState(bridge);
  await guards.load();
  expect(guards.rulesFor('EPL-ARSCHE', 'ARS', 2_000).map((r) => r.id)).toEqual([2, 3]);
  expect(guards.rulesFor('EPL-ARSCHE', 'ARS', null).map((r) => r.id)).toEqual([1, 2, 3]);
});

test('a refused change keeps the view and says why; settings keep what is not changed', async () => {
  const bridge = new FakeBridge();
  bridge.answer('guards:list', guardsView([guardRule()]));
  bridge.answer('guards:settings', guardSettings());
  bridge.fail('guards:arm', { kind: 'invalid-input', message: 'No position to guard.' });
  bridge.answer('guards:configure', (s) => s);
  const guards = new GuardsState(bridge);
  await guards.load();
  await guards.loadSettings();
  expect(
    await guards.arm({
      contractId: 'EPL-ARSCHE',
      outcome: 'ARS',
      rules: [{ kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1 }],
    }),
  ).toBe(false);
  expect(guards.error).toBe('No position to guard.');
  expect(guards.view?.rules).toHaveLength(1);
  expect(await guards.setLimits({ closes: 2, contracts: null, stake: '50' })).toBe(true);
  expect(bridge.inputs('guards:configure')).toEqual([
    { limits: { closes: 2, contracts: null, stake: '50' }, defaults: [] },
  ]);
});
