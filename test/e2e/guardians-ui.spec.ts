/**
 * The guardians as the user sees them, in Chromium through the browser host over the in-memory
 * services (test/main/ipc/memory-services.ts): positions with their rules' chips, the Guard
 * dialog, the slip's offer, the Guardians screen empty, with a huge log, and paused. Each state
 * is checked with axe-core (WCAG 2.2 A and AA) and our own target-size and label-in-name checks,
 * and kept as screenshots, light and dark at 1024 and 1400 px (test-results/e2e/...).
 *
 * The guardian engine is not here: rules are moved as it would move them (`guards.update`).
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startHost, type RunningHost } from '../../src/main/host/server.js';
import type { PositionRow } from '../../src/shared/ipc/contract.js';
import {
  EMPTY_POSITIONS,
  FIXTURE,
  memoryServices,
  type MemoryServices,
} from '../main/ipc/memory-services.js';
import { axeProblems, ownProblems } from './a11y-checks.js';
import { pick, positionsTable, quote, show, slipOf } from './desk.js';
import { expect, keepScreenshots, test } from './fixtures.js';

const RENDERER = join(import.meta.dirname, '..', '..', 'out', 'renderer');
const MINUTE = 60_000;

let services: MemoryServices;
let host: RunningHost;

test.beforeEach(async () => {
  services = memoryServices();
  host = await startHost({ services, rendererDir: RENDERER, log: () => {} });
});

test.afterEach(async () => {
  await host.close();
});

function position(over: Partial<PositionRow>): PositionRow {
  return {
    contractId: FIXTURE.contractId,
    outcome: 'ARS',
    fixture: {
      league: 'EPL',
      homeTeam: 'ARS',
      awayTeam: 'CHE',
      startsAt: Date.now() + 3 * 3_600_000,
      bettingOpen: true,
      status: 'OPEN',
    },
    contracts: 120,
    entryPrice: '0.5600',
    estimatedClosingPrice: '0.5120',
    costBasis: '67.20',
    value: '61.44',
    pnl: '-5.76',
    exchangePnl: '-5.76',
    pnlPercent: '-8.57',
    maxPayout: '120.00',
    boosted: true,
    knockout: '0.4300',
    indexPrice: '0.5050',
    indexReadAt: Date.now(),
    indexStaleAfterMs: 60_000,
    knockoutDistance: { price: '0.0750', fraction: '0.1485' },
    nearLevel: null,
    updatedAt: Date.now(),
    heldSince: null,
    lots: null,
    ...over,
  };
}

/** Three positions, two of them guarded, one rule held and one closing. */
function seedGuarded(): void {
  services.positions = {
    ...EMPTY_POSITIONS,
    snapshotAt: Date.now(),
    positions: [
      position({}),
      position({
        contractId: 'EPL-LIVMUN-0002',
        outcome: 'LIV',
        fixture: { ...position({}).fixture!, homeTeam: 'LIV', awayTeam: 'MUN' },
        boosted: false,
        knockout: null,
        knockoutDistance: null,
        pnl: '12.40',
        pnlPercent: '18.20',
      }),
      position({
        contractId: 'SPA-RMABAR-0003',
        outcome: 'BAR',
        fixture: {
          ...position({}).fixture!,
          league: 'LaLiga',
          homeTeam: 'RMA',
          awayTeam: 'BAR',
        },
      }),
    ],
  };
  const arm = (
    contractId: string,
    outcome: string,
    rules: Parameters<typeof services.guards.arm>[0]['rules'],
  ) => services.guards.arm({ contractId, outcome, rules });
  arm(FIXTURE.contractId, 'ARS', [
    { kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1 },
    { kind: 'stop_loss', percent: '20', sharePercent: 100, confirmations: 2 },
    { kind: 'time_exit', minutes: 15, sharePercent: 100, confirmations: 1 },
  ]);
  arm('EPL-LIVMUN-0002', 'LIV', [
    { kind: 'trailing_stop', percent: '10', sharePercent: 50, confirmations: 1 },
    { kind: 'take_profit', price: '0.8000', sharePercent: 100, confirmations: 1 },
  ]);
  services.guards.update(1, { distance: '12.4 % from the knockout, fires at 5 %' });
  services.guards.update(2, {
    distance: '11.4 pts above the stop',
    hold: 'stale',
    holdMessage: 'waiting for fresh prices',
  });
  services.guards.update(3, { distance: 'in 2 h 45 min' });
  services.guards.update(4, { state: 'firing', clientOrderId: 'bd-guard-4' });
  services.guards.update(5, { distance: '0.1880 below the target' });
}

