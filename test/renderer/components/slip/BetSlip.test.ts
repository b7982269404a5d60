/**
 * The bet slip as the user sees it: the quote's figures and the Place button once a quote is in,
 * and main's refusal in its own words when a bet is refused; after a bet, the offer to protect it
 * with the account's default guardian rules.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import BetSlip from '../../../../src/renderer/src/components/slip/BetSlip.svelte';
import { ErrorCodes } from '../../../../src/shared/api/errors.js';
import type { Root } from '../../../../src/renderer/src/lib/root.js';
import { FakeBridge, settle } from '../../fake-bridge.js';
import { guardSettings, guardSpec, guardsView } from '../../guard-rows.js';
import { mountWith, testRoot } from '../../mount.js';
import { appInfo, appStatus, fixture, orderRow, quoteResult } from '../../rows.js';

let bridge: FakeBridge;
let root: Root;
let remove: () => void;

beforeEach(async () => {
  bridge = new FakeBridge();
  bridge.answer('app:info', appInfo());
  bridge.answer('status:get', appStatus());
  bridge.answer('settings:get', { oneClickBetting: true, startAtLogin: false, startHidden: false });
  // Alive for 30 s from now, by the page's own clock.
  bridge.answer('quote:request', quoteResult({ expiresAt: Date.now() + 30_000 }));
  root = testRoot(bridge);
  await root.app.refresh();
  await root.settings.load();
  remove = mountWith(BetSlip, root);
});

afterEach(() => remove());

/** Picks ARS in ARS v CHE, types 25 contracts and asks for a quote. */
async function quoteArs(): Promise<void> {
  root.slip.select(fixture(), 'ARS');
  await userEvent.fill(page.getByRole('textbox', { name: 'Number of contracts' }), '25');
  await userEvent.click(page.getByRole('button', { name: 'Request quote' }));
}

test('with nothing picked, the slip says how to start a bet', async () => {
  await expect.element(page.getByRole('heading', { name: 'Bet slip' })).toBeVisible();
  await expect.element(page.getByText(/Pick an outcome in the markets/)).toBeVisible();
});

test('a quote shows its price and cost, and Place names the bet', async () => {
  await quoteArs();
  const quote = page.getByRole('region', { name: 'Quote result' });
  await expect.element(quote.getByText('Entry price')).toBeVisible();
  await expect.element(quote.getByText('0.5600', { exact: true })).toBeVisible();
  await expect.element(quote.getByText('$24.00', { exact: true })).toBeVisible();
  const place = page.getByRole('button', { name: /^Place bet · 25 contracts · \$24\.00/ });
  await expect.element(place).toBeEnabled();
  expect(bridge.inputs('quote:request')).toEqual([
    { contractId: 'EPL-ARSCHE', outcome: 'ARS', side: 'BUY', qty: '25', unit: 'BASE', boost: 0 },
  ]);
});

test('a placed bet is sent once, with the quote it was priced by', async () => {
  bridge.answer('order:place', (input) => ({
    row: orderRow({ clientOrderId: input.clientOrderId }),
    repeated: false,
  }));
  await quoteArs();
  await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
  await expect.poll(() => bridge.inputs('order:place')).toHaveLength(1);
  expect(bridge.inputs('order:place')[0]).toMatchObject({ type: 'FOK', rfqId: 'rfq-1' });
});

test('a refused bet shows main’s sentence, and nothing is placed', async () => {
  bridge.fail('order:place', {
    kind: 'exchange',
    code: ErrorCodes.OPPOSITE_HELD,
    message: 'The opposite outcome is held; close it before betting this one.',
  });
  await quoteArs();
  await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
  await expect
    .element(page.getByRole('alert'))
    .toHaveTextContent('The opposite outcome is held; close it before betting this one.');
  expect(root.slip.order).toBeNull();
});

