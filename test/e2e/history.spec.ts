/**
 * History in Chromium through the browser host: a history made at the desk (paper mode, the
 * practice controls) shows with totals that add up, filters change rows and totals, the CSV
 * the browser downloads is byte for byte the CLI's for the same filter, a canceled export
 * leaves no file, and with the exchange gone the history still shows from the store.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { openStore } from '../../src/main/store/index.js';
import { add, cmp } from '../../src/shared/money.js';
import { seedSettlements } from '../../bench/settlement-seed.js';
import { addLiveAccount, expect, keepScreenshot, test } from './fixtures.js';
import {
  amountOf,
  pick,
  placeAndFill,
  positionsTable,
  practiceOf,
  quote,
  show,
  slipOf,
} from './desk.js';
import type { Betdesk } from './processes.js';

const root = join(import.meta.dirname, '..', '..');

const historyButton = (page: Page) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^History/ });

async function showHistory(page: Page): Promise<void> {
  await historyButton(page).click();
  await expect(historyButton(page)).toHaveAttribute('aria-current', 'page');
}

const grid = (page: Page) => page.getByRole('grid', { name: 'Settlements' });
/** Data rows of the settlements grid (a row with a time; not the header or "Loading…"). */
const dataRows = (page: Page) =>
  grid(page)
    .getByRole('row')
    .filter({ has: page.locator('time') });
const totals = (page: Page) => page.getByRole('group', { name: 'Totals for these filters' });
const filters = (page: Page) => page.getByRole('form', { name: 'History filters' });

/** The figure a totals entry shows ("Realized P&L" -> "+$1.20 profit"). */
function figure(page: Page, term: string): Locator {
  return totals(page)
    .locator('div')
    .filter({ has: page.getByText(term, { exact: true }) })
    .locator('dd');
}

/** "−$1,234.50 loss" -> "-1234.50"; "$20.00" -> "20.00" (the real minus sign too). */
const amount = amountOf;