/** `n` log rows over the last days: every event, hold and kind, with observations and orders. */
function seedLog(n: number): void {
  const rule = services.guards.rules[0] ?? {
    id: 1,
    accountId: null,
    contractId: FIXTURE.contractId,
    outcome: 'ARS',
    fixture: null,
    spec: { kind: 'knockout' as const, percent: '5', sharePercent: 100, confirmations: 1 },
  };
  const kinds = ['knockout', 'stop_loss', 'take_profit', 'trailing_stop', 'time_exit'] as const;
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const event = (['held', 'fired', 'sent', 'filled', 'failed', 'held'] as const)[i % 6]!;
    const row = services.guards.addLog(
      { ...rule, spec: { ...rule.spec, kind: kinds[i % kinds.length]! } },
      event,
      event === 'held'
        ? 'Held: the figures are older than twice the polling interval (waiting for fresh prices).'
        : event === 'failed'
          ? 'The exchange refused the close: betting is closed on this fixture (-2029). It will not retry.'
          : event === 'filled'
            ? 'The close filled: 120 contracts sold at 0.4410.'
            : event === 'sent'
              ? 'The exchange accepted the close (MARKET SELL of 120 contracts).'
              : 'The index came within 4.8 % of the knockout: closing 120 contracts.',
      {
        hold: event === 'held' ? 'stale' : null,
        observation: {
          at: now - i * 7 * MINUTE - 2_000,
          closingPrice: '0.4410',
          indexPrice: '0.4512',
          pnl: '-14.28',
          pnlPercent: '-21.25',
          contracts: 120,
        },
        contracts: event === 'held' ? null : 120,
        clientOrderId: event === 'held' ? null : `bd-guard-${i}`,
        orderId: event === 'filled' || event === 'sent' ? `0x${(4096 + i).toString(16)}` : null,
        errorCode: event === 'failed' ? -2029 : null,
      },
    );
    row.at = now - i * 7 * MINUTE;
  }
}

async function check(page: Page, state: string, problems: string[]): Promise<void> {
  problems.push(...(await axeProblems(page, state)), ...(await ownProblems(page, state)));
}

