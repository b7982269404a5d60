/**
 * Every account watched (docs/desk.md, "Every account watched"), as a user meets it: a boosted
 * bet on a live account, paper on screen, and the exchange's index price coming near the
 * knockout. The live account's alert reaches the page all the same: a toast naming the account,
 * and the Alerts screen naming it with its counts and a switch to it.
 */
import { a11yLightAndDark } from './a11y-checks.js';
import { pick, placeAndFill, quote, show, slipOf } from './desk.js';
import { addLiveAccount, expect, keepScreenshot, test } from './fixtures.js';
import type { Exchange } from './processes.js';

/** Sets an outcome's index price on the exchange (its control API), as the market would move. */
async function setIndex(
  exchange: Exchange,
  teams: { home: string; away: string; outcome: string },
  indexPrice: string,
): Promise<void> {
  let found: { contractId: string } | undefined;
  for (let offset = 0; !found; offset += 100) {
    // GET /fixtures needs no key (docs/api.md 4.2).
    const res = await fetch(`${exchange.url}/fixtures?limit=100&offset=${offset}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      fixtures: { contractId: string; homeTeam: string; awayTeam: string }[];
      total: number;
    };
    found = page.fixtures.find((x) => x.homeTeam === teams.home && x.awayTeam === teams.away);
    if (offset + 100 >= page.total) break;
  }
  expect(found, `${teams.home} v ${teams.away} on the exchange`).toBeDefined();
  const set = await fetch(`${exchange.url}/sandbox/fixtures/${found!.contractId}/price`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${exchange.adminToken}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ outcome: teams.outcome, indexPrice }),
  });
  expect(set.status).toBe(200);
}

test('a live account off screen alerts: a toast names it, Alerts offers the switch', async ({
  page,
  betdesk,
  exchange,
}, testInfo) => {
  test.slow();
  await page.goto(betdesk.url);
  await addLiveAccount(page, exchange, 'Live B');

  // Boost 60 at an index of 0.06: knockout 0.0379.
  const bet = await pick(page, 0);
  await setIndex(exchange, bet, '0.0600');
  await placeAndFill(page, await quote(page, { contracts: '20', boost: 60 }));
  await expect(slipOf(page)).toContainText('0.0379');

  // Paper on screen; the exchange's index comes inside the 2 % level of Live B's knockout.
  await show(page, 'Accounts');
  await page.getByRole('button', { name: 'Switch to paper trading' }).click();
  await expect(page.getByRole('button', { name: 'Paper trading is on' })).toBeVisible();
  await show(page, 'Markets');
  await setIndex(exchange, bet, '0.0384');

  const toasts = page.getByRole('region', { name: 'Notifications' });
  await expect(toasts).toContainText('Near knockout · Live B', { timeout: 45_000 });
  await keepScreenshot(page, testInfo, 'toast-other-account');
  await toasts.getByRole('button', { name: 'Show in Alerts' }).first().click();

  const others = page.getByRole('list', { name: 'Other accounts, also watched' });
  await expect(others).toContainText(/Live B: \d+ unread \(1 near or knocked out\)/);
  await expect(others).toContainText('1 position near the knockout now');
  // Paper's own list has no alert of Live B's.
  await expect(page.getByRole('list', { name: 'Alerts' })).toHaveCount(0);
  expect(await a11yLightAndDark(page, 'Alerts, another account alerting')).toEqual([]);
  for (const [width, height] of [
    [1400, 900],
    [1024, 700],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await keepScreenshot(
        page,
        testInfo,
        `alerts-other-account-${width}x${height}-${colorScheme}`,
      );
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await others.getByRole('button', { name: 'Switch to Live B' }).click();
  await expect(page.getByRole('status', { name: 'Live account: Live B' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Alerts' }).getByRole('listitem').first(),
  ).toContainText(/Near knockout[\s\S]*knockout 0\.0379/);
  await expect(others).toHaveCount(0);
});
