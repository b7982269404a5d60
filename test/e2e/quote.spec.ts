import { expect, keepScreenshot, test } from './fixtures.js';

const FIELDS = [
  'Contracts',
  'Entry price',
  'Index price',
  'Cost',
  'Max win',
  'Exit value',
  'Knockout',
  'Exchange capacity',
  'Minimum contracts',
];

test('a quote shows every field and counts down in server time', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.goto(betdesk.url);
  await page
    .getByRole('button', { name: /^Bet on / })
    .first()
    .click();
  const slip = page.getByRole('complementary', { name: 'Bet slip' });
  await slip.getByLabel('Number of contracts').fill('10');
  await slip.getByRole('slider', { name: /^Boost/ }).fill('50');
  await slip.getByRole('button', { name: 'Request quote' }).click();

  const quote = slip.getByRole('region', { name: 'Quote result' });
  /** The value the quote shows for `field`: the definition after its term. */
  const value = (field: string) =>
    quote
      .getByRole('term')
      .filter({ hasText: new RegExp(`^${field}$`) })
      .locator('xpath=following-sibling::dd[1]');
  for (const field of FIELDS) await expect(value(field)).toHaveText(/\S/);
  await expect(value('Contracts')).toHaveText('10');
  for (const money of ['Cost', 'Max win', 'Exit value']) {
    await expect(value(money)).toHaveText(/^\$[\d,]+\.\d\d$/);
  }
  await expect(value('Entry price')).toHaveText(/^0\.\d+$/);
  await expect(value('Index price')).toHaveText(/^0\.\d+$/);
  // Boosted, so the position has a knockout price.
  await expect(value('Knockout')).toHaveText(/^0\.\d+$/);

  const countdown = quote.getByRole('timer', { name: 'Quote expires in' });
  const seconds = async () => Number((await countdown.textContent())?.match(/\d+/)?.[0]);
  const first = await seconds();
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(30);
  await expect.poll(seconds).toBeLessThan(first);

  // The button says what will happen, and the boosted bet's knockout is said before it.
  const place = quote.getByRole('button', { name: /^Place bet/ });
  await expect(place).toBeEnabled();
  await expect(place).toHaveAccessibleName(/^Place bet · 10 contracts · \$[\d,]+\.\d\d$/);
  await expect(place).toHaveAccessibleDescription(/knocked out .*0\.\d+/);
  await keepScreenshot(page, testInfo, 'bet-slip');
});

test('an expired quote cannot be used', async ({ page, betdesk }) => {
  test.slow();
  await page.goto(betdesk.url);
  await page
    .getByRole('button', { name: /^Bet on / })
    .first()
    .click();
  const slip = page.getByRole('complementary', { name: 'Bet slip' });
  await slip.getByRole('radio', { name: 'Dollars' }).check();
  await slip.getByLabel('Amount in USD').fill('25');
  await slip.getByRole('button', { name: 'Request quote' }).click();
  const quote = slip.getByRole('region', { name: 'Quote result' });
  await expect(quote.getByRole('timer', { name: 'Quote expires in' })).toBeVisible();

  await expect(quote.getByRole('alert')).toHaveText('This quote has expired; request a new one.', {
    timeout: 45_000,
  });
  await expect(quote.getByRole('timer')).toHaveCount(0);
  await expect(quote.getByRole('button', { name: /^Place bet/ })).toBeDisabled();
});

test('a size that is not a number is explained before any quote is asked for', async ({
  page,
  betdesk,
}) => {
  await page.goto(betdesk.url);
  await page
    .getByRole('button', { name: /^Bet on / })
    .first()
    .click();
  const slip = page.getByRole('complementary', { name: 'Bet slip' });
  await slip.getByLabel('Number of contracts').fill('abc');
  await expect(slip.getByText('Enter a number, like 25.')).toBeVisible();
  await expect(slip.getByRole('button', { name: 'Request quote' })).toBeDisabled();
});