test('positions show their rules; the Guard dialog arms, changes and disarms', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  seedGuarded();
  const problems: string[] = [];
  await page.goto(host.url);
  await show(page, 'Positions');
  const chips = page.getByRole('list', { name: 'Guardians of ARS ARS v CHE' });
  await expect(chips.getByRole('listitem')).toHaveCount(3);
  await expect(chips.getByRole('listitem').nth(1)).toContainText(
    'Stop −20 % · Held: waiting for fresh prices',
  );
  await expect(page.getByRole('list', { name: 'Guardians of LIV LIV v MUN' })).toContainText(
    'Closing…',
  );
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await check(page, `Positions with guardians (${scheme})`, problems);
  }
  await keepScreenshots(page, testInfo, 'positions-guarded');

  await positionsTable(page).getByRole('button', { name: 'Guard BAR RMA v BAR' }).click();
  const dialog = page.getByRole('dialog', { name: 'Guardians · BAR · RMA v BAR' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Add another rule' }).click();
  const second = dialog.getByRole('group', { name: 'Rule 2' });
  await second.getByRole('combobox', { name: 'Rule' }).selectOption('stop_loss');
  await second.getByRole('textbox', { name: 'Share to close (%)' }).fill('50');
  await check(page, 'Guard dialog, two rules', problems);
  await keepScreenshots(page, testInfo, 'guard-dialog');
  await dialog.getByRole('button', { name: 'Arm 2 rules' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Guardians of BAR RMA v BAR' })).toContainText(
    'Stop −20 % (50 %)',
  );

  // Change the knockout guard of ARS, then disarm its time exit.
  await positionsTable(page).getByRole('button', { name: 'Guard ARS ARS v CHE' }).click();
  const ars = page.getByRole('dialog', { name: 'Guardians · ARS · ARS v CHE' });
  await ars.getByRole('button', { name: 'Change KO guard 5 %' }).click();
  await ars.getByRole('textbox', { name: 'Close within (% of the knockout)' }).fill('3');
  await ars.getByRole('button', { name: 'Change rule' }).click();
  await expect(ars).toHaveCount(0);
  await expect(chips).toContainText('KO guard 3 %');
  await positionsTable(page).getByRole('button', { name: 'Guard ARS ARS v CHE' }).click();
  await ars.getByRole('button', { name: 'Disarm Exit 15 min before kick-off' }).click();
  await expect(ars.getByText(/Exit 15 min before kick-off/)).toHaveCount(0);
  await page.keyboard.press('Escape');
  expect(
    services.calls.filter((c) => c.method.startsWith('guards.arm')).map((c) => c.input),
  ).toEqual([
    expect.objectContaining({ contractId: 'SPA-RMABAR-0003', outcome: 'BAR' }),
    expect.objectContaining({ replaces: 1 }),
  ]);
  expect(problems, problems.join('\n')).toEqual([]);
});

test('the Guardians screen: empty, a huge log, filtered, and paused on every screen', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const problems: string[] = [];
  await page.goto(host.url);
  await show(page, 'Guardians');
  await expect(page.getByText(/^No guardian events yet/)).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await check(page, `Guardians, empty (${scheme})`, problems);
  }
  await keepScreenshots(page, testInfo, 'guardians-empty');

  seedGuarded();
  seedLog(20_000);
  await page.reload();
  await show(page, 'Guardians');
  await expect(page.getByText(/^20,\d{3} events, newest first/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Guardian log' }).getByRole('row')).toHaveCount(101);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await check(page, `Guardians, a huge log (${scheme})`, problems);
  }
  await keepScreenshots(page, testInfo, 'guardians-log');

  await page.getByRole('combobox', { name: 'Event' }).selectOption('failed');
  await expect(page.getByText(/^3,\d{3} events, newest first/)).toBeVisible();
  await page.getByRole('button', { name: 'Export CSV…' }).click();
  await expect(page.getByRole('dialog', { name: /^Export guardian log to CSV/ })).toBeVisible();
  await check(page, 'Guardians, the Export dialog', problems);
  await page.keyboard.press('Escape');

  await page.getByRole('checkbox', { name: 'Pause guardians' }).check();
  const banner = page.getByRole('region', { name: 'Guardians paused' });
  await expect(banner).toContainText('Guardians paused — no rule will close a position');
  await check(page, 'Guardians, paused', problems);
  await keepScreenshots(page, testInfo, 'guardians-paused');
  await show(page, 'Markets');
  await expect(banner).toBeVisible();
  await keepScreenshots(page, testInfo, 'markets-paused');
  expect(problems, problems.join('\n')).toEqual([]);
});

test('after a bet the slip offers the default rules, armed only on Arm', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  services.guards.settings = {
    limits: { closes: 5, contracts: 1000, stake: null },
    defaults: [
      { kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1 },
      { kind: 'trailing_stop', percent: '10', sharePercent: 50, confirmations: 2 },
    ],
  };
  const problems: string[] = [];
  await page.goto(host.url);
  await pick(page, 0);
  // A boosted bet: it has a knockout, so the default knockout guard is offered too.
  const place = await quote(page, { contracts: '10', boost: 50 });
  await place.click();
  await slipOf(page).getByRole('button', { name: 'Confirm bet' }).click();
  const offer = slipOf(page).getByRole('region', { name: 'Protect this bet' });
  await expect(offer).toContainText('Trail 10 % · sells 50 % · 2 checks');
  expect(services.calls.filter((c) => c.method === 'guards.arm')).toEqual([]);
  await check(page, 'Slip, Protect this bet', problems);
  await keepScreenshots(page, testInfo, 'slip-protect');
  await offer.getByRole('button', { name: 'Arm these 2 rules' }).click();
  await expect(offer.getByRole('status')).toContainText('Armed: KO guard 5 %');
  expect(services.guards.rules.map((r) => r.spec.kind)).toEqual(['knockout', 'trailing_stop']);
  expect(problems, problems.join('\n')).toEqual([]);
});