describe('Protect this bet', () => {
  let stopGuards: () => void;

  beforeEach(async () => {
    bridge.answer('order:place', (input) => ({
      row: orderRow({
        clientOrderId: input.clientOrderId,
        status: 'FILLED',
        boost: 50,
        knockout: '0.2800',
      }),
      repeated: false,
    }));
    bridge.answer('guards:list', guardsView());
    bridge.answer(
      'guards:settings',
      guardSettings([
        guardSpec({ kind: 'knockout', percent: '5' }),
        guardSpec({ kind: 'stop_loss', percent: '20', sharePercent: 50 }),
      ]),
    );
    bridge.answer('guards:arm', () => guardsView());
    stopGuards = root.guards.start();
    await settle();
  });

  afterEach(() => stopGuards());

  test('after a bet, the default rules are offered and nothing is armed until Arm', async () => {
    const offer = page.getByRole('region', { name: 'Protect this bet' });
    await expect.element(offer).not.toBeInTheDocument();
    await quoteArs();
    await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
    await expect.element(offer).toBeVisible();
    await expect.element(offer.getByText('KO guard 5 %')).toBeVisible();
    await expect.element(offer.getByText('Stop −20 % · sells 50 %')).toBeVisible();
    expect(bridge.inputs('guards:arm')).toEqual([]);

    await userEvent.click(offer.getByRole('button', { name: 'Arm these 2 rules' }));
    await expect.poll(() => bridge.inputs('guards:arm')).toHaveLength(1);
    expect(bridge.inputs('guards:arm')[0]).toEqual({
      contractId: 'EPL-ARSCHE',
      outcome: 'ARS',
      rules: [
        { kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1 },
        { kind: 'stop_loss', percent: '20', sharePercent: 50, confirmations: 1 },
      ],
    });
    await expect.element(offer.getByRole('status')).toHaveTextContent('Armed: KO guard 5 %');
  });

  test('a bet without a boost is offered the defaults but its knockout guard, and says why', async () => {
    bridge.answer('order:place', (input) => ({
      row: orderRow({ clientOrderId: input.clientOrderId, status: 'FILLED' }),
      repeated: false,
    }));
    await quoteArs();
    await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
    const offer = page.getByRole('region', { name: 'Protect this bet' });
    await expect
      .element(offer.getByText('Your default knockout guard is left out: this bet has no boost'))
      .toBeVisible();
    await userEvent.click(offer.getByRole('button', { name: 'Arm this rule' }));
    await expect.poll(() => bridge.inputs('guards:arm')).toHaveLength(1);
    expect(bridge.inputs('guards:arm')[0]?.rules).toEqual([
      { kind: 'stop_loss', percent: '20', sharePercent: 50, confirmations: 1 },
    ]);
  });

  test('rules changed first in the dialog are armed as changed, and the offer says so', async () => {
    await quoteArs();
    await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
    const offer = page.getByRole('region', { name: 'Protect this bet' });
    await userEvent.click(offer.getByRole('button', { name: 'Change first…' }));
    const dialog = page.getByRole('dialog', { name: 'Guardians · ARS · ARS v CHE' });
    await userEvent.click(dialog.getByRole('button', { name: 'Remove Rule 2' }));
    await userEvent.fill(
      dialog.getByRole('textbox', { name: 'Close within (% of the knockout)' }),
      '3',
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Arm rule' }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect(bridge.inputs('guards:arm')).toEqual([
      {
        contractId: 'EPL-ARSCHE',
        outcome: 'ARS',
        rules: [{ kind: 'knockout', percent: '3', sharePercent: 100, confirmations: 1 }],
      },
    ]);
    await expect.element(offer.getByRole('status')).toHaveTextContent('Armed: KO guard 3 %.');
  });

  test('a refused bet offers nothing to protect', async () => {
    bridge.answer('order:place', (input) => ({
      row: orderRow({ clientOrderId: input.clientOrderId, status: 'REJECTED' }),
      repeated: false,
    }));
    await quoteArs();
    await userEvent.click(page.getByRole('button', { name: /^Place bet/ }));
    await expect.poll(() => bridge.inputs('order:place')).toHaveLength(1);
    await settle();
    await expect
      .element(page.getByRole('region', { name: 'Protect this bet' }))
      .not.toBeInTheDocument();
  });
});