/** Runs the CLI's export of the host's store and answers the file's bytes. */
function cliExport(betdesk: Betdesk, args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-e2e-cli-'));
  try {
    const out = join(dir, 'cli.csv');
    execFileSync(
      'npm',
      [
        'run',
        '--silent',
        'cli',
        '--',
        'export',
        'settlements',
        '--db',
        join(betdesk.dataDir, 'betdesk.sqlite'),
        '--out',
        out,
        ...args,
      ],
      { cwd: root, env: { ...process.env, BETDESK_KEYCHAIN_SERVICE: betdesk.keychainService } },
    );
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Export CSV… with the default options; resolves with the browser's download. */
async function exportCsv(page: Page) {
  await page.getByRole('button', { name: 'Export CSV…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Export settlements to CSV/ });
  await expect(
    dialog.getByRole('checkbox', { name: /^Guard against spreadsheet formulas/ }),
  ).toBeChecked();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export' }).click();
  return download;
}

test('a history made at the desk: rows, totals, filters, export equal to the CLI, cancel', async ({
  page,
  betdesk,
}, testInfo) => {
  test.setTimeout(300_000);
  await page.goto(betdesk.url);

  await showHistory(page);
  await expect(page.getByText('No settled bets yet.')).toBeVisible();
  await keepScreenshot(page, testInfo, 'history-empty');

  // A boosted bet, knocked out with the practice controls.
  const ko = await pick(page, 0);
  await placeAndFill(page, await quote(page, { contracts: '5', boost: 50 }));
  await show(page, 'Positions');
  const koRow = positionsTable(page).getByRole('row', {
    name: `${ko.outcome} ${ko.home} v ${ko.away}`,
  });
  await koRow.click({ timeout: 30_000 });
  await practiceOf(page).getByRole('button', { name: 'Move past the knockout' }).click();
  await expect(koRow).toHaveCount(0, { timeout: 30_000 });

  // A bet closed from its row.
  const closed = await pick(page, 2);
  await placeAndFill(page, await quote(page, { contracts: '4' }));
  await show(page, 'Positions');
  await page
    .getByRole('button', { name: `Close ${closed.outcome} ${closed.home} v ${closed.away}` })
    .click({ timeout: 30_000 });
  await slipOf(page).getByRole('button', { name: 'Request quote' }).click();
  await placeAndFill(
    page,
    slipOf(page).getByRole('button', { name: /^Place bet · Sell 4 contracts/ }),
  );

  // A bet held to the end of its game.
  const settled = await pick(page, 4);
  await placeAndFill(page, await quote(page, { contracts: '3' }));
  await show(page, 'Positions');
  const settledRow = positionsTable(page).getByRole('row', {
    name: `${settled.outcome} ${settled.home} v ${settled.away}`,
  });
  await settledRow.click({ timeout: 30_000 });
  await practiceOf(page)
    .getByRole('button', { name: `${settled.outcome} wins` })
    .click();
  await expect(settledRow).toHaveCount(0, { timeout: 30_000 });

  // History: three rows, and totals that are the rows added up.
  await showHistory(page);
  await expect(dataRows(page)).toHaveCount(3, { timeout: 60_000 });
  await expect(totals(page)).toHaveAttribute('aria-busy', 'false');
  await expect(figure(page, 'Settlements')).toHaveText('3');
  await expect(figure(page, 'Knockouts')).toHaveText('1');
  // The realized P&L column (the seventh) and where each comes from (the eighth): a close and a
  // knockout as the exchange reported them; the game held to the end from the exchange's cost
  // basis when a positions read saw it, else from the orders, or unknown. The total is every
  // known row added up.
  const pnlCells = await dataRows(page).locator('[role="gridcell"]:nth-child(7)').allInnerTexts();
  const sources = await dataRows(page).locator('[role="gridcell"]:nth-child(8)').allInnerTexts();
  const pnls = pnlCells.filter((t) => t.includes('$')).map(amount);
  expect(sources.filter((t) => t.includes('exchange')).length).toBeGreaterThanOrEqual(2);
  expect(pnls).toHaveLength(3 - sources.filter((t) => t.includes('unknown')).length);
  expect(cmp(amount(await figure(page, 'Realized P&L').innerText()), add(...pnls))).toBe(0);
  await expect(page.getByRole('table', { name: /^Breakdown/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /P&L/ })).toBeVisible();
  await keepScreenshot(page, testInfo, 'history-three');

  // A row opens with its orders.
  await dataRows(page).filter({ hasText: 'Closed' }).click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByRole('row').filter({ hasText: 'SELL' })).toHaveCount(1);
  await expect(detail.getByRole('row').filter({ hasText: 'BUY' })).toHaveCount(1);
  await keepScreenshot(page, testInfo, 'history-detail');
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);

  // Filters change rows and totals.
  await filters(page).getByLabel('Type').selectOption('KNOCKED_OUT');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(figure(page, 'Settlements')).toHaveText('1');
  await expect(figure(page, 'Payouts')).toHaveText('$0.00');

  // The download is the CLI's export of the same filter, byte for byte.
  const koDownload = await exportCsv(page);
  expect(koDownload.suggestedFilename()).toMatch(/^betdesk-settlements-\d{4}-\d\d-\d\d\.csv$/);
  const koBytes = readFileSync(await koDownload.path());
  expect(koBytes.toString('utf8').split('\r\n')).toHaveLength(3); // header, one row, end
  expect(koBytes.equals(cliExport(betdesk, ['--type', 'KNOCKED_OUT']))).toBe(true);
  await filters(page).getByLabel('Type').selectOption('');
  await expect(dataRows(page)).toHaveCount(3);
  const allBytes = readFileSync(await (await exportCsv(page)).path());
  expect(allBytes.equals(cliExport(betdesk, []))).toBe(true);
  await expect(
    page.locator('#main').getByText(/^Export finished: 3 rows sent to your downloads/),
  ).toBeVisible();

  // A long export, canceled: the browser keeps no file.
  const store = openStore(join(betdesk.dataDir, 'betdesk.sqlite'));
  const accountId = store.accounts.list()[0]!.id;
  seedSettlements(store, accountId, 400_000);
  store.close();
  await page.reload();
  await showHistory(page);
  await expect(figure(page, 'Settlements')).toHaveText('400,003', { timeout: 30_000 });
  const long = await exportCsv(page);
  await page.getByRole('button', { name: 'Cancel export' }).click();
  expect(await long.failure()).not.toBeNull();
  await expect(long.path()).rejects.toThrow();
  await expect(
    page.locator('#main').getByText('Export canceled: no file was left behind.'),
  ).toBeVisible();
  expect(existsSync(join(betdesk.dataDir, `${long.suggestedFilename()}`))).toBe(false);
  await keepScreenshot(page, testInfo, 'history-huge-canceled');
});

test('with the exchange stopped, the history still shows from the store', async ({
  page,
  betdesk,
  exchange,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(betdesk.url);
  await addLiveAccount(page, exchange, 'Live desk');

  const bet = await pick(page, 0);
  await placeAndFill(page, await quote(page, { contracts: '6' }));
  const fixtures = (await (await fetch(`${exchange.url}/fixtures?limit=100`)).json()) as {
    fixtures: { contractId: string; homeTeam: string; awayTeam: string }[];
  };
  const fixture = fixtures.fixtures.find(
    (f) => f.homeTeam === bet.home && f.awayTeam === bet.away,
  )!;
  const res = await fetch(`${exchange.url}/sandbox/fixtures/${fixture.contractId}/resolve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${exchange.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ winner: bet.outcome }),
  });
  expect(res.status).toBe(200);

  await showHistory(page);
  await expect(dataRows(page)).toHaveCount(1, { timeout: 60_000 });
  await expect(dataRows(page).first()).toContainText('Settled');

  await exchange.stop();
  await expect(page.getByRole('alert', { name: 'Offline indicator' })).toBeVisible({
    timeout: 60_000,
  });
  await page.reload();
  await showHistory(page);
  await expect(
    page.locator('#main').getByText(/^Offline: showing the history saved on this computer/),
  ).toBeVisible();
  await expect(dataRows(page)).toHaveCount(1);
  await expect(figure(page, 'Settlements')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Resync history…' })).toBeDisabled();
  await keepScreenshot(page, testInfo, 'history-offline');
});

test('custom dates before 1970 are taken; while the dates are not a range no old rows show', async ({
  page,
  betdesk,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  const store = openStore(join(betdesk.dataDir, 'betdesk.sqlite'));
  seedSettlements(store, store.accounts.list()[0]!.id, 40); // settled in 2024
  store.close();
  await page.reload();
  await showHistory(page);
  await expect(figure(page, 'Settlements')).toHaveText('40', { timeout: 30_000 });

  const f = filters(page);
  const problem = f.getByRole('alert');
  await f.getByLabel('Period').selectOption('custom');
  // As the date picker gives them: 1900, then year 1 (negative ms, through main and the store).
  for (const day of ['1900-01-01', '0001-01-01']) {
    await f.getByLabel('From').fill(day);
    await expect(problem).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: /^40 settlements/ })).toBeVisible();
    await expect(figure(page, 'Settlements')).toHaveText('40');
  }
  await f.getByLabel('To (included)').fill('1950-12-31');
  await expect(page.getByText('No settlements match these filters.')).toBeVisible();
  await expect(figure(page, 'Settlements')).toHaveText('0');
  await keepScreenshot(page, testInfo, 'history-before-1970');

  // Dates that are not a range: the last filter's rows and totals are not shown as these.
  await f.getByLabel('To (included)').fill('2100-12-31');
  await expect(figure(page, 'Settlements')).toHaveText('40');
  await expect(dataRows(page).first()).toBeVisible();
  await f.getByLabel('From').fill('2200-01-01');
  await expect(problem).toHaveText('The start date is after the end date.');
  await expect(grid(page)).toHaveCount(0);
  await expect(totals(page)).toHaveCount(0);
  await expect(page.getByText('No settlements shown: the dates are not a range.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV…' })).toBeDisabled();
  await keepScreenshot(page, testInfo, 'history-not-a-range');
  await f.getByLabel('From').fill('2024-01-01');
  await expect(problem).toHaveCount(0);
  await expect(figure(page, 'Settlements')).toHaveText('40');
});

test('Orders shares the date filter: year 1 is asked for, dates not a range hide the list', async ({
  page,
  betdesk,
}) => {
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await show(page, 'Orders');
  await expect(page.getByText(/^No orders yet/)).toBeVisible();
  const f = page.getByRole('form', { name: 'Order filters' });
  await f.getByLabel('Period').selectOption('custom');
  await f.getByLabel('From').fill('0001-01-01');
  await f.getByLabel('To (included)').fill('1969-12-31');
  await expect(f.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText('No orders match these filters.')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Totals for these filters' })).toContainText(
    '0 exchange orders',
  );
  await f.getByLabel('From').fill('1970-01-01');
  await expect(f.getByRole('alert')).toHaveText('The start date is after the end date.');
  await expect(
    page.getByText('Orders and totals show again once the dates make a range.'),
  ).toBeVisible();
  await expect(page.getByRole('group', { name: 'Totals for these filters' })).toHaveCount(0);
});
