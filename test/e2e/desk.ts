/** Steps the desk specs share: the screens, the slip, and a bet from quote to fill. */
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.js';

export type ScreenLabel =
  | 'Markets'
  | 'Portfolio'
  | 'Positions'
  | 'Orders'
  | 'Alerts'
  | 'Guardians'
  | 'History'
  | 'Accounts';

/** A screen's button in the navigation (the Alerts one may carry its unread count). */
export function screenButton(page: Page, name: ScreenLabel): Locator {
  return page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('button', { name: new RegExp(`^${name}`) });
}

export async function show(page: Page, name: ScreenLabel): Promise<void> {
  await screenButton(page, name).click();
  await expect(screenButton(page, name)).toHaveAttribute('aria-current', 'page');
}

export const slipOf = (page: Page): Locator =>
  page.getByRole('complementary', { name: 'Bet slip' });

export const practiceOf = (page: Page): Locator => page.getByRole('region', { name: /^Practice/ });

/** The outcome button of the `nth` fixture listed (home 0, away 1), and what it names. */
export async function pick(
  page: Page,
  fixture: number,
  side: 'home' | 'away' = 'home',
): Promise<{ outcome: string; home: string; away: string }> {
  await show(page, 'Markets');
  const item = page.getByRole('listitem').nth(fixture);
  await expect(item).toBeVisible();
  const name = (await item.getAttribute('aria-label')) ?? '';
  const [home = '', away = ''] = name.split(' v ');
  const outcome = side === 'home' ? home : away;
  await item.getByRole('button', { name: new RegExp(`^Bet on ${outcome} [\\d.]+ in `) }).click();
  return { outcome, home, away };
}

/** Fills the slip and asks for a quote; resolves once the Place button says what it will do. */
export async function quote(
  page: Page,
  opts: { contracts: string; boost?: number; market?: boolean },
): Promise<Locator> {
  const slip = slipOf(page);
  await slip.getByLabel('Number of contracts').fill(opts.contracts);
  if (opts.boost !== undefined) {
    await slip.getByRole('slider', { name: /^Boost/ }).fill(String(opts.boost));
  }
  if (opts.market) await slip.getByRole('radio', { name: 'Market' }).check();
  await slip.getByRole('button', { name: 'Request quote' }).click();
  const place = slip.getByRole('button', { name: /^Place bet · / });
  await expect(place).toBeEnabled();
  return place;
}

/** The order's sentence in the slip ("Filled: bought 25 contracts at 0.56."). */
export function orderStatus(page: Page): Locator {
  return slipOf(page).getByRole('region', { name: 'Order status' }).getByRole('status');
}

/** Place with the confirmation step, and wait for the fill. */
export async function placeAndFill(page: Page, place: Locator): Promise<void> {
  await place.click();
  await slipOf(page).getByRole('button', { name: 'Confirm bet' }).click();
  await expect(orderStatus(page)).toHaveText(/^Filled: /, { timeout: 30_000 });
}

export function positionsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Positions' });
}

export function ordersRows(page: Page): Locator {
  return page.getByRole('table', { name: 'Orders' }).locator('tbody tr');
}

/** "-$1,234.50 loss" -> "-1234.50"; "+$20.00 profit" -> "20.00": a shown amount as a decimal. */
export function amountOf(text: string): string {
  const m = /([-−]?)\+?\$([\d,]+\.\d+)/.exec(text);
  if (!m) throw new Error(`No amount in "${text}".`);
  return `${m[1] ? '-' : ''}${m[2]!.replaceAll(',', '')}`;
}

/** A figure of a definition list in `group` by its term ("Money at risk" -> its <dd>). */
export function figureIn(group: Locator, term: string): Locator {
  return group
    .locator('dl > div')
    .filter({ has: group.page().getByText(term, { exact: true }) })
    .locator('dd');
}

export const portfolioFigures = (page: Page): Locator =>
  page.getByRole('group', { name: 'Portfolio figures' });

/** The Portfolio screen with `scope` chosen ('live', 'paper' or an account's label), read. */
export async function showPortfolio(page: Page, scope: string): Promise<void> {
  await show(page, 'Portfolio');
  const picker = page.getByRole('combobox', { name: 'Portfolio of' });
  if (['live', 'paper'].includes(scope)) await picker.selectOption(scope);
  else await picker.selectOption({ label: scope });
  await expect(page.getByText('Loading the portfolio…')).toHaveCount(0);
  await expect(portfolioFigures(page)).toHaveAttribute('aria-busy', 'false');
}

/** The Positions screen's totals row: money at risk and max payout, as decimals. */
export async function positionTotals(page: Page): Promise<{ atRisk: string; maxPayout: string }> {
  await show(page, 'Positions');
  const foot = positionsTable(page).locator('tfoot');
  const cell = (label: string) => foot.locator('td').filter({ hasText: label });
  return {
    atRisk: amountOf(await cell('At risk').innerText()),
    maxPayout: amountOf(await cell('Max payout').innerText()),
  };
}

/** Sets the index price of the outcome the Practice panel is on, and waits for its word. */
export async function practisePrice(page: Page, price: string): Promise<void> {
  const practice = practiceOf(page);
  await practice.getByRole('textbox', { name: /index price/ }).fill(price);
  await practice.getByRole('button', { name: 'Set price' }).click();
  const log = practice.getByRole('log', { name: 'Practice results' });
  await expect(log.getByRole('listitem').first()).toContainText(`index price is now ${price}`);
}

/** Closes the open position of `bet` from its Positions row: a quote to sell all, placed. */
export async function closeFromRow(
  page: Page,
  bet: { outcome: string; home: string; away: string },
  contracts: string,
): Promise<void> {
  await show(page, 'Positions');
  await page
    .getByRole('button', { name: `Close ${bet.outcome} ${bet.home} v ${bet.away}` })
    .click({ timeout: 30_000 });
  await slipOf(page).getByRole('button', { name: 'Request quote' }).click();
  await placeAndFill(
    page,
    slipOf(page).getByRole('button', {
      name: new RegExp(`^Place bet · Sell ${contracts} contracts`),
    }),
  );
}
