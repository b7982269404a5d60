/**
 * The Portfolio screen in Chromium through the browser host: reached by Ctrl/Cmd+2 and by the
 * navigation, and a fresh paper desk's empty state, in words, with a way forward, passing axe
 * (WCAG 2.2 A and AA) in the light and the dark theme.
 * The integrator extends it with real figures once main answers portfolio:view (issue 18).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, keepScreenshots, test } from './fixtures.js';
import { screenButton, show } from './desk.js';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

const heading = (page: Page) => page.getByRole('heading', { name: 'Portfolio', level: 2 });

test('Portfolio is the second screen: Ctrl+2 and the navigation show it', async ({
  page,
  betdesk,
}) => {
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await page.locator('body').click();
  await page.keyboard.press('Control+2');
  await expect(heading(page)).toBeVisible();
  await expect(screenButton(page, 'Portfolio')).toHaveAttribute('aria-current', 'page');
  await expect(screenButton(page, 'Portfolio')).toHaveAttribute(
    'aria-keyshortcuts',
    'Control+2 Meta+2',
  );

  await show(page, 'Markets');
  await show(page, 'Portfolio');
  await expect(heading(page)).toBeVisible();
});

test('a fresh paper desk: the empty state says so and leads on, axe-clean light and dark', async ({
  page,
  betdesk,
}, testInfo) => {
  await page.goto(betdesk.url);
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await show(page, 'Portfolio');
  // Paper mode shows paper, apart from real money.
  await expect(page.getByRole('combobox', { name: 'Portfolio of' })).toHaveValue('paper');
  await expect(
    page.getByText('Paper: practice money on its own, never added to your exchange accounts.'),
  ).toBeVisible();
  await expect(
    page.getByText('Nothing here yet: no open position and no settled bet.'),
  ).toBeVisible();

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page })
      .withTags(WCAG_22_AA)
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    const problems = result.violations.flatMap((v) =>
      v.nodes.map((n) => `${colorScheme}: ${v.id} ${v.help}: ${n.target.join(' ')}`),
    );
    expect(problems, problems.join('\n')).toEqual([]);
  }
  await keepScreenshots(page, testInfo, 'portfolio-empty');

  await page.getByRole('button', { name: 'Go to Markets' }).click();
  await expect(screenButton(page, 'Markets')).toHaveAttribute('aria-current', 'page');
});
