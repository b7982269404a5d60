/**
 * Guardians on the positions screen: each row shows its rules as chips under it, and its Guard
 * button opens the dialog for that position; on a read-only key the button is disabled and
 * the screen says why in words.
 */
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import PositionsScreen from '../../../src/renderer/src/screens/PositionsScreen.svelte';
import type { GuardsView } from '../../../src/shared/ipc/contract.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { guardRule, guardSpec, guardsView } from '../guard-rows.js';
import { mountWith, testRoot } from '../mount.js';
import { fixtureRef, position, positionsView } from '../rows.js';

const ars = position({ contractId: 'EPL-ARSCHE', outcome: 'ARS', knockout: '0.4000' });
const liv = position({
  contractId: 'EPL-LIVMUN',
  outcome: 'LIV',
  fixture: fixtureRef({ homeTeam: 'LIV', awayTeam: 'MUN' }),
});

let cleanup: () => void = () => {};

async function show(view: GuardsView): Promise<FakeBridge> {
  const bridge = new FakeBridge();
  bridge.answer('positions:list', positionsView([ars, liv]));
  bridge.answer('guards:list', view);
  bridge.answer('guards:settings', { limits: view.limits, defaults: [] });
  const root = testRoot(bridge);
  const stops = [root.positions.start(), root.guards.start()];
  await settle();
  const remove = mountWith(PositionsScreen, root);
  cleanup = () => {
    remove();
    for (const stop of stops) stop();
  };
  return bridge;
}

afterEach(() => cleanup());

test('a guarded row shows its rules and how far each is from firing; others show none', async () => {
  const bridge = await show(
    guardsView([
      guardRule({ id: 1, distance: '3.2 % away' }),
      guardRule({
        id: 2,
        spec: guardSpec({ kind: 'stop_loss', percent: '20' }),
        hold: 'stale',
        distance: '6.1 pts away',
      }),
      guardRule({ id: 3, state: 'disarmed', reason: 'Disarmed by you.' }),
    ]),
  );
  const chips = page.getByRole('list', { name: 'Guardians of ARS ARS v CHE' });
  await expect.element(chips.getByRole('listitem')).toHaveLength(2);
  await expect
    .element(chips.getByRole('listitem').nth(0))
    .toHaveTextContent('KO guard 5 % · 3.2 % away');
  await expect
    .element(chips.getByRole('listitem').nth(1))
    .toHaveTextContent('Stop −20 % · Held: waiting for fresh prices');
  await expect
    .element(page.getByRole('list', { name: 'Guardians of LIV LIV v MUN' }))
    .not.toBeInTheDocument();
  // A push from main moves the chips.
  bridge.emit('guards:changed', guardsView([guardRule({ id: 1, state: 'firing' })]));
  await expect.element(chips.getByRole('listitem')).toHaveTextContent('KO guard 5 % · Closing…');
});

test('Guard opens the dialog for its row', async () => {
  await show(guardsView());
  await userEvent.click(page.getByRole('button', { name: 'Guard LIV LIV v MUN' }));
  await expect
    .element(page.getByRole('dialog', { name: 'Guardians · LIV · LIV v MUN' }))
    .toBeVisible();
  await userEvent.keyboard('{Escape}');
  await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
});

test('on a read-only key the Guard buttons are disabled, and the screen says why', async () => {
  await show(guardsView([], { readOnly: true }));
  const guard = page.getByRole('button', { name: 'Guard ARS ARS v CHE' });
  await expect.element(guard).toBeDisabled();
  await expect.element(guard).toHaveAccessibleDescription(/may only read/);
  await expect
    .element(page.getByText(/^Guardians: This account’s API key may only read/))
    .toBeVisible();
});
