/**
 * A position's guardian chips say in words what each rule watches and how far it is from firing,
 * or that it is closing, held or failed: the colour only repeats the words.
 */
import { afterEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { flushSync, mount, unmount } from 'svelte';
import GuardChips from '../../../../src/renderer/src/components/guards/GuardChips.svelte';
import type { GuardRuleView } from '../../../../src/shared/ipc/contract.js';
import { guardRule, guardSpec } from '../../guard-rows.js';

let remove: (() => void) | null = null;

function show(rules: GuardRuleView[]): void {
  const target = document.body.appendChild(document.createElement('main'));
  const chips = mount(GuardChips, {
    target,
    props: { rules, label: 'Guardians of ARS ARS v CHE' },
  });
  flushSync();
  remove = () => {
    void unmount(chips);
    target.remove();
  };
}

afterEach(() => remove?.());

const items = () =>
  page.getByRole('list', { name: 'Guardians of ARS ARS v CHE' }).getByRole('listitem');

test('armed rules read as the user set them, with how far each is from firing', async () => {
  show([
    guardRule({
      id: 1,
      spec: guardSpec({ kind: 'stop_loss', percent: '20' }),
      distance: '6.1 pts away',
    }),
    guardRule({
      id: 2,
      spec: guardSpec({ kind: 'knockout', percent: '5' }),
      distance: '3.2 % away',
    }),
    guardRule({
      id: 3,
      spec: guardSpec({ kind: 'trailing_stop', percent: '10', sharePercent: 50 }),
      distance: null,
    }),
    guardRule({
      id: 4,
      spec: guardSpec({ kind: 'time_exit', percent: undefined, minutes: 15 }),
      distance: 'in 42 min',
    }),
  ]);
  await expect.element(items().nth(0)).toHaveTextContent('Stop −20 % · 6.1 pts away');
  await expect.element(items().nth(1)).toHaveTextContent('KO guard 5 % · 3.2 % away');
  await expect
    .element(items().nth(2))
    .toHaveTextContent('Trail 10 % (50 %) · distance not known yet');
  await expect.element(items().nth(3)).toHaveTextContent('Exit 15 min before kick-off · in 42 min');
});

test('closing, held and failed rules say so in words', async () => {
  show([
    guardRule({ id: 1, state: 'firing', clientOrderId: 'bd-g-1' }),
    guardRule({ id: 2, hold: 'stale', holdMessage: null }),
    guardRule({ id: 3, hold: 'limit', holdMessage: 'today’s 10 automatic closes are spent' }),
    guardRule({
      id: 4,
      spec: guardSpec({ kind: 'take_profit', percent: undefined, price: '0.7000' }),
      state: 'failed',
      reason: 'betting is closed on this fixture',
    }),
  ]);
  await expect.element(items().nth(0)).toHaveTextContent('KO guard 5 % · Closing…');
  await expect.element(items().nth(1)).toHaveTextContent('Held: waiting for fresh prices');
  await expect
    .element(items().nth(2))
    .toHaveTextContent('Held: today’s 10 automatic closes are spent');
  await expect
    .element(items().nth(3))
    .toHaveTextContent('Take profit at 0.7000 · Failed: betting is closed on this fixture');
});
